import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import type { ChainNetwork, ChainTxStatus, LedgerCurrency, LedgerTransactionKind } from '../../../db/schema/index.ts';

// Reads of the wallet screen. The ledger and chain services write these tables; this only reads.

export interface HistoryRow {
  id: string;
  type: LedgerTransactionKind;
  currency: LedgerCurrency;
  amount: number;
  createdAt: number;
  /** The chain transaction behind the entry, when there is one. */
  chainStatus: ChainTxStatus | null;
  txid: string | null;
  network: ChainNetwork | null;
  address: string | null;
  fee: number | null;
  confirmations: number | null;
  requiredConfirmations: number | null;
}

// A user's wallet postings (one per transaction and currency: a user has one wallet per
// currency), with the chain transaction that caused them, plus the deposits not credited yet
// (seen on the chain, or dropped from it). Newest first; the ledger is append-only, so a page
// only shifts when something new arrives on top. The inner names are snake_case: PostgreSQL folds
// an unquoted camelCase name, so only the outer select gives the row its camelCase keys.
const HISTORY = `SELECT id, type, currency, amount, created_at AS createdAt, chain_status AS chainStatus, txid, network,
    address, fee, confirmations, required_confirmations AS requiredConfirmations
  FROM (
    SELECT t.public_id AS id, t.kind AS type, p.currency, p.amount, t.created_at, t.id AS ledger_id,
      0 AS chain_id, c.status AS chain_status, c.txid, c.network, c.address, c.fee, c.confirmations,
      c.required_confirmations
    FROM ledger_accounts a
    JOIN ledger_postings p ON p.account_id = a.id
    JOIN ledger_transactions t ON t.id = p.transaction_id
    LEFT JOIN chain_transactions c ON c.id = coalesce(
      (SELECT id FROM chain_transactions WHERE ledger_transaction_id = t.id),
      (SELECT id FROM chain_transactions WHERE return_transaction_id = t.id))
    WHERE a.kind = 'user_wallet' AND a.owner_id = @userId
    UNION ALL
    SELECT c.public_id, 'deposit', c.currency, c.amount, c.created_at, 0, c.id, c.status, c.txid, c.network,
      c.address, c.fee, c.confirmations, c.required_confirmations
    FROM chain_transactions c
    WHERE c.user_id = @userId AND c.direction = 'in' AND c.status IN ('incoming', 'failed')
  ) AS history
  ORDER BY created_at DESC, ledger_id DESC, chain_id DESC
  LIMIT @limit OFFSET @offset`;

export function createWalletRepository(db: DatabaseLike) {
  const { sql } = asDatabase(db);
  return {
    history: (userId: number, limit: number, offset: number) =>
      sql.all<HistoryRow>(HISTORY, [{ userId, limit, offset }]),
  };
}

export type WalletRepository = ReturnType<typeof createWalletRepository>;
