import type { DatabaseLike } from '../../../db/database.ts';
import type { LedgerCurrency } from '../../../db/schema/index.ts';
import { CRYPTO_DECIMALS, fromMinorUnits } from '../../../src/lib/shared/money.ts';
import type { BalancePair, MerchantSettlement, MerchantView } from '../../../src/lib/shared/views/kiosks.ts';
import type { PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { type LedgerService, merchantBalanceOf } from '../ledger/ledger.ts';
import { sweepToWallet, sweptIntoWallet } from '../ledger/sweep.ts';

// Merchants' balances (issue 21; docs/kiosks-and-merchants.md): a merchant is a shop or a bot that
// buys crypto through trades for its customers, so what its trades as buyer bring in collects in
// its merchant balance (server/services/trades/transition.ts), apart from the wallet it spends
// from, until it settles: one `merchant_settlement` transaction moves all of it into the wallet,
// once per client key (server/services/ledger/sweep.ts).

const CURRENCIES: LedgerCurrency[] = ['BTC', 'USDT'];
const pairOf = (minor: Record<LedgerCurrency, number>): BalancePair => ({
  BTC: fromMinorUnits(minor.BTC, CRYPTO_DECIMALS.BTC),
  USDT: fromMinorUnits(minor.USDT, CRYPTO_DECIMALS.USDT),
});

const merchantOnly = () =>
  new AppError('FORBIDDEN', 'For merchant accounts only. Join as a merchant on the webhooks page.', {
    key: 'merchant_only',
  });
const empty = () =>
  new AppError('MERCHANT_BALANCE_EMPTY', 'The merchant balance is empty: nothing to settle.', {
    key: 'merchant_balance_empty',
  });

export function createMerchantsService({ db, ledger }: { db: DatabaseLike; ledger: LedgerService }) {
  const merchantOf = (ctx: PersonContext) => {
    if (!ctx.auth.user.isMerchant) throw merchantOnly();
    return ctx.auth.user.id;
  };

  return {
    /** The merchant balance in both currencies. */
    async read(ctx: PersonContext): Promise<MerchantView> {
      const userId = merchantOf(ctx);
      return { balance: pairOf(await ledger.balances(ctx, { userId, kind: 'merchant_balance' })) };
    },

    /** All of the merchant balance into the wallet, once per key. */
    async settle(ctx: PersonContext, { idempotencyKey }: { idempotencyKey: string }): Promise<MerchantSettlement> {
      const userId = merchantOf(ctx);
      const posted = await sweepToWallet({ db, ledger }, ctx, {
        userId,
        from: 'merchant_balance',
        account: merchantBalanceOf,
        kind: 'merchant_settlement',
        idempotencyKey: `merchant-settlement:${userId}:${idempotencyKey}`,
        memo: 'merchant balance to the wallet',
        moving: (balances) => CURRENCIES.filter((currency) => balances[currency] > 0),
        nothing: empty,
      });
      return { transactionId: posted.id, moved: pairOf(sweptIntoWallet(posted)), replayed: posted.replayed };
    },
  };
}

export type MerchantsService = ReturnType<typeof createMerchantsService>;
