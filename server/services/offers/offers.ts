import { and, eq, ne, sql } from 'drizzle-orm';
import { newOfferHash } from '../../../db/ids.ts';
import { offers, users } from '../../../db/schema/index.ts';
import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import { toMinorUnits } from '../../../src/lib/shared/money.ts';
import { LAST_SEEN_BREAKPOINT_SECONDS, OFFLINE_AFTER_SECONDS } from '../../../src/lib/shared/presence.ts';
import { type StartTradeStep, startTradeStep } from '../../../src/lib/shared/start-trade-decision.ts';
import type { AuthState } from '../context.ts';
import { AppError, type FieldIssue, invalidInput, notFound } from '../errors.ts';
import { localizedCountryName } from '../reference/display-names.ts';
import type { ReferenceService } from '../reference/reference.ts';
import type { OffersCatalogue } from './catalogue.ts';
import { type OfferInput, readOfferInput } from './offer-input.ts';
import { type MarketRates, type OfferView, toOfferView } from './offer-view.ts';
import type { OfferRow, OffersRepository, SearchFilters } from './repository.ts';
import { createSearchCache } from './search-cache.ts';
import { type StartBlock, startBlocks, type Viewer } from './start-gate.ts';

// Offers: the listing search, one offer with its start gate, and the vendor's own offers.

/** Owners not seen for this long are offline: their offers leave the listing and cannot be started. */
const OFFLINE_AFTER_MS = OFFLINE_AFTER_SECONDS * 1000;
/** Searches are cached per bucket of this length: one simulated price tick. */
const SEARCH_BUCKET_MS = 10_000;
/** Spec section 9: page size 50. */
export const OFFERS_PAGE_SIZE = 50;
/** Cash in person "near" a place: about 50 km (latitude degrees; longitude is looser far from the equator). */
const NEAR_DEGREES = 0.45;

export interface SearchInput {
  /** The visitor's side (`buy` lists sell offers), as in the listing URL. */
  type: 'buy' | 'sell';
  cryptoCurrencyId: number;
  paymentMethod?: string | undefined;
  currency?: string | undefined;
  fiatMin?: string | undefined;
  group?: string | undefined;
  visitorCountryIso?: string | undefined;
  visitorCountryHasChanged?: boolean | undefined;
  locationId?: number | undefined;
  isPaymentLocalized?: boolean | undefined;
  page?: number | undefined;
  /** Retry without amount, then currency, then payment method while nothing is found. */
  relax?: boolean | undefined;
}

export type RelaxedCriterion = 'amount' | 'currency' | 'payment_method';

export interface SearchResult {
  offers: OfferView[];
  meta: {
    featuredOffersCount: number;
    otherOffersCount: number;
    page: number;
    pageSize: number;
    lastSeenBreakpoint: number;
    relaxed: RelaxedCriterion[];
    currency: string | null;
  };
}

export interface OfferDetails {
  offer: OfferView;
  /** Empty when the viewer may start a trade. */
  blocks: StartBlock[];
  /** What submitting the start form does first (src/lib/shared/start-trade-decision.ts). */
  step: StartTradeStep;
  isOwner: boolean;
  /** The amounts this viewer may trade: a new partner is capped by `newBuyerMaxFiatLimit`. */
  limits: { min: number; max: number };
}

export interface OffersDeps {
  repo: OffersRepository;
  catalogue: OffersCatalogue;
  reference: ReferenceService;
  /** What a person may still trade in the rolling 30 days (server/services/verification). */
  allowance?: (userId: number) => { level: number; unusedUsdCents: number };
  now: () => number;
}

