import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import type { LedgerCurrency } from '../../../db/schema/index.ts';

// The kiosks' rows: the margin on the user row, the sales in kiosk_sales (db/schema/kiosks.ts).

export interface KioskSaleRow {
  publicId: string;
  customer: string;
  currency: LedgerCurrency;
  amount: number;
  fee: number;
  fiatCurrency: string;
  fiatCents: number;
  marginBasisPoints: number;
  ledgerTransactionId: string;
  createdAt: number;
}

/** A sale as written: the row's columns, the customer by id. */
export type NewKioskSale = Omit<KioskSaleRow, 'customer'> & { kioskId: number; customerId: number };

const SALE_COLUMNS = `s.public_id AS publicId, u.username AS customer, s.currency, s.amount, s.fee,
  s.fiat_currency AS fiatCurrency, s.fiat_cents AS fiatCents, s.margin_basis_points AS marginBasisPoints,
  s.ledger_transaction_id AS ledgerTransactionId, s.created_at AS createdAt`;
const SALES_OF = `SELECT ${SALE_COLUMNS} FROM kiosk_sales s JOIN users u ON u.id = s.customer_id
  WHERE s.kiosk_id = ? ORDER BY s.created_at DESC, s.id DESC LIMIT ?`;
const SALE_BY_TRANSACTION = `SELECT ${SALE_COLUMNS} FROM kiosk_sales s JOIN users u ON u.id = s.customer_id
  WHERE s.ledger_transaction_id = ?`;
const INSERT_SALE = `INSERT INTO kiosk_sales (public_id, kiosk_id, customer_id, currency, amount, fee, fiat_currency,
    fiat_cents, margin_basis_points, ledger_transaction_id, created_at)
  VALUES (@publicId, @kioskId, @customerId, @currency, @amount, @fee, @fiatCurrency, @fiatCents, @marginBasisPoints,
    @ledgerTransactionId, @createdAt)`;
const MARGIN_OF = 'SELECT kiosk_margin_basis_points AS margin FROM users WHERE id = ?';
const SET_MARGIN = 'UPDATE users SET kiosk_margin_basis_points = ? WHERE id = ?';
const CUSTOMER_BY_NAME = 'SELECT id, username, status FROM users WHERE lower(username) = lower(?)';

export function createKiosksRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const { sql } = database;
  return {
    /** For `immediate(repo.db, …)` (server/services/context.ts). */
    db: database,
    salesOf: (kioskId: number, limit: number) => sql.all<KioskSaleRow>(SALES_OF, [kioskId, limit]),
    saleByTransaction: (transactionId: string) => sql.get<KioskSaleRow>(SALE_BY_TRANSACTION, [transactionId]),
    insertSale: (row: NewKioskSale) => sql.run(INSERT_SALE, [row]),
    marginOf: async (kioskId: number) => Number((await sql.get<{ margin: number }>(MARGIN_OF, [kioskId]))?.margin ?? 0),
    setMargin: (kioskId: number, basisPoints: number) => sql.run(SET_MARGIN, [basisPoints, kioskId]),
    customerByName: (username: string) =>
      sql.get<{ id: number; username: string; status: string }>(CUSTOMER_BY_NAME, [username]),
  };
}

export type KiosksRepository = ReturnType<typeof createKiosksRepository>;
