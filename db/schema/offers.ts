import { sql } from 'drizzle-orm';
import type { OfferTradeRequirement } from '../../src/lib/shared/trade-requirements.ts';
import { OFFER_STATUSES } from '../../src/lib/shared/views/offers.ts';
import { check, index, integer, real, table, text } from './dialect.ts';
import { countries, cryptoCurrencies, fiatCurrencies, locations, paymentMethods } from './reference.ts';
import { users } from './users.ts';

// Offers: everything of the viewed offer of spec section 3 that is the vendor's choice. What
// follows from the market (price), the owner (feedback, last seen) or the viewer (blocking
// reasons) is computed when the offer is read (server/services/offers/).
// `type` is the offer owner's side: a `sell` offer sells crypto, so it lists under /buy-bitcoin.

export const offers = table(
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
    /** `margin`: the market price × (1 + margin), moving with the market; `fixed`: a set price. */
    priceType: text('price_type', { enum: ['margin', 'fixed'] })
      .notNull()
      .default('margin'),
    /** Margin over the market price in basis points (250 = +2.50 %); negative is a discount. */
    marginBasisPoints: integer('margin_basis_points').notNull().default(0),
    /** Fixed price of one crypto unit in minor units of the fiat currency; only for `fixed`. */
    fixedPriceMinor: integer('fixed_price_minor'),
    /** Fiat limits in minor units of the fiat currency (cents). */
    fiatMinMinor: integer('fiat_min_minor').notNull(),
    fiatMaxMinor: integer('fiat_max_minor').notNull(),
    /** Amounts the buyer picks from instead of typing (fiat minor units); empty: any within limits. */
    predefinedAmountsMinor: text('predefined_amounts_minor', { mode: 'json' })
      .$type<number[]>()
      .notNull()
      .default(sql`'[]'`),
    paymentWindowMinutes: integer('payment_window_minutes').notNull(),
    /** The vendor's own name for the method ("Chase QuickPay"), shown beside the method's name. */
    paymentMethodLabel: text('payment_method_label'),
    terms: text('terms').notNull().default(''),
    /** Instructions revealed to the trade partner once a trade starts (spec: paymentDetails). */
    tradeInstructions: text('trade_instructions').notNull().default(''),
    tags: text('tags', { mode: 'json' }).$type<string[]>().notNull(),
    /** Proofs asked of the trade partner (trade flow, spec section 3): src/lib/shared/trade-requirements.ts. */
    tradeRequirements: text('trade_requirements', { mode: 'json' })
      .$type<OfferTradeRequirement[]>()
      .notNull()
      .default(sql`'[]'`),
    bondRequired: integer('bond_required', { mode: 'boolean' }).notNull().default(false),
    requireOfferCurrencyMatchBuyerCountry: integer('require_currency_match_country', { mode: 'boolean' })
      .notNull()
      .default(false),
    /** Largest trade, in fiat minor units, for a partner without completed trades; null: no cap. */
    newBuyerMaxFiatMinor: integer('new_buyer_max_fiat_minor'),
    /** Gold terms: the buyer must accept the payment terms warning (spec section 4). */
    isGold: integer('is_gold', { mode: 'boolean' }).notNull().default(false),
    isSkipWarnings: integer('is_skip_warnings', { mode: 'boolean' }).notNull().default(false),
    /** Only people with the link find it; listings leave it out. */
    isPubliclyVisible: integer('is_publicly_visible', { mode: 'boolean' }).notNull().default(true),
    /** ISO codes of the countries the offer serves; empty: worldwide. */
    allowedCountries: text('allowed_countries', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    /** ISO codes of countries the offer refuses. */
    blockedCountries: text('blocked_countries', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    /** Where to meet, for cash in person. */
    locationId: integer('location_id').references(() => locations.id),
    requireVerifiedId: integer('require_verified_id', { mode: 'boolean' }).notNull().default(false),
    requireMinPastTrades: integer('require_min_past_trades').notNull().default(0),
    showOnlyTrustedUser: integer('show_only_trusted_user', { mode: 'boolean' }).notNull().default(false),
    isFeatured: integer('is_featured', { mode: 'boolean' }).notNull().default(false),
    countryId: integer('country_id').references(() => countries.id),
    /**
     * What the owner's wallet must hold for the smallest trade of a sell offer, fee included, so the
     * listing compares without arithmetic (server/services/offers/funding-needs.ts sets both at
     * every write): a fixed-price offer needs `needCrypto` minor units; a margin offer, whose need
     * moves with the market, needs its wallet worth `needUsd` US dollars at the market price.
     * Zero for buy offers (the buyer does not fund).
     */
    needUsd: real('need_usd').notNull().default(0),
    needCrypto: integer('need_crypto').notNull().default(0),
    /** `blocked`: stopped by a moderator; the owner cannot turn it on again. */
    status: text('status', { enum: OFFER_STATUSES }).notNull().default('active'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    // Covers every column the listing search filters and sorts on, so the search never reads the
    // wide rows (terms, instructions) of the offers it leaves out (server/services/offers/repository.ts).
    index('offers_search_idx').on(
      t.status,
      t.type,
      t.cryptoCurrencyId,
      t.fiatCurrencyId,
      t.isPubliclyVisible,
      t.isFeatured,
      t.ownerId,
      t.paymentMethodId,
      t.priceType,
      t.marginBasisPoints,
      t.fixedPriceMinor,
      t.fiatMinMinor,
      t.fiatMaxMinor,
      t.locationId,
      t.allowedCountries,
      t.blockedCountries,
      t.needUsd,
      t.needCrypto,
    ),
    // With status: a person's active offers (current user's activeOffersCount, My offers) are counted
    // from this index, not from a scan of the search index's active rows.
    index('offers_owner_idx').on(t.ownerId, t.status),
    index('offers_location_idx').on(t.locationId),
    check('offers_limits_check', sql`${t.fiatMinMinor} > 0 AND ${t.fiatMaxMinor} >= ${t.fiatMinMinor}`),
    check('offers_window_check', sql`${t.paymentWindowMinutes} BETWEEN 15 AND 240`),
    check(
      'offers_price_check',
      sql`(${t.priceType} = 'margin' AND ${t.fixedPriceMinor} IS NULL) OR (${t.priceType} = 'fixed' AND ${t.fixedPriceMinor} > 0)`,
    ),
  ],
);
