import { sql } from 'drizzle-orm';
import { check, index, integer, table, text, uniqueIndex } from './dialect.ts';
import { LEDGER_CURRENCIES } from './ledger.ts';
import { users } from './users.ts';

// Over-the-counter sales of kiosks (issue 21; docs/kiosks-and-merchants.md): one row per sale,
// written by server/services/kiosks/ in the transaction of its `kiosk_sale` ledger transaction,
// which moved the crypto from the kiosk's balance to the customer's wallet. The ledger holds the
// money; the row keeps what the customer paid at the counter and at which price, for the receipt.

export const kioskSales = table(
  'kiosk_sales',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** `kos_…`: the receipt's number. */
    publicId: text('public_id').notNull().unique(),
    kioskId: integer('kiosk_id')
      .notNull()
      .references(() => users.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => users.id),
    currency: text('currency', { enum: LEDGER_CURRENCIES }).notNull(),
    /** Minor units the customer received, > 0. */
    amount: integer('amount').notNull(),
    /** Minor units of the escrow fee the kiosk paid on top, from its balance. */
    fee: integer('fee').notNull(),
    /** ISO 4217 code and cents of the cash taken at the counter. */
    fiatCurrency: text('fiat_currency').notNull(),
    fiatCents: integer('fiat_cents').notNull(),
    /** The kiosk's margin over the market price at the sale, in basis points. */
    marginBasisPoints: integer('margin_basis_points').notNull(),
    /** The ledger transaction (`ltx_…`) that moved the crypto. */
    ledgerTransactionId: text('ledger_transaction_id').notNull(),
    /** Unix ms. */
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('kiosk_sales_kiosk_idx').on(t.kioskId, t.createdAt),
    // The receipt of a ledger transaction (a replayed sale, ledger:verify): one sale per transaction.
    uniqueIndex('kiosk_sales_transaction_uq').on(t.ledgerTransactionId),
    check('kiosk_sales_amount_check', sql`${t.amount} > 0 AND ${t.fee} >= 0 AND ${t.fiatCents} > 0`),
    check('kiosk_sales_margin_check', sql`${t.marginBasisPoints} >= 0 AND ${t.marginBasisPoints} <= 2000`),
  ],
);
