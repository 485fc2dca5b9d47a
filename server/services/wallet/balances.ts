import type { PersonContext } from '../context.ts';
import type { WalletDeps } from './deps.ts';
import { CURRENCIES, formatAmount } from './format.ts';

/** Spec section 7 `GET /rest/v1/balances`: both currencies always, zero when nothing arrived yet (section 9). */
export function createBalances({ ledger, chain }: WalletDeps) {
  return async function balances(ctx: PersonContext) {
    const userId = ctx.auth.user.id;
    const held = await ledger.balances(ctx, { userId });
    const incoming = await chain.incomingOf(ctx, { userId });
    return CURRENCIES.map((currency) => ({
      cryptoCurrencyCode: currency,
      balance: formatAmount(held[currency], currency),
      incoming: formatAmount(incoming[currency], currency),
    }));
  };
}
