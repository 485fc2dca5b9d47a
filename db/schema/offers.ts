import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { countries, cryptoCurrencies, fiatCurrencies, paymentMethods } from './reference.ts';
import { users } from './users.ts';

// Offers at the depth the listing needs; the offers issue adds the rest of spec section 3.
// `type` is the offer owner's side: a `sell` offer sells crypto, so it lists under /buy-bitcoin.

export const offers = sqliteTable(
  'offers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Public identifier used in URLs (`offer_hash` of spec section 7). */
    hash: text('hash').notNull().unique(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    type: text('type', { enum: ['buy', 'sell'] }).notNull(),
    cryptoCurrencyId: integer('crypto_currency_id')
      .notNull()
      .references(() => cryptoCurrencies.id),
    fiatCurrencyId: integer('fiat_currency_id')
      .notNull()
      .references(() => fiatCurrencies.id),
    paymentMethodId: integer('payment_method_id')
      .notNull()
      .references(() => paymentMethods.id),
    /** Margin over the market price in basis points (250 = +2.50 %); negative is a discount. */
    marginBasisPoints: integer('margin_basis_points').notNull().default(0),
    /** Fiat limits in minor units of the fiat currency (cents). */
    fiatMinMinor: integer('fiat_min_minor').notNull(),
    fiatMaxMinor: integer('fiat_max_minor').notNull(),
    paymentWindowMinutes: integer('payment_window_minutes').notNull(),
    terms: text('terms').notNull().default(''),
    tags: text('tags', { mode: 'json' }).$type<string[]>().notNull(),
    requireVerifiedId: integer('require_verified_id', { mode: 'boolean' }).notNull().default(false),
    requireMinPastTrades: integer('require_min_past_trades').notNull().default(0),
    showOnlyTrustedUser: integer('show_only_trusted_user', { mode: 'boolean' }).notNull().default(false),
    isFeatured: integer('is_featured', { mode: 'boolean' }).notNull().default(false),
    countryId: integer('country_id').references(() => countries.id),
    status: text('status', { enum: ['active', 'paused', 'deleted'] })
      .notNull()
      .default('active'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('offers_listing_idx').on(t.status, t.type, t.cryptoCurrencyId, t.fiatCurrencyId, t.paymentMethodId),
    index('offers_owner_idx').on(t.ownerId),
    check('offers_limits_check', sql`${t.fiatMinMinor} > 0 AND ${t.fiatMaxMinor} >= ${t.fiatMinMinor}`),
    check('offers_window_check', sql`${t.paymentWindowMinutes} BETWEEN 15 AND 240`),
  ],
);
