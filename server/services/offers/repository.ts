import { and, eq, ne, sql } from 'drizzle-orm';
import { asDatabase, type Database, type DatabaseLike } from '../../../db/database.ts';
import { offers, users } from '../../../db/schema/index.ts';
import type { ListingSort } from '../../../src/lib/shared/listing-sort.ts';
import type { OfferStatus } from '../../../src/lib/shared/views/offers.ts';
import { setNeedsWhere } from './funding-needs.ts';
import { MINOR_SCALE, searchOrder } from './search-order.ts';

// SQL of the offers area, in the SQL both engines run (db/sql-client.ts). The search's WHERE clause
// depends on which filters are given, so there is one statement text per combination (at most
// 2^7), built once and kept (each text is prepared and cached by the client).
// It works in two steps in one statement: an inner query filters, sorts and cuts the page using
// only the narrow covering index `offers_search_idx` and the owner's row, then the page's 50 ids
// are joined with everything a listing row shows (owner, method, group, currency, place). Sorting
// whole rows instead read every matching offer's terms from the table: 2.2 ms against 0.2 ms for
// 2,000 matches among 100,000 offers (docs/decisions/048-listing-pages.md).

export interface OfferRow {
  id: number;
  hash: string;
  type: 'buy' | 'sell';
  ownerId: number;
  cryptoCurrencyId: number;
  cryptoCode: string;
  fiatCurrencyId: number;
  fiatCode: string;
  fiatMinorUnits: number;
  paymentMethodId: number;
  paymentMethodSlug: string;
  paymentMethodName: string;
  paymentGroupId: number;
  paymentGroupSlug: string;
  priceType: 'margin' | 'fixed';
  marginBasisPoints: number;
  fixedPriceMinor: number | null;
  fiatMinMinor: number;
  fiatMaxMinor: number;
  predefinedAmountsMinor: string;
  paymentWindowMinutes: number;
  paymentMethodLabel: string | null;
  terms: string;
  tradeInstructions: string;
  tags: string;
  /** JSON of OfferTradeRequirement[]. */
  tradeRequirements: string;
  bondRequired: number;
  requireOfferCurrencyMatchBuyerCountry: number;
  newBuyerMaxFiatMinor: number | null;
  isGold: number;
  isSkipWarnings: number;
  isPubliclyVisible: number;
  allowedCountries: string;
  blockedCountries: string;
  locationId: number | null;
  locationCity: string | null;
  locationSubdivision: string | null;
  locationCountryIso: string | null;
  locationCountryName: string | null;
  locationCountryId: number | null;
  requireVerifiedId: number;
  requireMinPastTrades: number;
  showOnlyTrustedUser: number;
  isFeatured: number;
  status: OfferStatus;
  createdAt: number;
  updatedAt: number;
  ownerPublicId: string;
  ownerUsername: string;
  ownerStatus: 'active' | 'suspended' | 'banned';
  ownerLastSeenAt: number;
  ownerFeedbackPositive: number;
  ownerFeedbackNegative: number;
  ownerCompletedTrades: number;
  ownerAvatarUrl: string | null;
  /** The owner's wallet in the offer's crypto (minor units), from the copy on their users row. */
  ownerWalletBalance: number;
}

