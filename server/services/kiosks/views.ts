import type { LedgerCurrency } from '../../../db/schema/index.ts';
import { CRYPTO_DECIMALS, fromMinorUnits } from '../../../src/lib/shared/money.ts';
import type { BalancePair, KioskSaleView } from '../../../src/lib/shared/views/kiosks.ts';
import type { PersonContext } from '../context.ts';
import type { KiosksDeps } from './deps.ts';
import type { KioskSaleRow } from './repository.ts';

// How the kiosks service shows amounts, margins, balances and sales.

export const amountText = (currency: LedgerCurrency, minor: number) => fromMinorUnits(minor, CRYPTO_DECIMALS[currency]);
export const percentText = (basisPoints: number) => fromMinorUnits(basisPoints, 2);

const pairOf = (balances: Record<LedgerCurrency, number>): BalancePair => ({
  BTC: amountText('BTC', balances.BTC),
  USDT: amountText('USDT', balances.USDT),
});

/** The kiosk balance in both currencies. */
export const kioskBalance = async ({ ledger }: KiosksDeps, ctx: PersonContext, kioskId: number) =>
  pairOf(await ledger.balances(ctx, { userId: kioskId, kind: 'kiosk_balance' }));

export const saleView = (row: KioskSaleRow): KioskSaleView => ({
  id: row.publicId,
  customer: row.customer,
  currency: row.currency,
  amount: amountText(row.currency, row.amount),
  fee: amountText(row.currency, row.fee),
  fiatCurrency: row.fiatCurrency,
  fiatAmount: fromMinorUnits(row.fiatCents, 2),
  marginPercent: percentText(row.marginBasisPoints),
  transactionId: row.ledgerTransactionId,
  createdAt: row.createdAt,
});
