import { index, integer, primaryKey, real, table, text } from './dialect.ts';

// Reference data: read by every page, written only by migrations and the seed.

export const cryptoCurrencies = table('crypto_currencies', {
  id: integer('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  /** The URL name in offer listings: `/buy-bitcoin`. */
  urlName: text('url_name').notNull().unique(),
  /** Minor-unit digits: 8 for BTC (satoshi), 6 for USDT (micro-tether). */
  decimals: integer('decimals').notNull(),
  isDefault: integer('is_default', { mode: 'boolean' }).notNull().default(false),
  sortOrder: integer('sort_order').notNull(),
});

export const fiatCurrencies = table('fiat_currencies', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  symbol: text('symbol').notNull(),
  minorUnits: integer('minor_units').notNull(),
  /** Units per 1 USD: the anchor of the simulated price feed, not a live quote. */
  usdRate: real('usd_rate').notNull(),
  sortOrder: integer('sort_order').notNull(),
  defaultAmount: real('default_amount').notNull(),
});

export const paymentGroups = table('payment_groups', {
  id: integer('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  sellDescription: text('sell_description').notNull(),
  /** The six groups a person can pick in search (spec section 9). */
  isSelectable: integer('is_selectable', { mode: 'boolean' }).notNull().default(false),
});

export const paymentMethods = table(
  'payment_methods',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    slug: text('slug').notNull().unique(),
    name: text('name').notNull(),
    groupId: integer('group_id')
      .notNull()
      .references(() => paymentGroups.id),
    descriptionShort: text('description_short').notNull(),
    isCopyrighted: integer('is_copyrighted', { mode: 'boolean' }).notNull().default(false),
    warningText: text('warning_text'),
    /** ISO 4217 codes the method is mostly used with; empty means any. */
    currencies: text('currencies', { mode: 'json' }).$type<string[]>().notNull(),
  },
  (t) => [index('payment_methods_group_idx').on(t.groupId)],
);

export const countries = table('countries', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  iso: text('iso').notNull().unique(),
  iso3: text('iso3').notNull().unique(),
  name: text('name').notNull(),
  currencyId: integer('currency_id')
    .notNull()
    .references(() => fiatCurrencies.id),
  phoneCode: text('phone_code').notNull(),
});

export const countryPaymentMethods = table(
  'country_payment_methods',
  {
    countryId: integer('country_id')
      .notNull()
      .references(() => countries.id),
    paymentMethodId: integer('payment_method_id')
      .notNull()
      .references(() => paymentMethods.id),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.countryId, t.paymentMethodId] })],
);

export const locations = table(
  'locations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    countryId: integer('country_id')
      .notNull()
      .references(() => countries.id),
    cityName: text('city_name').notNull(),
    subdivisionName: text('subdivision_name').notNull(),
    latitude: real('latitude').notNull(),
    longitude: real('longitude').notNull(),
    /** City name folded to lower case without diacritics, so `sao` finds São Paulo. */
    searchKey: text('search_key').notNull(),
  },
  (t) => [index('locations_search_key_idx').on(t.searchKey)],
);

export const timezones = table('timezones', {
  /** IANA name: `Europe/Berlin`. */
  name: text('name').primaryKey(),
  /** First segment of the name: `Europe`. */
  region: text('region').notNull(),
});
