import type { PersonContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import type { TradesParts } from './deps.ts';
import { staffMayDecide, TOP_DISPUTE_LEVEL } from './dispute-clock.ts';
import type { TradeRow } from './repository.ts';
import type { TradeView } from './trade-view.ts';

// The moderators' verbs: their queue of open disputes, deciding one, and reopening an ended
// trade. To anyone else a trade they are no party to does not exist (404).

/** A moderator decides an open dispute for the buyer (coins released) or the seller (coins back). */
export async function resolveDispute(
  { repo, act }: TradesParts,
  ctx: PersonContext,
  { hash, winner }: { hash: string; winner: 'buyer' | 'seller' },
): Promise<TradeView> {
  const userId = ctx.auth.user.id;
  const staffRole = await repo.staffRole(userId);
  if (staffRole === null) throw notFound('Trade', 'id');
  // On the dispute as read inside the transaction: taken meanwhile, or escalated, it is not theirs.
  const check = (row: TradeRow) => {
    if (row.status !== 'dispute_open' || staffMayDecide(row, userId, staffRole)) return;
    throw row.disputeLevel >= TOP_DISPUTE_LEVEL
      ? new AppError('FORBIDDEN', 'This dispute was escalated to the administrators.', {
          key: 'dispute_for_administrators',
        })
      : new AppError('FORBIDDEN', 'Another moderator took this dispute.', { key: 'dispute_taken_by_other' });
  };
  return act(ctx, hash, winner === 'buyer' ? 'resolve_for_buyer' : 'resolve_for_seller', { check });
}

/** A moderator reopens an ended trade as a dispute: the seller's coins are locked again. */
export async function reopenTrade(
  { repo, act }: TradesParts,
  ctx: PersonContext,
  { hash }: { hash: string },
): Promise<TradeView> {
  if (!(await repo.isModerator(ctx.auth.user.id))) throw notFound('Trade', 'id');
  return act(ctx, hash, 'reopen');
}

/** Open disputes, overdue and escalated first, then by deadline: the moderators' queue. */
export async function disputeQueue({ repo, view, now }: TradesParts, ctx: PersonContext, { page }: { page: number }) {
  if (!(await repo.isModerator(ctx.auth.user.id)))
    throw new AppError('FORBIDDEN', 'For moderators only.', { key: 'moderators_only' });
  const size = 50;
  const rows = await repo.openDisputes(size + 1, (page - 1) * size, now());
  const trades: TradeView[] = [];
  for (const row of rows.slice(0, size)) trades.push(await view(row, ctx.auth.user.id, 'moderator'));
  return { trades, hasMore: rows.length > size };
}