export function createOffersService({ repo, catalogue, reference, allowance, now }: OffersDeps) {
  const { db } = repo;
  // Shaped answers, per filters, page and language: the shaping and the market price are those of
  // the bucket's first request (prices tick every 10 s anyway).
  const searches = createSearchCache<SearchResult>({ maxEntries: 500 });

  // Rates from the currency list the reference service keeps per price tick.
  let ratesFor: { list: unknown; rates: MarketRates } | undefined;
  const marketRates = (): MarketRates => {
    const list = reference.listCurrencies({ locale: 'en' });
    if (ratesFor?.list !== list) {
      const byCode = new Map(list.map((c) => [c.code, c.rate]));
      ratesFor = {
        list,
        rates: {
          fiatPerCrypto: (crypto, fiat) => {
            const rate = byCode.get(fiat);
            return (crypto === 'USDT' ? rate?.usdt : rate?.btc) ?? 0;
          },
          fiatPerUsd: (fiat) => byCode.get(fiat)?.usd ?? 1,
        },
      };
    }
    return ratesFor.rates;
  };

  /** Offers as clients read them, priced at one market and one instant for the whole list. */
  const viewAll = (rows: OfferRow[], locale: Locale, { offset = 0, forOwner = false } = {}) => {
    const rates = marketRates();
    const at = now();
    const countryName = (iso: string, fallback: string) => localizedCountryName(locale, iso, fallback);
    return rows.map((row, i) => toOfferView(row, { rates, now: at, index: offset + i, forOwner, countryName }));
  };
  const view = (row: OfferRow, locale: Locale, forOwner = false) =>
    viewAll([row], locale, { forOwner })[0] as OfferView;

  const viewerOf = (auth: AuthState | null, ownerId: number, visitorCountryIso?: string): Viewer | null => {
    if (!auth) return null;
    const { user } = auth;
    const ownerThinks = repo.trust(ownerId, user.id);
    return {
      id: user.id,
      username: user.username,
      status: user.status,
      isEmailVerified: user.isEmailVerified,
      // Set by an operator until the verification issue brings documents (user:verify-id).
      isIdVerified: user.idVerifiedAt !== null,
      countryIso: auth.profile.countryIso ?? visitorCountryIso ?? null,
      completedTrades: user.completedTrades,
      trustedByOwner: ownerThinks === 'trusted',
      blockedEitherWay: ownerThinks === 'blocked' || repo.trust(user.id, ownerId) === 'blocked',
    };
  };

  const requireVendor = (auth: AuthState) => {
    if (!auth.user.isVendor) {
      throw new AppError('FORBIDDEN', 'Accept the vendor terms to publish offers.', { key: 'offer_vendor_required' });
    }
    if (auth.user.status !== 'active') {
      throw new AppError('FORBIDDEN', 'This account cannot publish offers now. Contact support.', {
        key: 'offer_account_restricted',
      });
    }
  };

  /** The caller's own offer, or 404 (another vendor's offer is not theirs to know about here). */
  const ownOffer = (auth: AuthState, hash: string): OfferRow => {
    const row = repo.byHash(hash);
    if (!row || row.status === 'deleted' || row.ownerId !== auth.user.id) throw notFound('Offer', 'hash');
    return row;
  };

  const checked = (input: OfferInput) => {
    const read = readOfferInput(input, catalogue);
    if (read.issues) throw invalidInput(read.issues);
    return read.values;
  };

  const filtersOf = (input: SearchInput, auth: AuthState | null, relaxed: Set<RelaxedCriterion>) => {
    const details: FieldIssue[] = [];
    const offerType = input.type === 'buy' ? 'sell' : 'buy';
    // The visitor's country: what they picked (`visitor_country_has_changed`), else their profile's.
    const profileCountry = auth?.profile.countryIso ?? undefined;
    const countryIso = input.visitorCountryHasChanged
      ? input.visitorCountryIso
      : (profileCountry ?? input.visitorCountryIso);
    if (countryIso !== undefined && !catalogue.isCountry(countryIso)) {
      details.push({ field: 'visitor_country_iso', message: `Unknown country ${countryIso}.` });
    }
    // A localized listing without a currency shows the visitor's own currency.
    let currencyCode = input.currency;
    if (!currencyCode && input.isPaymentLocalized && countryIso) currencyCode = catalogue.countryCurrency(countryIso);
    const currency = currencyCode ? catalogue.currencyByCode(currencyCode) : undefined;
    if (currencyCode && !currency) details.push({ field: 'currency', message: `Unknown currency ${currencyCode}.` });
    const method = input.paymentMethod ? catalogue.methodBySlug(input.paymentMethod) : undefined;
    if (input.paymentMethod && !method) {
      details.push({ field: 'payment-method', message: `Unknown payment method ${input.paymentMethod}.` });
    }
    const group = input.group ? catalogue.groupBySlug(input.group) : undefined;
    if (input.group && !group) details.push({ field: 'group', message: `Unknown payment group ${input.group}.` });
    const place = input.locationId !== undefined ? catalogue.location(input.locationId) : undefined;
    if (input.locationId !== undefined && !place) {
      details.push({ field: 'location_id', message: `Unknown location ${input.locationId}.` });
    }
    if (!catalogue.cryptoById(input.cryptoCurrencyId)) {
      details.push({ field: 'crypto_currency_id', message: 'Must be 1 (BTC) or 2 (USDT).' });
    }
    // The amount is read in major units; with a currency it must fit that currency's decimals.
    let amount: number | undefined;
    if (input.fiatMin) {
      const minor = toMinorUnits(input.fiatMin, currency?.minorUnits ?? 3);
      if (minor === undefined || minor <= 0) details.push({ field: 'fiat-min', message: 'Must be an amount above 0.' });
      else amount = Number(input.fiatMin);
    }
    if (details.length > 0) throw invalidInput(details);

    const filters: SearchFilters = {
      offerType,
      cryptoCurrencyId: input.cryptoCurrencyId,
      fiatCurrencyId: relaxed.has('currency') ? undefined : currency?.id,
      paymentMethodId: relaxed.has('payment_method') ? undefined : method?.id,
      paymentGroupId: relaxed.has('payment_method') ? undefined : group?.id,
      amount: relaxed.has('amount') || relaxed.has('currency') ? undefined : amount,
      countryIso,
      // Only people with blocks see a list of their own; everyone else shares the cached one.
      viewerId: auth && repo.hasBlocks(auth.user.id) ? auth.user.id : undefined,
      near: place ? { latitude: place.latitude, longitude: place.longitude, radiusDegrees: NEAR_DEGREES } : undefined,
    };
    const canRelax: RelaxedCriterion[] = [];
    if (filters.amount !== undefined) canRelax.push('amount');
    if (filters.fiatCurrencyId !== undefined) canRelax.push('currency');
    if (filters.paymentMethodId !== undefined || filters.paymentGroupId !== undefined) canRelax.push('payment_method');
    return { filters, canRelax, currencyCode: currency?.code ?? null };
  };

  const detailsOf = (
    hash: string,
    auth: AuthState | null,
    locale: Locale,
    visitorCountryIso?: string,
  ): { details: OfferDetails; row: OfferRow } => {
    const row = repo.byHash(hash);
    const isOwner = row !== undefined && auth?.user.id === row.ownerId;
    // Deleted offers are gone; blocked and paused ones stay readable for their owner only.
    if (!row || row.status === 'deleted' || (row.status !== 'active' && !isOwner)) throw notFound('Offer', 'hash');
    const offer = view(row, locale, isOwner);
    const viewer = viewerOf(auth, row.ownerId, visitorCountryIso);
    // The viewer's trading limit in the offer's currency, rounded down to cents.
    const left = viewer && !isOwner && allowance ? allowance(viewer.id) : undefined;
    const viewerAllowance = left && {
      level: left.level,
      unused: Math.floor(left.unusedUsdCents * marketRates().fiatPerUsd(offer.fiatCurrency)) / 100,
    };
    const blocks = startBlocks(offer, viewer, {
      ownerOnline: row.ownerStatus === 'active' && now() - row.ownerLastSeenAt < OFFLINE_AFTER_MS,
      countryCurrency: catalogue.countryCurrency,
      allowance: viewerAllowance,
    });
    const isNewPartner = (viewer?.completedTrades ?? 0) === 0;
    const cap = isNewPartner ? offer.newBuyerMaxFiatLimit : null;
    const max = cap === null ? offer.fiatLimitMax : Math.min(cap, offer.fiatLimitMax);
    const limits = {
      min: offer.fiatLimitMin,
      // A trade above what the verification level has left would be refused at the start.
      max: viewerAllowance ? Math.max(offer.fiatLimitMin, Math.min(max, Math.floor(viewerAllowance.unused))) : max,
    };
    const step = startTradeStep(offer, viewer ?? { isIdVerified: false });
    return { row, details: { offer, blocks, step, isOwner, limits } };
  };

  return {
    search({ input, auth, locale }: { input: SearchInput; auth: AuthState | null; locale: Locale }): SearchResult {
      const page = input.page ?? 1;
      // Every search in one bucket sees the same instant, so their answers can be shared.
      const bucket = Math.floor(now() / SEARCH_BUCKET_MS);
      const at = bucket * SEARCH_BUCKET_MS;
      const crypto = catalogue.cryptoById(input.cryptoCurrencyId);
      const cryptoUsd = marketRates().fiatPerCrypto(crypto?.code ?? 'BTC', 'USD');
      const relaxed = new Set<RelaxedCriterion>();
      for (;;) {
        const { filters, canRelax, currencyCode } = filtersOf(input, auth, relaxed);
        const window = {
          onlineSince: at - OFFLINE_AFTER_MS,
          activeSince: at - LAST_SEEN_BREAKPOINT_SECONDS * 1000,
          cryptoUsd,
          // A visitor who buys wants the lowest price; one who sells, the highest.
          cheapestFirst: input.type === 'buy',
          limit: OFFERS_PAGE_SIZE,
          offset: (page - 1) * OFFERS_PAGE_SIZE,
        };
        const key = JSON.stringify([filters, window.cheapestFirst, window.offset, locale, [...relaxed]]);
        const result = searches.get(key, bucket, () => {
          const found = repo.search(filters, window);
          return {
            offers: viewAll(found.rows, locale, { offset: window.offset }),
            meta: {
              featuredOffersCount: found.featured,
              otherOffersCount: found.total - found.featured,
              page,
              pageSize: OFFERS_PAGE_SIZE,
              lastSeenBreakpoint: LAST_SEEN_BREAKPOINT_SECONDS,
              relaxed: [...relaxed],
              currency: currencyCode,
            },
          };
        });
        const empty = result.meta.featuredOffersCount + result.meta.otherOffersCount === 0;
        // The spec's order: amount, then currency, then payment method.
        const next = canRelax[0];
        if (empty && input.relax && next) {
          relaxed.add(next);
          continue;
        }
        return result;
      }
    },

    /** One offer as a person sees it, with what stands between them and a trade. */
    get({
      hash,
      auth,
      locale,
      visitorCountryIso,
    }: {
      hash: string;
      auth: AuthState | null;
      locale: Locale;
      visitorCountryIso?: string | undefined;
    }): OfferDetails {
      return detailsOf(hash, auth, locale, visitorCountryIso).details;
    },

    /** `get` and the row behind it: the trade start needs the offer's ids and its instructions. */
    forTradeStart({ hash, auth, locale }: { hash: string; auth: AuthState; locale: Locale }) {
      return detailsOf(hash, auth, locale);
    },

    listForUser({ username, auth, locale }: { username: string; auth: AuthState | null; locale: Locale }) {
      const owner = db
        .select({ id: users.id, status: users.status })
        .from(users)
        .where(sql`lower(${users.username}) = lower(${username})`)
        .get();
      if (!owner || owner.status === 'banned') throw notFound('User', 'username');
      const isOwner = auth?.user.id === owner.id;
      const rows = isOwner ? repo.byOwner(owner.id) : repo.publicByOwner(owner.id);
      return viewAll(rows, locale, { forOwner: isOwner });
    },

    create({ auth, input, locale }: { auth: AuthState; input: OfferInput; locale: Locale }): OfferView {
      requireVendor(auth);
      const values = checked(input);
      const at = now();
      const hash = newOfferHash();
      db.insert(offers)
        .values({ ...values, hash, ownerId: auth.user.id, status: 'active', createdAt: at, updatedAt: at })
        .run();
      searches.invalidate();
      return view(repo.byHash(hash) as OfferRow, locale, true);
    },

    update({ auth, hash, input, locale }: { auth: AuthState; hash: string; input: OfferInput; locale: Locale }) {
      requireVendor(auth);
      const before = ownOffer(auth, hash);
      const values = checked(input);
      // `updated_at` changes, so a trade started from what the buyer saw before notices (originalData).
      db.update(offers)
        .set({ ...values, updatedAt: Math.max(now(), before.updatedAt + 1) })
        .where(and(eq(offers.hash, hash), eq(offers.ownerId, auth.user.id), ne(offers.status, 'deleted')))
        .run();
      searches.invalidate();
      return view(repo.byHash(hash) as OfferRow, locale, true);
    },

    /** On or off; `active` sets it, otherwise it flips. Blocked offers stay off. */
    toggle({ auth, hash, active, locale }: { auth: AuthState; hash: string; active?: boolean; locale: Locale }) {
      requireVendor(auth);
      const row = ownOffer(auth, hash);
      if (row.status === 'blocked') {
        throw new AppError('FORBIDDEN', 'A moderator stopped this offer; it cannot be turned on.', {
          key: 'offer_blocked',
        });
      }
      const next = (active ?? row.status !== 'active') ? 'active' : 'paused';
      db.update(offers)
        .set({ status: next })
        .where(
          and(
            eq(offers.hash, hash),
            eq(offers.ownerId, auth.user.id),
            ne(offers.status, 'blocked'),
            ne(offers.status, 'deleted'),
          ),
        )
        .run();
      searches.invalidate();
      return view(repo.byHash(hash) as OfferRow, locale, true);
    },

    /** Deleting keeps the row (trades point at it) and takes it out of every list. */
    remove({ auth, hash }: { auth: AuthState; hash: string }): void {
      ownOffer(auth, hash);
      db.update(offers)
        .set({ status: 'deleted', updatedAt: now() })
        .where(and(eq(offers.hash, hash), eq(offers.ownerId, auth.user.id)))
        .run();
      searches.invalidate();
    },

    activeOffersCount: (userId: number) => repo.activeCountOf(userId),

    /** Drops cached searches: for writers outside this service (moderation, tests' direct SQL). */
    invalidateSearches: () => searches.invalidate(),
  };
}

export type OffersService = ReturnType<typeof createOffersService>;
