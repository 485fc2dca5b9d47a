import type { PersonContext } from '../context.ts';
import type { StatementsDeps } from './deps.ts';
import { currentCurrencies } from './document.ts';
import { isoTime } from './period.ts';
import { headerOf, type SignedStatement, signed } from './sign.ts';

/**
 * The person's balances now, signed: what their wallet, escrows and affiliate, merchant and kiosk
 * balances hold at `asOf` (the ledger's cached balances, which every posting keeps).
 */
export async function currentStatement(deps: StatementsDeps, ctx: PersonContext): Promise<SignedStatement> {
  const { user } = ctx.auth;
  const asOf = deps.now();
  const [key, rows] = await Promise.all([deps.key(), deps.repo.balancesNow(user.id)]);
  return signed(
    { ...headerOf(deps, key, user), kind: 'current', asOf: isoTime(asOf), currencies: currentCurrencies(rows) },
    key,
  );
}
