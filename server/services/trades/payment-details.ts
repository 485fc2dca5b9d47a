import { TRADE_INSTRUCTIONS_MAX_LENGTH } from '../../../src/lib/shared/offer-rules.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { systemLine, trimmedText } from './chat.ts';
import { GIFT_CARDS_GROUP, type TradesParts } from './deps.ts';
import { announcePaymentDetails } from './events.ts';
import type { TradeRow } from './repository.ts';
import type { TradeView } from './trade-view.ts';
import { stateChanged } from './transition.ts';

// POST /rest/v1/trade/{id}/payment-details (docs/decisions/125-seller-writes-payment-details.md):
// the seller writes where the buyer pays, while the trade waits for payment. A trade started on an
// offer without instructions otherwise tells the buyer nothing; the seller was notified at the
// start (start.ts), and the buyer's page shows the details as soon as they are saved. Each change
// is an audit row and a chat line, in the same transaction.

/** The most a seller may write: what an offer's trade instructions may hold. */
export const PAYMENT_DETAILS_MAX_LENGTH = TRADE_INSTRUCTIONS_MAX_LENGTH;

/** Gift-card trades are paid with the cards themselves: there is nowhere to pay into. */
export const needsPaymentDetails = (row: Pick<TradeRow, 'paymentGroupSlug'>) =>
  row.paymentGroupSlug !== GIFT_CARDS_GROUP;

/** A trade that started without anything telling the buyer where to pay. */
export const lacksPaymentDetails = (row: Pick<TradeRow, 'paymentGroupSlug' | 'paymentDetails'>) =>
  needsPaymentDetails(row) && row.paymentDetails.trim() === '';

export async function setPaymentDetails(
  { repo, readable, view, bus, now }: TradesParts,
  ctx: PersonContext,
  { hash, text }: { hash: string; text: string },
): Promise<TradeView> {
  const userId = ctx.auth.user.id;
  const { row, role } = await readable(hash, userId);
  if (role !== 'seller') {
    throw new AppError('FORBIDDEN', 'Only the seller writes the payment details.', {
      key: 'trade_payment_details_seller_only',
    });
  }
  if (!needsPaymentDetails(row)) {
    throw new AppError('FORBIDDEN', 'A gift-card trade is paid with the cards: it has no payment details.', {
      key: 'trade_payment_details_not_needed',
    });
  }
  const body = trimmedText('payment_details', text, PAYMENT_DETAILS_MAX_LENGTH);
  const updated = await immediate(repo.db, async (tx) => {
    const current = (await repo.byHash(hash)) as TradeRow;
    // Once the buyer marked it paid, the place they paid into must stay as they read it.
    if (current.status !== 'active_funded') throw stateChanged(current.status);
    // The same text again (a double click) changes nothing and says nothing.
    if (current.paymentDetails === body) return current;
    const at = Math.max(now(), current.updatedAt);
    if (!(await repo.setPaymentDetails({ id: current.id, text: body, at }))) throw stateChanged(current.status);
    const state = current.paymentDetails.trim() === '' ? 'added' : 'changed';
    await repo.insertTransition({
      tradeId: current.id,
      action: 'payment_details',
      fromStatus: current.status,
      toStatus: current.status,
      actorId: userId,
      actorRole: 'seller',
      ledgerTransactionId: null,
      note: state,
      at,
    });
    await systemLine(repo, current.id, `trade.system.payment_details_${state}`, at);
    const next = (await repo.byHash(hash)) as TradeRow;
    tx.afterCommit(() => announcePaymentDetails(bus, next, state));
    return next;
  });
  return view(updated, userId, role);
}