const COLUMNS = `
  o.id, o.hash, o.type, o.owner_id AS ownerId,
  o.crypto_currency_id AS cryptoCurrencyId, cc.code AS cryptoCode,
  o.fiat_currency_id AS fiatCurrencyId, fc.code AS fiatCode, fc.minor_units AS fiatMinorUnits,
  o.payment_method_id AS paymentMethodId, pm.slug AS paymentMethodSlug, pm.name AS paymentMethodName,
  pm.group_id AS paymentGroupId, pg.slug AS paymentGroupSlug,
  o.price_type AS priceType, o.margin_basis_points AS marginBasisPoints, o.fixed_price_minor AS fixedPriceMinor,
  o.fiat_min_minor AS fiatMinMinor, o.fiat_max_minor AS fiatMaxMinor,
  o.predefined_amounts_minor AS predefinedAmountsMinor, o.payment_window_minutes AS paymentWindowMinutes,
  o.payment_method_label AS paymentMethodLabel, o.terms, o.trade_instructions AS tradeInstructions, o.tags,
  o.trade_requirements AS tradeRequirements,
  o.bond_required AS bondRequired, o.require_currency_match_country AS requireOfferCurrencyMatchBuyerCountry,
  o.new_buyer_max_fiat_minor AS newBuyerMaxFiatMinor, o.is_gold AS isGold, o.is_skip_warnings AS isSkipWarnings,
  o.is_publicly_visible AS isPubliclyVisible, o.allowed_countries AS allowedCountries,
  o.blocked_countries AS blockedCountries, o.location_id AS locationId,
  l.city_name AS locationCity, l.subdivision_name AS locationSubdivision,
  lc.iso AS locationCountryIso, lc.name AS locationCountryName, lc.id AS locationCountryId,
  o.require_verified_id AS requireVerifiedId, o.require_min_past_trades AS requireMinPastTrades,
  o.show_only_trusted_user AS showOnlyTrustedUser, o.is_featured AS isFeatured, o.status,
  o.created_at AS createdAt, o.updated_at AS updatedAt,
  u.public_id AS ownerPublicId, u.username AS ownerUsername, u.status AS ownerStatus,
  u.last_seen_at AS ownerLastSeenAt, u.feedback_positive AS ownerFeedbackPositive,
  u.feedback_negative AS ownerFeedbackNegative, u.completed_trades AS ownerCompletedTrades,
  us.avatar_url AS ownerAvatarUrl,
  CASE cc.code WHEN 'USDT' THEN u.wallet_usdt ELSE u.wallet_btc END AS ownerWalletBalance`;

/** Everything a row shows beside the offer itself. */
const FROM_JOINS = `
  JOIN users u ON u.id = o.owner_id
  JOIN crypto_currencies cc ON cc.id = o.crypto_currency_id
  JOIN fiat_currencies fc ON fc.id = o.fiat_currency_id
  JOIN payment_methods pm ON pm.id = o.payment_method_id
  JOIN payment_groups pg ON pg.id = pm.group_id
  LEFT JOIN user_settings us ON us.user_id = o.owner_id
  LEFT JOIN locations l ON l.id = o.location_id
  LEFT JOIN countries lc ON lc.id = l.country_id`;
const FROM = `FROM offers o ${FROM_JOINS}`;

/**
 * An offer's price relative to the market (1.025 = 2.5 % above), so offers in different
 * currencies and of both price types sort together: a fixed price is divided by the market price
 * in its currency (`@cryptoUsd` × the currency's USD rate).
 */
const PRICE_FACTOR = `CASE o.price_type
  WHEN 'fixed' THEN o.fixed_price_minor * 1.0 / (${MINOR_SCALE}) / (fc.usd_rate * @cryptoUsd)
  ELSE 1 + o.margin_basis_points / 10000.0 END`;

/** The owner's wallet copy of each coin, on their users row (db/schema/users.ts). */
const WALLET_COLUMN = { BTC: 'u.wallet_btc', USDT: 'u.wallet_usdt' } as const;

/**
 * A sell offer is listed only while its owner's wallet covers its smallest trade with the fee
 * (decision 121): two comparisons with the needs kept on the offer (funding-needs.ts), the margin
 * one at the bucket's market price (`@minorPerUsd`: the coin's minor units per US dollar).
 */
const funded = (wallet: string) => `${wallet} >= o.need_usd * @minorPerUsd AND ${wallet} >= o.need_crypto`;

/**
 * Whether a wallet change of `@amount` moved one of the owner's listed-if-funded sell offers across
 * its need: funded now and not before, or the other way round (funding-watch.ts).
 */
const CROSSED = Object.fromEntries(
  (['BTC', 'USDT'] as const).map((crypto) => [
    crypto,
    `SELECT 1 AS found FROM offers o JOIN users u ON u.id = o.owner_id
      WHERE o.owner_id = @ownerId AND o.status = 'active' AND o.type = 'sell' AND o.is_publicly_visible = 1
        AND o.crypto_currency_id = @cryptoCurrencyId
        AND (${funded(WALLET_COLUMN[crypto])}) <> (${funded(`(${WALLET_COLUMN[crypto]} - @amount)`)})
      LIMIT 1`,
  ]),
) as Record<'BTC' | 'USDT', string>;

