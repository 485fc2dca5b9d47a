import type { LedgerCurrency } from '../../../db/schema/index.ts';
import { CRYPTO_DECIMALS, fromMinorUnits } from '../../../src/lib/shared/money.ts';
import { STATEMENT_ACCOUNT_KINDS } from '../statements/repository.ts';
import { type ExportRange, iso, isoOrNull, sqlSection } from './section.ts';

// The money sections: the person's ledger postings, the fees they paid (a trade's fee went to fee
// income in a transaction that took from their escrow; a sendout's network fee), deposits and
// sendouts. The ledger covers what a signed statement covers (decision 147): wallets, the escrows
// of their sales, affiliate, merchant and kiosk balances.

const KINDS = STATEMENT_ACCOUNT_KINDS.map((kind) => `'${kind}'`).join(', ');
const crypto = (minor: number, currency: LedgerCurrency) => fromMinorUnits(Number(minor), CRYPTO_DECIMALS[currency]);
const ranged = ({ userId, fromAt, toAt }: ExportRange) => [userId, fromAt, toAt];

export const LEDGER_COLUMNS = [
  'time',
  'transaction',
  'kind',
  'account',
  'reference',
  'currency',
  'amount',
  'memo',
] as const;

interface PostingRow {
  id: number;
  at: number;
  tx: string;
  kind: string;
  account: string;
  reference: string | null;
  currency: LedgerCurrency;
  amount: number;
  memo: string | null;
}

export const ledgerSection = sqlSection<PostingRow>({
  file: 'ledger',
  select: `SELECT p.id AS id, t.created_at AS at, t.public_id AS tx, t.kind AS kind, a.kind AS account,
    a.reference AS reference, p.currency AS currency, p.amount AS amount, t.memo AS memo`,
  from: `FROM ledger_accounts a
    JOIN ledger_postings p ON p.account_id = a.id
    JOIN ledger_transactions t ON t.id = p.transaction_id
    WHERE a.owner_id = ? AND a.kind IN (${KINDS}) AND t.created_at >= ? AND t.created_at < ?`,
  idColumn: 'p.id',
  params: ranged,
  cells: (r) => [iso(r.at), r.tx, r.kind, r.account, r.reference, r.currency, crypto(r.amount, r.currency), r.memo],
});

export const FEE_COLUMNS = ['time', 'kind', 'reference', 'transaction', 'currency', 'amount'] as const;

interface TradeFeeRow {
  id: number;
  at: number;
  tx: string;
  reference: string | null;
  currency: LedgerCurrency;
  amount: number;
}

// A fee income credit in a transaction that debited the person: their escrow's fee at a release.
// Joined to the person's first debit of that transaction only, so each fee is one row.
export const tradeFeesSection = sqlSection<TradeFeeRow>({
  file: 'fees',
  select: `SELECT f.id AS id, t.created_at AS at, t.public_id AS tx, qa.reference AS reference,
    f.currency AS currency, f.amount AS amount`,
  from: `FROM ledger_accounts qa
    JOIN ledger_postings q ON q.account_id = qa.id AND q.amount < 0
    JOIN ledger_transactions t ON t.id = q.transaction_id
    JOIN ledger_postings f ON f.transaction_id = t.id AND f.amount > 0
    JOIN ledger_accounts fa ON fa.id = f.account_id AND fa.kind = 'fee_income'
    WHERE qa.owner_id = ? AND qa.kind IN (${KINDS}) AND t.created_at >= ? AND t.created_at < ?
      AND q.id = (SELECT min(q2.id) FROM ledger_postings q2 JOIN ledger_accounts a2 ON a2.id = q2.account_id
        WHERE q2.transaction_id = t.id AND q2.amount < 0 AND a2.owner_id = qa.owner_id AND a2.kind IN (${KINDS}))`,
  idColumn: 'f.id',
  params: ranged,
  cells: (r) => [iso(r.at), 'trade_fee', r.reference, r.tx, r.currency, crypto(r.amount, r.currency)],
});

interface ChainRow {
  id: number;
  at: number;
  publicId: string;
  currency: LedgerCurrency;
  network: string;
  address: string;
  amount: number;
  fee: number;
  txid: string | null;
  vout: number | null;
  confirmations: number;
  status: string;
  settledAt: number | null;
}

const CHAIN_SELECT = `SELECT c.id AS id, c.created_at AS at, c.public_id AS publicId, c.currency AS currency,
  c.network AS network, c.address AS address, c.amount AS amount, c.fee AS fee, c.txid AS txid, c.vout AS vout,
  c.confirmations AS confirmations, c.status AS status, c.settled_at AS settledAt`;
const chainFrom = (direction: 'in' | 'out', extra = '') =>
  `FROM chain_transactions c WHERE c.user_id = ? AND c.direction = '${direction}'${extra}
    AND c.created_at >= ? AND c.created_at < ?`;

// A sendout's network fee, unless the network refused the sendout (then amount and fee came back).
export const networkFeesSection = sqlSection<ChainRow>({
  file: 'fees',
  select: CHAIN_SELECT,
  from: chainFrom('out', " AND c.fee > 0 AND c.status <> 'failed'"),
  idColumn: 'c.id',
  params: ranged,
  cells: (r) => [iso(r.at), 'network_fee', r.publicId, null, r.currency, crypto(r.fee, r.currency)],
});

export const DEPOSIT_COLUMNS = [
  'time',
  'id',
  'currency',
  'network',
  'address',
  'amount',
  'txid',
  'output',
  'confirmations',
  'status',
  'settled_at',
] as const;

export const depositsSection = sqlSection<ChainRow>({
  file: 'deposits',
  select: CHAIN_SELECT,
  from: chainFrom('in'),
  idColumn: 'c.id',
  params: ranged,
  cells: (r) => [
    iso(r.at),
    r.publicId,
    r.currency,
    r.network,
    r.address,
    crypto(r.amount, r.currency),
    r.txid,
    r.vout === null ? null : Number(r.vout),
    Number(r.confirmations),
    r.status,
    isoOrNull(r.settledAt),
  ],
});

export const SENDOUT_COLUMNS = [
  'time',
  'id',
  'currency',
  'network',
  'address',
  'amount',
  'fee',
  'txid',
  'confirmations',
  'status',
  'settled_at',
] as const;

export const sendoutsSection = sqlSection<ChainRow>({
  file: 'sendouts',
  select: CHAIN_SELECT,
  from: chainFrom('out'),
  idColumn: 'c.id',
  params: ranged,
  cells: (r) => [
    iso(r.at),
    r.publicId,
    r.currency,
    r.network,
    r.address,
    crypto(r.amount, r.currency),
    crypto(r.fee, r.currency),
    r.txid,
    Number(r.confirmations),
    r.status,
    isoOrNull(r.settledAt),
  ],
});
