import type { PersonContext, ServiceContext } from '../context.ts';
import type { TradesParts } from './deps.ts';
import type { TradeView } from './trade-view.ts';

// Reading trades: one trade, the reader's running ones, and the two questions other parts ask
// (the uploads service: may this person read it; the realtime hub: may this user follow it).

/** One trade as its reader sees it; 404 for anyone who is neither party nor moderator. */
export async function getTrade(
  { readable, view }: TradesParts,
  ctx: PersonContext,
  { hash }: { hash: string },
): Promise<TradeView> {
  const { row, role } = await readable(hash, ctx.auth.user.id);
  return view(row, ctx.auth.user.id, role);
}

/** The reader's running trades; `alarmed` are those waiting on them (spec: meta.alarmedTrades). */
export async function activeTrades({ repo, view, now }: TradesParts, ctx: PersonContext) {
  const userId = ctx.auth.user.id;
  const trades: TradeView[] = [];
  for (const row of await repo.activeOf(userId)) {
    trades.push(await view(row, userId, row.buyerId === userId ? 'buyer' : 'seller'));
  }
  const at = now();
  const alarmed = trades.filter(
    (t) =>
      t.status === 'dispute_open' ||
      (t.role === 'seller' && t.status === 'paid') ||
      (t.role === 'buyer' && t.status === 'active_funded' && t.expiresAt * 1000 - at < 5 * 60_000),
  );
  return { trades, alarmedTrades: alarmed.map((t) => t.hash) };
}

/** The trade and the reader's role in it; 404 for anyone who may not read it (the uploads' hook). */
export function tradeAccess({ readable }: TradesParts, ctx: PersonContext, { hash }: { hash: string }) {
  return readable(hash, ctx.auth.user.id);
}

/** May the acting user follow `trade:<hash>` on the realtime hub: its parties and moderators. */
export async function canFollowTrade(
  { repo }: TradesParts,
  ctx: ServiceContext,
  { hash }: { hash: string },
): Promise<boolean> {
  if (ctx.actor.type !== 'user') return false;
  const { userId } = ctx.actor;
  const parties = await repo.partiesOf(hash);
  if (!parties) return false;
  return parties.buyerId === userId || parties.sellerId === userId || (await repo.isModerator(userId));
}
