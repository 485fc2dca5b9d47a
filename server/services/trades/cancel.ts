import type { PersonContext } from '../context.ts';
import type { TradesParts } from './deps.ts';
import type { TradeView } from './trade-view.ts';

/** The buyer gives up the trade, or the seller withdraws before it is marked paid: coins go back. */
export function cancelTrade({ act }: TradesParts, ctx: PersonContext, { hash }: { hash: string }): Promise<TradeView> {
  return act(ctx, hash, 'cancel');
}
