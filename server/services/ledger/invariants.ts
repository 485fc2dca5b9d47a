import { asDatabase, type DatabaseLike } from '../../../db/database.ts';

// What must always be true of the ledger (issue 5), checked from the tables alone so that it also
// catches a bug in the code that writes them. Tests call it after every batch of operations;
// operators run `npm run admin -- ledger:verify`. Read in one transaction: a consistent snapshot
// even while the server writes.

export interface LedgerViolation {
  rule:
    | 'currency_sum'
    | 'transaction_sum'
    | 'transaction_empty'
    | 'cached_balance'
    | 'negative_balance'
    | 'posting_currency'
    | 'escrow_resolution'
    | 'audit_missing'
    | 'kiosk_sale'
    | 'wallet_copy';
  message: string;
}

type Read = <T>(sql: string, args?: readonly unknown[]) => Promise<T[]>;

/** Double entry: the accounts and each transaction sum to zero per currency. */
async function sumViolations(all: Read, violations: LedgerViolation[]): Promise<void> {
  // Double entry: value is only ever moved, so everything sums to zero per currency...
  for (const row of await all<{ currency: string; total: number }>(
    'SELECT currency, sum(balance) AS total FROM ledger_accounts GROUP BY currency HAVING sum(balance) <> 0',
  ))
    violations.push({ rule: 'currency_sum', message: `${row.currency}: the accounts sum to ${row.total}, not 0.` });

  // ...and so does each transaction.
  for (const row of await all<{ publicId: string; currency: string; total: number }>(
    `SELECT t.public_id AS publicId, p.currency, sum(p.amount) AS total
     FROM ledger_postings p JOIN ledger_transactions t ON t.id = p.transaction_id
     GROUP BY t.id, t.public_id, p.currency HAVING sum(p.amount) <> 0`,
  ))
    violations.push({
      rule: 'transaction_sum',
      message: `${row.publicId}: its ${row.currency} postings sum to ${row.total}, not 0.`,
    });
  for (const row of await all<{ publicId: string }>(
    `SELECT public_id AS publicId FROM ledger_transactions t
     WHERE (SELECT count(*) FROM ledger_postings p WHERE p.transaction_id = t.id) < 2`,
  ))
    violations.push({ rule: 'transaction_empty', message: `${row.publicId}: fewer than two postings.` });
}

/** Balances: each the sum of its postings, negative only where allowed, in its account's currency. */
async function balanceViolations(all: Read, violations: LedgerViolation[]): Promise<void> {
  // The cached balance is the sum of the account's postings.
  for (const row of await all<{ id: number; kind: string; currency: string; balance: number; posted: number }>(
    `SELECT a.id, a.kind, a.currency, a.balance, coalesce(s.posted, 0) AS posted
     FROM ledger_accounts a
     LEFT JOIN (SELECT account_id, sum(amount) AS posted FROM ledger_postings GROUP BY account_id) s
       ON s.account_id = a.id
     WHERE a.balance <> coalesce(s.posted, 0)`,
  ))
    violations.push({
      rule: 'cached_balance',
      message: `Account ${row.id} (${row.kind} ${row.currency}): balance ${row.balance}, postings sum to ${row.posted}.`,
    });

  for (const row of await all<{ id: number; kind: string; currency: string; balance: number }>(
    `SELECT id, kind, currency, balance FROM ledger_accounts
     WHERE balance < 0 AND (allow_negative = 0 OR kind NOT IN ('conversion_desk', 'chain_in', 'chain_out'))`,
  ))
    violations.push({
      rule: 'negative_balance',
      message: `Account ${row.id} (${row.kind} ${row.currency}) is at ${row.balance}.`,
    });

  for (const row of await all<{ id: number }>(
    `SELECT p.id FROM ledger_postings p LEFT JOIN ledger_accounts a ON a.id = p.account_id
     WHERE a.id IS NULL OR a.currency <> p.currency`,
  ))
    violations.push({ rule: 'posting_currency', message: `Posting ${row.id}: not in its account's currency.` });
}

