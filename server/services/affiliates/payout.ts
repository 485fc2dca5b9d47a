import type { LedgerCurrency } from '../../../db/schema/index.ts';
import { AFFILIATE_PAYOUT_MINIMUM } from '../../../src/lib/shared/affiliates.ts';
import type { AffiliatePayout } from '../../../src/lib/shared/views/affiliates.ts';
import type { PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { earningsOf } from '../ledger/ledger.ts';
import { sweepToWallet, sweptIntoWallet } from '../ledger/sweep.ts';
import type { AffiliatesDeps } from './deps.ts';
import { btc, usdt } from './views.ts';

// Moving the earnings into the wallet (issue 20): every currency at or over its minimum, in one
// `affiliate_payout` transaction, once per client key (server/services/ledger/sweep.ts).

const CURRENCIES: LedgerCurrency[] = ['BTC', 'USDT'];

const tooLow = () =>
  new AppError(
    'AFFILIATE_BALANCE_TOO_LOW',
    `Earnings move to the wallet from ${btc(AFFILIATE_PAYOUT_MINIMUM.BTC)} BTC or ${usdt(AFFILIATE_PAYOUT_MINIMUM.USDT)} USDT.`,
    {
      key: 'affiliate_balance_too_low',
      params: { btc: btc(AFFILIATE_PAYOUT_MINIMUM.BTC), usdt: usdt(AFFILIATE_PAYOUT_MINIMUM.USDT) },
    },
  );

export async function payOut(
  { repo, ledger }: AffiliatesDeps,
  ctx: PersonContext,
  { idempotencyKey }: { idempotencyKey: string },
): Promise<AffiliatePayout> {
  const userId = ctx.auth.user.id;
  const posted = await sweepToWallet({ db: repo.db, ledger }, ctx, {
    userId,
    from: 'affiliate_earnings',
    account: earningsOf,
    kind: 'affiliate_payout',
    idempotencyKey: `affiliate-payout:${userId}:${idempotencyKey}`,
    memo: 'affiliate earnings to the wallet',
    moving: (balances) => CURRENCIES.filter((currency) => balances[currency] >= AFFILIATE_PAYOUT_MINIMUM[currency]),
    nothing: tooLow,
  });
  const moved = sweptIntoWallet(posted);
  return {
    transactionId: posted.id,
    moved: { BTC: btc(moved.BTC), USDT: usdt(moved.USDT) },
    replayed: posted.replayed,
  };
}