export interface SearchFilters {
  /** The offer owner's side: `sell` for a visitor who buys. */
  offerType: 'buy' | 'sell';
  cryptoCurrencyId: number;
  fiatCurrencyId?: number | undefined;
  paymentMethodId?: number | undefined;
  paymentGroupId?: number | undefined;
  /** The amount the visitor wants to trade, in major units of each offer's currency. */
  amount?: number | undefined;
  /** The visitor's country (ISO 3166 alpha-2): offers that exclude it are left out. */
  countryIso?: string | undefined;
  /** The signed-in visitor: offers of people either side blocked are left out. */
  viewerId?: number | undefined;
  /** Cash in person near a place: a box of ±`radiusDegrees` around it. */
  near?: { latitude: number; longitude: number; radiusDegrees: number } | undefined;
  /** Sell offers: only those whose owner holds the coins for the smallest trade (`funded`). */
  sellerFunds?: { crypto: 'BTC' | 'USDT'; minorPerUsd: number } | undefined;
}

export interface SearchWindow {
  /** Owners seen before this (unix ms) are offline: their offers are not listed. */
  onlineSince: number;
  /** Owners seen before this (unix ms) sort after those seen since, in each list. */
  activeSince: number;
  cryptoUsd: number;
  /** Ascending for a visitor who buys (cheapest first), descending for one who sells. */
  cheapestFirst: boolean;
  /** The order inside each list (search-order.ts, decision 133); `price` is the contract's. */
  sort: ListingSort;
  limit: number;
  offset: number;
}

type Shape = Omit<SearchFilters, 'offerType' | 'cryptoCurrencyId'>;
const SHAPE_KEYS: (keyof Shape)[] = [
  'fiatCurrencyId',
  'paymentMethodId',
  'paymentGroupId',
  'amount',
  'countryIso',
  'viewerId',
  'near',
  'sellerFunds',
];

function whereClause(filters: SearchFilters): string {
  const parts = [
    `o.status = 'active'`,
    'o.is_publicly_visible = 1',
    'o.type = @offerType',
    'o.crypto_currency_id = @cryptoCurrencyId',
    `u.status = 'active'`,
    'u.last_seen_at >= @onlineSince',
  ];
  if (filters.fiatCurrencyId !== undefined) parts.push('o.fiat_currency_id = @fiatCurrencyId');
  if (filters.paymentMethodId !== undefined) parts.push('o.payment_method_id = @paymentMethodId');
  if (filters.paymentGroupId !== undefined) {
    parts.push('o.payment_method_id IN (SELECT id FROM payment_methods WHERE group_id = @paymentGroupId)');
  }
  if (filters.amount !== undefined) {
    parts.push(
      // `* 1.0`: PostgreSQL would otherwise take the parameter for an integer.
      `o.fiat_min_minor <= round(@amount * 1.0 * ${MINOR_SCALE})`,
      `o.fiat_max_minor >= round(@amount * 1.0 * ${MINOR_SCALE})`,
    );
  }
  if (filters.countryIso !== undefined) {
    // The lists are JSON arrays of upper-case ISO codes (`["DE","AT"]`): `@countryPattern` is the
    // quoted code inside `%…%`, which matches the same on both engines (letters only, upper case).
    parts.push(
      `(o.allowed_countries = '[]' OR o.allowed_countries LIKE @countryPattern)`,
      `o.blocked_countries NOT LIKE @countryPattern`,
    );
  }
  if (filters.viewerId !== undefined) {
    parts.push(`NOT EXISTS (SELECT 1 FROM user_trust t WHERE t.kind = 'blocked'
      AND ((t.user_id = @viewerId AND t.other_id = o.owner_id) OR (t.user_id = o.owner_id AND t.other_id = @viewerId)))`);
  }
  if (filters.near !== undefined) {
    parts.push(`o.location_id IN (SELECT id FROM locations
      WHERE latitude BETWEEN @minLatitude AND @maxLatitude AND longitude BETWEEN @minLongitude AND @maxLongitude)`);
  }
  if (filters.sellerFunds !== undefined) parts.push(funded(WALLET_COLUMN[filters.sellerFunds.crypto]));
  return `WHERE ${parts.join(' AND ')}`;
}

