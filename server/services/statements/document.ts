import { LEDGER_CURRENCIES, type LedgerCurrency } from '../../../db/schema/index.ts';
import { CRYPTO_DECIMALS, fromMinorUnits } from '../../../src/lib/shared/money.ts';
import { type BalanceRow, type MovementRow, STATEMENT_ACCOUNT_KINDS, type StatementAccountKind } from './repository.ts';

// The statement document, as it is signed (docs/decisions/147-signed-statements.md). Everything in
// it is a string, an integer or an array in a fixed order (currencies as the ledger lists them,
// accounts in STATEMENT_ACCOUNT_KINDS' order, movements by kind), so the same month of the same
// ledger is the same bytes. Amounts are decimal text with the currency's fixed decimals (decision
// 123): 8 for BTC, 6 for USDT.

export const STATEMENT_TYPE = 'coinfair.statement';
export const STATEMENT_VERSION = 1;

export interface StatementHeader {
  type: typeof STATEMENT_TYPE;
  version: typeof STATEMENT_VERSION;
  /** The deployment's origin (PUBLIC_ORIGIN). */
  issuer: string;
  keyId: string;
  account: { id: string; username: string };
}

export interface MovementLine {
  /** The ledger transaction kind (deposit, sendout, escrow_lock, …). */
  kind: string;
  credits: string;
  debits: string;
  transactions: number;
}

export interface MonthlyAccount {
  account: StatementAccountKind;
  opening: string;
  credits: string;
  debits: string;
  closing: string;
  movements: MovementLine[];
}

export interface MonthlyCurrency {
  currency: LedgerCurrency;
  opening: string;
  credits: string;
  debits: string;
  /** opening + credits − debits. */
  closing: string;
  accounts: MonthlyAccount[];
}

export interface MonthlyStatement extends StatementHeader {
  kind: 'monthly';
  period: string;
  from: string;
  to: string;
  currencies: MonthlyCurrency[];
}

export interface CurrentCurrency {
  currency: LedgerCurrency;
  balance: string;
  accounts: { account: StatementAccountKind; balance: string }[];
}

export interface CurrentStatement extends StatementHeader {
  kind: 'current';
  asOf: string;
  currencies: CurrentCurrency[];
}

export type Statement = MonthlyStatement | CurrentStatement;

const amount = (minor: number, currency: LedgerCurrency) => fromMinorUnits(minor, CRYPTO_DECIMALS[currency]);

type Sums = Map<string, number>;
const key = (kind: string, currency: string) => `${kind}/${currency}`;
const sumsOf = (rows: BalanceRow[]): Sums => new Map(rows.map((row) => [key(row.kind, row.currency), row.balance]));

/** One account kind of one currency in a month; undefined when it held and moved nothing. */
function monthlyAccount(
  account: StatementAccountKind,
  currency: LedgerCurrency,
  opening: Sums,
  closing: Sums,
  movements: MovementRow[],
): MonthlyAccount | undefined {
  const lines = movements
    .filter((row) => row.accountKind === account && row.currency === currency)
    .sort((a, b) => (a.transactionKind < b.transactionKind ? -1 : a.transactionKind > b.transactionKind ? 1 : 0));
  const open = opening.get(key(account, currency)) ?? 0;
  const close = closing.get(key(account, currency)) ?? 0;
  if (open === 0 && close === 0 && lines.length === 0) return undefined;
  const credits = lines.reduce((sum, row) => sum + row.credits, 0);
  const debits = lines.reduce((sum, row) => sum + row.debits, 0);
  return {
    account,
    opening: amount(open, currency),
    credits: amount(credits, currency),
    debits: amount(debits, currency),
    closing: amount(close, currency),
    movements: lines.map((row) => ({
      kind: row.transactionKind,
      credits: amount(row.credits, currency),
      debits: amount(row.debits, currency),
      transactions: row.count,
    })),
  };
}

/** Opening and closing balances and the month's movements, per currency and account kind. */
export function monthlyCurrencies(
  openingRows: BalanceRow[],
  closingRows: BalanceRow[],
  movements: MovementRow[],
): MonthlyCurrency[] {
  const opening = sumsOf(openingRows);
  const closing = sumsOf(closingRows);
  return LEDGER_CURRENCIES.map((currency) => {
    const total = (sums: Sums) =>
      STATEMENT_ACCOUNT_KINDS.reduce((sum, kind) => sum + (sums.get(key(kind, currency)) ?? 0), 0);
    const moved = movements.filter((row) => row.currency === currency);
    return {
      currency,
      opening: amount(total(opening), currency),
      credits: amount(
        moved.reduce((sum, row) => sum + row.credits, 0),
        currency,
      ),
      debits: amount(
        moved.reduce((sum, row) => sum + row.debits, 0),
        currency,
      ),
      closing: amount(total(closing), currency),
      accounts: STATEMENT_ACCOUNT_KINDS.flatMap(
        (kind) => monthlyAccount(kind, currency, opening, closing, movements) ?? [],
      ),
    };
  });
}

/** Balances now, per currency and account kind (accounts holding nothing left out). */
export function currentCurrencies(rows: BalanceRow[]): CurrentCurrency[] {
  const sums = sumsOf(rows);
  return LEDGER_CURRENCIES.map((currency) => ({
    currency,
    balance: amount(
      STATEMENT_ACCOUNT_KINDS.reduce((sum, kind) => sum + (sums.get(key(kind, currency)) ?? 0), 0),
      currency,
    ),
    accounts: STATEMENT_ACCOUNT_KINDS.flatMap((kind) => {
      const balance = sums.get(key(kind, currency)) ?? 0;
      return balance === 0 ? [] : [{ account: kind, balance: amount(balance, currency) }];
    }),
  }));
}
