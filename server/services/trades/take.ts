import { immediate, type PersonContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { systemLine } from './chat.ts';
import type { TradesParts } from './deps.ts';
import { DEFAULT_DISPUTE_DEADLINES, TOP_DISPUTE_LEVEL } from './dispute-clock.ts';
import { announceDispute } from './dispute-events.ts';
import type { TradeRow } from './repository.ts';
import type { TradeView } from './trade-view.ts';

// A moderator takes an open dispute (issue 24): it is theirs to decide within the decision's
// deadline. Recorded in the trail as `dispute_taken` (status unchanged, note = the level it was
// taken at), with a chat line for the parties, who are told.

const notOpen = (row: TradeRow) =>
  new AppError('TRADE_STATE_CHANGED', 'Only an open dispute can be taken.', {
    key: 'dispute_not_open',
    meta: { status: row.status },
  });

/** Why this staff member may not take the dispute as it stands, or null when they may (or have). */
function refusal(row: TradeRow, userId: number, isAdmin: boolean): AppError | null {
  if (row.status !== 'dispute_open') return notOpen(row);
  if (row.disputeModeratorId !== null && row.disputeModeratorId !== userId) {
    return new AppError('TRADE_STATE_CHANGED', 'Another moderator took this dispute.', {
      key: 'dispute_taken_by_other',
      meta: { status: row.status },
    });
  }
  if (row.disputeLevel >= TOP_DISPUTE_LEVEL && !isAdmin) {
    return new AppError('FORBIDDEN', 'This dispute was escalated to the administrators.', {
      key: 'dispute_for_administrators',
    });
  }
  return null;
}

/** POST /rest/v1/moderation/trades/{id}/take: staff only (404 for anyone else, as resolve). */
export async function takeDispute(
  { repo, bus, now, view, disputeDeadlines = DEFAULT_DISPUTE_DEADLINES }: TradesParts,
  ctx: PersonContext,
  { hash }: { hash: string },
): Promise<TradeView> {
  const userId = ctx.auth.user.id;
  const staffRole = await repo.staffRole(userId);
  if (staffRole === null) throw notFound('Trade', 'id');
  const taken = await immediate(repo.db, async (tx) => {
    const row = await repo.byHash(hash);
    if (!row) throw notFound('Trade', 'id');
    const refused = refusal(row, userId, staffRole === 'admin');
    if (refused) throw refused;
    // A second click of the one who took it answers the dispute as it is.
    if (row.disputeModeratorId === userId) return row;
    const at = Math.max(now(), row.updatedAt);
    const take = { id: row.id, moderatorId: userId, at, decisionDueAt: at + disputeDeadlines.decisionMs };
    if (!(await repo.takeDispute({ ...take, level: row.disputeLevel }))) throw notOpen(row);
    await repo.insertTransition({
      tradeId: row.id,
      action: 'dispute_taken',
      fromStatus: 'dispute_open',
      toStatus: 'dispute_open',
      actorId: userId,
      actorRole: 'moderator',
      ledgerTransactionId: null,
      note: String(row.disputeLevel),
      at,
    });
    await systemLine(repo, row.id, 'trade.system.dispute_taken', at);
    const updated = (await repo.byHash(hash)) as TradeRow;
    tx.afterCommit(() =>
      announceDispute(bus, updated, { kind: 'taken', counterpartId: null, moderatorId: userId, staffIds: [] }),
    );
    return updated;
  });
  return view(taken, userId, 'moderator');
}