function parameters(filters: SearchFilters, extra: Record<string, unknown>): Record<string, unknown> {
  const params: Record<string, unknown> = {
    offerType: filters.offerType,
    cryptoCurrencyId: filters.cryptoCurrencyId,
    ...extra,
  };
  for (const key of SHAPE_KEYS) {
    const value = filters[key];
    if (value === undefined || key === 'near' || key === 'countryIso' || key === 'sellerFunds') continue;
    params[key] = value;
  }
  if (filters.countryIso !== undefined) params.countryPattern = `%"${filters.countryIso}"%`;
  if (filters.sellerFunds) params.minorPerUsd = filters.sellerFunds.minorPerUsd;
  if (filters.near) {
    const { latitude, longitude, radiusDegrees } = filters.near;
    params.minLatitude = latitude - radiusDegrees;
    params.maxLatitude = latitude + radiusDegrees;
    params.minLongitude = longitude - radiusDegrees;
    params.maxLongitude = longitude + radiusDegrees;
  }
  return params;
}

/** Columns of `offers` a vendor's write sets: the checked input, and the owner, hash and times when new. */
export type NewOffer = typeof offers.$inferInsert;

/** The vendor's writes, each limited to their own offer (`ownerId`), and the owner lookup of a person's list. */
function offerWrites(database: Database) {
  const { orm } = database;
  const own = (hash: string, ownerId: number) => and(eq(offers.hash, hash), eq(offers.ownerId, ownerId));
  return {
    /** The owner of a username (any letter case), whatever their status. */
    ownerByUsername: (username: string) =>
      database.get(
        orm
          .select({ id: users.id, status: users.status })
          .from(users)
          .where(sql`lower(${users.username}) = lower(${username})`)
          .limit(1),
      ),
    /** With the funding needs the listing compares (funding-needs.ts): call it in a transaction. */
    insert: async (values: NewOffer) => {
      await database.run(orm.insert(offers).values(values));
      await database.sql.run(SET_NEEDS_OF_HASH, [values.hash]);
    },
    /** With the funding needs, as `insert`. */
    replace: async (hash: string, ownerId: number, values: Partial<NewOffer>) => {
      await database.run(
        orm
          .update(offers)
          .set(values)
          .where(and(own(hash, ownerId), ne(offers.status, 'deleted'))),
      );
      await database.sql.run(SET_NEEDS_OF_HASH, [hash]);
    },
    /** Blocked offers stay as a moderator left them. */
    setActive: async (hash: string, ownerId: number, status: 'active' | 'paused') => {
      await database.run(
        orm
          .update(offers)
          .set({ status })
          .where(and(own(hash, ownerId), ne(offers.status, 'blocked'), ne(offers.status, 'deleted'))),
      );
    },
    remove: async (hash: string, ownerId: number, at: number) => {
      await database.run(orm.update(offers).set({ status: 'deleted', updatedAt: at }).where(own(hash, ownerId)));
    },
  };
}

const SET_NEEDS_OF_HASH = setNeedsWhere('offers.hash = ?');
const BY_HASH = `SELECT ${COLUMNS} ${FROM} WHERE o.hash = ?`;
const BY_OWNER = `SELECT ${COLUMNS} ${FROM} WHERE o.owner_id = ? AND o.status != 'deleted' ORDER BY o.created_at DESC, o.id DESC`;
const PUBLIC_BY_OWNER = `SELECT ${COLUMNS} ${FROM} WHERE o.owner_id = ? AND o.status = 'active' AND o.is_publicly_visible = 1
  ORDER BY o.created_at DESC, o.id DESC`;
const TRUST_BETWEEN = 'SELECT kind FROM user_trust WHERE user_id = ? AND other_id = ?';
const BLOCKS_OF = `SELECT 1 AS found FROM user_trust WHERE kind = 'blocked' AND (user_id = @id OR other_id = @id) LIMIT 1`;
const ACTIVE_COUNT_OF = `SELECT count(*) AS n FROM offers WHERE owner_id = ? AND status = 'active'`;