/** Escrows: each leaves once, as its resolution says. */
async function escrowViolations(all: Read, violations: LedgerViolation[]): Promise<void> {
  // Each escrow leaves at most once, by the transaction that matches its recorded resolution,
  // and is empty afterwards; an open escrow has not left at all. (With one exit, min(t.kind) is its kind.)
  for (const row of await all<{
    id: number;
    reference: string;
    currency: string;
    balance: number;
    resolution: string | null;
    exits: number;
  }>(
    `SELECT a.id, a.reference, a.currency, a.balance, a.resolution, count(t.id) AS exits
     FROM ledger_accounts a
     LEFT JOIN ledger_postings p ON p.account_id = a.id
     LEFT JOIN ledger_transactions t ON t.id = p.transaction_id AND t.kind IN ('escrow_release', 'escrow_return')
     WHERE a.kind = 'trade_escrow'
     GROUP BY a.id, a.reference, a.currency, a.balance, a.resolution
     HAVING count(t.id) > 1
         OR (a.resolution IS NULL AND count(t.id) > 0)
         OR (a.resolution IS NOT NULL AND (count(t.id) <> 1 OR a.balance <> 0
             OR min(t.kind) <> CASE a.resolution WHEN 'released' THEN 'escrow_release' ELSE 'escrow_return' END))`,
  )) {
    // The exits' kinds, for the message: few rows, and only for an escrow already found broken.
    const exits = await all<{ kind: string }>(
      `SELECT t.kind FROM ledger_postings p JOIN ledger_transactions t ON t.id = p.transaction_id
       WHERE p.account_id = ? AND t.kind IN ('escrow_release', 'escrow_return') ORDER BY p.id`,
      [row.id],
    );
    const kinds = exits.length > 0 ? exits.map((exit) => exit.kind).join(',') : '-';
    violations.push({
      rule: 'escrow_resolution',
      message: `Escrow ${row.reference} ${row.currency}: resolution ${row.resolution ?? 'none'}, ${row.exits} exit(s) (${kinds}), balance ${row.balance}.`,
    });
  }
}

/** Every transaction has its audit row. */
async function auditViolations(all: Read, violations: LedgerViolation[]): Promise<void> {
  for (const row of await all<{ publicId: string }>(
    `SELECT public_id AS publicId FROM ledger_transactions t
     WHERE NOT EXISTS (SELECT 1 FROM ledger_audit u WHERE u.transaction_id = t.id)`,
  ))
    violations.push({ rule: 'audit_missing', message: `${row.publicId}: no audit row.` });
}

/**
 * Kiosk sales (docs/kiosks-and-merchants.md): each `kiosk_sale` transaction has its receipt row,
 * which names the customer whose wallet it credited with the row's amount, and no row lacks one.
 */
async function kioskSaleViolations(all: Read, violations: LedgerViolation[]): Promise<void> {
  for (const row of await all<{ publicId: string }>(
    `SELECT t.public_id AS publicId FROM ledger_transactions t
     WHERE t.kind = 'kiosk_sale' AND NOT EXISTS (
       SELECT 1 FROM kiosk_sales s WHERE s.ledger_transaction_id = t.public_id
         AND s.amount = (SELECT coalesce(sum(p.amount), 0) FROM ledger_postings p
           JOIN ledger_accounts a ON a.id = p.account_id
           WHERE p.transaction_id = t.id AND a.kind = 'user_wallet' AND a.owner_id = s.customer_id))`,
  ))
    violations.push({
      rule: 'kiosk_sale',
      message: `${row.publicId}: no kiosk sale row matches what it credited the customer.`,
    });
  for (const row of await all<{ publicId: string }>(
    `SELECT s.public_id AS publicId FROM kiosk_sales s WHERE NOT EXISTS (
       SELECT 1 FROM ledger_transactions t WHERE t.public_id = s.ledger_transaction_id AND t.kind = 'kiosk_sale')`,
  ))
    violations.push({ rule: 'kiosk_sale', message: `Kiosk sale ${row.publicId}: no kiosk_sale transaction.` });
}

/** The copies of wallet balances on users (the listing's, decision 121) equal the wallets. */
async function walletCopyViolations(all: Read, violations: LedgerViolation[]): Promise<void> {
  const wallet = (currency: string) =>
    `coalesce((SELECT a.balance FROM ledger_accounts a
      WHERE a.kind = 'user_wallet' AND a.owner_id = u.id AND a.currency = '${currency}'), 0)`;
  for (const row of await all<{ id: number; btc: number; usdt: number }>(
    `SELECT u.id, u.wallet_btc AS btc, u.wallet_usdt AS usdt FROM users u
     WHERE u.wallet_btc <> ${wallet('BTC')} OR u.wallet_usdt <> ${wallet('USDT')}`,
  ))
    violations.push({
      rule: 'wallet_copy',
      message: `User ${row.id}: the copies of the wallets (${row.btc} BTC, ${row.usdt} USDT) differ from the ledger.`,
    });
}

export function verifyLedger(db: DatabaseLike): Promise<LedgerViolation[]> {
  const { sql } = asDatabase(db);
  const all: Read = <T>(text: string, args: readonly unknown[] = []) => sql.all<T>(text, args);
  // One transaction: on SQLite it waits for the connection (an open transaction's uncommitted
  // rows are no snapshot); on PostgreSQL it is a serializable snapshot.
  return sql.transaction(async () => {
    const violations: LedgerViolation[] = [];
    await sumViolations(all, violations);
    await balanceViolations(all, violations);
    await escrowViolations(all, violations);
    await auditViolations(all, violations);
    await kioskSaleViolations(all, violations);
    await walletCopyViolations(all, violations);
    return violations;
  });
}
