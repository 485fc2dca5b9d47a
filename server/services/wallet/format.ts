import type { LedgerCurrency } from '../../../db/schema/index.ts';
import { CRYPTO_DECIMALS, fromMinorUnits } from '../../../src/lib/shared/money.ts';
import type { ChainTxRow } from '../chain/repository.ts';

// Amounts leave the wallet as decimal text with the currency's digits (`0.00150000`, `12.500000`):
// exact, and the shape the current user's `balance` already has (docs/decisions.md).

export const CURRENCIES: readonly LedgerCurrency[] = ['BTC', 'USDT'];

export const formatAmount = (minor: number, currency: LedgerCurrency) =>
  fromMinorUnits(minor, CRYPTO_DECIMALS[currency]);

export function sendoutView(row: ChainTxRow) {
  return {
    id: row.publicId,
    cryptoCurrencyCode: row.currency,
    network: row.network,
    address: row.address,
    amount: formatAmount(row.amount, row.currency),
    fee: formatAmount(row.fee, row.currency),
    status: row.status,
    txid: row.txid,
    confirmations: row.confirmations,
    requiredConfirmations: row.requiredConfirmations,
    createdAt: Math.floor(row.createdAt / 1000),
  };
}

export type SendoutView = ReturnType<typeof sendoutView>;