export function createOffersRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const searchStatements = new Map<string, { page: string; counts: string }>();

  const statementsFor = (filters: SearchFilters, cheapestFirst: boolean, sort: ListingSort) => {
    // The wallet column compared is in the text: one statement per coin where funds count.
    const key = `${SHAPE_KEYS.map((k) => (filters[k] === undefined ? 0 : 1)).join('')}${cheapestFirst ? 'a' : 'd'}${filters.sellerFunds?.crypto ?? ''} ${sort}`;
    let found = searchStatements.get(key);
    if (!found) {
      const where = whereClause(filters);
      // The inner query touches only what filtering and sorting need: offers (through the index),
      // the owner (status, last seen) and the currency (decimals, USD rate; 154 rows).
      const matches = `FROM offers o JOIN users u ON u.id = o.owner_id JOIN fiat_currencies fc ON fc.id = o.fiat_currency_id ${where}`;
      const order = searchOrder(sort, cheapestFirst);
      found = {
        page: `SELECT ${COLUMNS} FROM (
            SELECT o.id AS pid, o.is_featured AS k1,
              CASE WHEN u.last_seen_at < @activeSince THEN 1 ELSE 0 END AS k2, ${PRICE_FACTOR} AS k3${order.columns}
            ${matches}
            ORDER BY ${order.inner}
            LIMIT @limit OFFSET @offset
          ) page
          JOIN offers o ON o.id = page.pid
          ${FROM_JOINS}
          ORDER BY ${order.outer}`,
        counts: `SELECT count(*) AS total, coalesce(sum(o.is_featured), 0) AS featured ${matches}`,
      };
      searchStatements.set(key, found);
    }
    return found;
  };

  return {
    db: database,

    async search(
      filters: SearchFilters,
      window: SearchWindow,
    ): Promise<{ rows: OfferRow[]; total: number; featured: number }> {
      const { page, counts } = statementsFor(filters, window.cheapestFirst, window.sort);
      const params = parameters(filters, {
        onlineSince: window.onlineSince,
        activeSince: window.activeSince,
        cryptoUsd: window.cryptoUsd,
        limit: window.limit,
        offset: window.offset,
      });
      // The counts statement names fewer parameters; SQLite's driver refuses unknown ones.
      const { activeSince: _a, cryptoUsd: _c, limit: _l, offset: _o, ...countParams } = params;
      const [rows, count] = await Promise.all([
        database.sql.all<OfferRow>(page, [params]),
        database.sql.get<{ total: number; featured: number }>(counts, [countParams]),
      ]);
      return { rows, total: Number(count?.total ?? 0), featured: Number(count?.featured ?? 0) };
    },

    byHash: (hash: string) => database.sql.get<OfferRow>(BY_HASH, [hash]),
    byOwner: (ownerId: number) => database.sql.all<OfferRow>(BY_OWNER, [ownerId]),
    publicByOwner: (ownerId: number) => database.sql.all<OfferRow>(PUBLIC_BY_OWNER, [ownerId]),
    /** What `userId` thinks of `otherId`: trusted, blocked or nothing. */
    trust: async (userId: number, otherId: number) =>
      (await database.sql.get<{ kind: 'trusted' | 'blocked' }>(TRUST_BETWEEN, [userId, otherId]))?.kind,
    activeCountOf: async (ownerId: number) =>
      Number((await database.sql.get<{ n: number }>(ACTIVE_COUNT_OF, [ownerId]))?.n ?? 0),
    /** Whether a wallet change moved one of the owner's sell offers in or out of the listing (CROSSED). */
    fundsCrossedNeed: async (change: {
      ownerId: number;
      crypto: 'BTC' | 'USDT';
      cryptoCurrencyId: number;
      amount: number;
      minorPerUsd: number;
    }) => {
      const { crypto, ...params } = change;
      return (await database.sql.get(CROSSED[crypto], [params])) !== undefined;
    },
    /** Whether `userId` blocked anyone or was blocked by anyone: only then do their searches differ. */
    hasBlocks: async (userId: number) => (await database.sql.get(BLOCKS_OF, [{ id: userId }])) !== undefined,
    ...offerWrites(database),
  };
}

export type OffersRepository = ReturnType<typeof createOffersRepository>;
