import type { LedgerCurrency } from '../../../db/schema/index.ts';
import { AFFILIATE_PAYOUT_MINIMUM } from '../../../src/lib/shared/affiliates.ts';
import type { AffiliatePayout } from '../../../src/lib/shared/views/affiliates.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { earningsOf, type LedgerTransaction, walletOf } from '../ledger/ledger.ts';
import type { AffiliatesDeps } from './deps.ts';
import { earningsBalances } from './summary.ts';
import { btc, usdt } from './views.ts';

// Moving the earnings into the wallet (issue 20): every currency at or over its minimum, in one
// `affiliate_payout` transaction. The client's key makes it idempotent: a double click or a retry
// after a lost answer (even two requests racing) moves the balance once and answers the same.

const CURRENCIES: LedgerCurrency[] = ['BTC', 'USDT'];

/** What the transaction moved to the person's wallets, from its postings. */
function payoutView(transaction: LedgerTransaction): AffiliatePayout {
  const moved = { BTC: 0, USDT: 0 };
  for (const { account, amount } of transaction.postings)
    if (account.kind === 'user_wallet') moved[account.currency] += amount;
  return {
    transactionId: transaction.id,
    moved: { BTC: btc(moved.BTC), USDT: usdt(moved.USDT) },
    replayed: transaction.replayed,
  };
}

const reused = () =>
  new AppError('IDEMPOTENCY_KEY_REUSED', 'This key was used for another request; send a new one.', {
    field: 'idempotency_key',
  });

export async function payOut(
  deps: AffiliatesDeps,
  ctx: PersonContext,
  { idempotencyKey }: { idempotencyKey: string },
): Promise<AffiliatePayout> {
  const { repo, ledger } = deps;
  const userId = ctx.auth.user.id;
  // The person's own key space: another person's key never answers for them.
  const key = `affiliate-payout:${userId}:${idempotencyKey}`;
  return immediate(repo.db, async (tx) => {
    // Before reading the balance: a retry finds its first answer, not an empty balance.
    const first = await ledger.transactionByKey(ctx, { idempotencyKey: key });
    if (first) {
      if (first.kind !== 'affiliate_payout') throw reused();
      return payoutView(first);
    }
    const balances = await earningsBalances(deps, ctx, userId);
    const moving = CURRENCIES.filter((currency) => balances[currency] >= AFFILIATE_PAYOUT_MINIMUM[currency]);
    if (moving.length === 0)
      throw new AppError(
        'AFFILIATE_BALANCE_TOO_LOW',
        `Earnings move to the wallet from ${btc(AFFILIATE_PAYOUT_MINIMUM.BTC)} BTC or ${usdt(AFFILIATE_PAYOUT_MINIMUM.USDT)} USDT.`,
        {
          key: 'affiliate_balance_too_low',
          params: { btc: btc(AFFILIATE_PAYOUT_MINIMUM.BTC), usdt: usdt(AFFILIATE_PAYOUT_MINIMUM.USDT) },
        },
      );
    const posted = await ledger.post(
      { ...ctx, tx },
      {
        kind: 'affiliate_payout',
        idempotencyKey: key,
        memo: 'affiliate earnings to the wallet',
        legs: moving.flatMap((currency) => [
          { account: earningsOf(userId, currency), amount: -balances[currency] },
          { account: walletOf(userId, currency), amount: balances[currency] },
        ]),
      },
    );
    return payoutView(posted);
  });
}
