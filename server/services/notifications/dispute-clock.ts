import type { NotifyInput } from './notifications.ts';
import type { TradeDisputePayload } from './trade-events.ts';

// A dispute's clocks (issue 24; server/services/trades/escalation.ts, take.ts): who is told what.
//   taken          both parties: a moderator has their dispute
//   escalated      both parties (level 1: every moderator, 2: the administrators), the moderator
//                  who had it and missed the decision's deadline, and each staff member called
//                  who is not a party
//   answer_missed  the counterpart: the moderator sees the answer is late; write now

type Notify = (input: NotifyInput) => Promise<unknown>;

export async function disputeClockMoved(event: TradeDisputePayload, notify: Notify): Promise<void> {
  const { tradeHash, link, buyerId, sellerId } = event;
  const parties = [buyerId, sellerId];
  const otherOf = (userId: number) => (userId === buyerId ? event.sellerUsername : event.buyerUsername);
  const tell = (userId: number, type: NotifyInput['type'], key: NotifyInput['message']['key'], username: string) =>
    notify({ userId, type, link, message: { key, params: { username, tradeHash } } });

  if (event.kind === 'taken') {
    for (const id of parties) await tell(id, 'trade_dispute_taken', 'trade_dispute_taken', otherOf(id));
    return;
  }
  if (event.kind === 'answer_missed') {
    if (event.counterpartId !== null) {
      const id = event.counterpartId;
      await tell(id, 'trade_dispute_answer_missed', 'trade_dispute_answer_missed', otherOf(id));
    }
    return;
  }
  const toParties = event.level >= 2 ? 'trade_dispute_escalated_admins' : 'trade_dispute_escalated_moderators';
  for (const id of parties) await tell(id, 'trade_dispute_escalated', toParties, otherOf(id));
  const both = `${event.buyerUsername} / ${event.sellerUsername}`;
  const missed = event.moderatorId;
  if (missed !== null && !parties.includes(missed)) {
    await tell(missed, 'trade_dispute_escalated', 'trade_dispute_unassigned', both);
  }
  for (const id of event.staffIds) {
    if (parties.includes(id) || id === missed) continue;
    await tell(id, 'trade_dispute_escalated', 'trade_dispute_overdue', both);
  }
}
