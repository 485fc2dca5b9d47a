import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import { roundDecimal as round } from '../../../src/lib/shared/money.ts';
import type {
  CountryView,
  CurrencyView,
  FiatRate,
  LocationView,
  PaymentGroupView,
  TimezoneView,
} from '../../../src/lib/shared/views/reference.ts';
import type { ServiceContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { PriceFeed } from '../price-feed/price-feed.ts';
import { localizedCountryName, localizedCurrencyName } from './display-names.ts';
import { shapePaymentGroups } from './payment-methods.ts';
import type { FiatCurrencyRow, ReferenceRepository } from './repository.ts';

/** Currencies with a sort order up to this count as popular (spec: `meta.popularCurrencies`). */
const POPULAR_MAX_ORDER = 10;
/** Quick-pick chips of the calculator's currency list. */
const FAST_SEARCH_COUNT = 6;
const TIMEZONE_CACHE_MS = 15 * 60 * 1000;

// The answer shapes are the API's contract, in src/lib/shared/views/reference.ts.
export type { CountryView, CurrencyView, FiatRate, LocationView, TimezoneView };

function utcOffsetMinutes(timeZone: string, at: Date): number {
  const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(part ?? '');
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

export interface ReferenceDeps {
  repo: ReferenceRepository;
  priceFeed: PriceFeed;
  now: () => number;
}

export function createReferenceService({ repo, priceFeed, now }: ReferenceDeps) {
  // Reference rows change only through migrations and the seed, so they are read once.
  let currencyRows: FiatCurrencyRow[] | undefined;
  const currencies = () => {
    currencyRows ??= repo.listCurrencies();
    return currencyRows;
  };
  let timezoneCache: { at: number; list: TimezoneView[] } | undefined;
  const paymentGroupCache = new Map<Locale, PaymentGroupView[]>();
  // Shaped lists per locale, valid until the next price tick: the list changes only when prices do.
  const listCache = new Map<Locale, CurrencyView[]>();
  let listCachePrices = '';

  // The market's exchange rate when the feed quotes one, else the seeded rate of the currency.
  const usdRateOf = (row: FiatCurrencyRow) => priceFeed.fiatPerUsd(row.code) ?? row.usdRate;

  const rateOf = (usdRate: number): FiatRate => ({
    usd: round(usdRate, 6),
    btc: round(priceFeed.usdPrice('BTC') * usdRate, 2),
    usdt: round(priceFeed.usdPrice('USDT') * usdRate, 4),
  });

  const view = (row: FiatCurrencyRow, locale: Locale): CurrencyView => ({
    id: row.id,
    code: row.code,
    name: localizedCurrencyName(locale, row.code, row.name),
    originalName: row.name,
    symbol: row.symbol,
    minorUnits: row.minorUnits,
    rate: rateOf(usdRateOf(row)),
    order: row.sortOrder,
    defaultAmount: row.defaultAmount,
  });

  /** `field` names the request parameter that carried the code, for the 404's field. */
  const findRow = (code: string, field = 'code') => {
    const row = currencies().find((c) => c.code === code);
    if (!row) throw notFound(`Currency ${code}`, field);
    return row;
  };

  const listCurrencies = (_ctx: ServiceContext, { locale }: { locale: Locale }): CurrencyView[] => {
    // A ticker's poll may move exchange rates alone; its time changes with them.
    const prices = `${priceFeed.usdPrice('BTC')}:${priceFeed.usdPrice('USDT')}:${priceFeed.updatedAt()}`;
    if (prices !== listCachePrices) {
      listCache.clear();
      listCachePrices = prices;
    }
    let list = listCache.get(locale);
    if (!list) {
      list = currencies().map((row) => view(row, locale));
      listCache.set(locale, list);
    }
    return list;
  };

  return {
    listCurrencies,

    popularCurrencyCodes(_ctx: ServiceContext): string[] {
      return currencies()
        .filter((c) => c.sortOrder <= POPULAR_MAX_ORDER)
        .map((c) => c.code);
    },

    getCurrency(
      _ctx: ServiceContext,
      { locale, code, field }: { locale: Locale; code: string; field?: string },
    ): CurrencyView {
      return view(findRow(code, field), locale);
    },

    /** Units of the currency per US dollar, unrounded (market charts convert with it). */
    fiatPerUsd(_ctx: ServiceContext, { code, field }: { code: string; field?: string }): number {
      return usdRateOf(findRow(code, field));
    },

    calculatorCurrencies(ctx: ServiceContext, { locale }: { locale: Locale }) {
      const list = listCurrencies(ctx, { locale });
      return {
        currencies: list,
        popular: list.filter((c) => c.order <= POPULAR_MAX_ORDER),
        fastSearch: list.slice(0, FAST_SEARCH_COUNT).map((c) => c.code),
      };
    },

    listCountries(_ctx: ServiceContext, { locale, limit, offset }: { locale: Locale; limit: number; offset: number }) {
      const methods = new Map<number, { slug: string; name: string }[]>();
      for (const m of repo.listCountryPaymentMethods()) {
        const list = methods.get(m.countryId) ?? [];
        list.push({ slug: m.slug, name: m.name });
        methods.set(m.countryId, list);
      }
      const items: CountryView[] = repo.listCountries(limit, offset).map((c) => ({
        id: c.id,
        iso: c.iso,
        iso3: c.iso3,
        name: localizedCountryName(locale, c.iso, c.name),
        originalName: c.name,
        currency: c.currencyCode,
        phoneCode: c.phoneCode,
        popularPaymentMethods: methods.get(c.id) ?? [],
      }));
      return { items, total: repo.countCountries() };
    },

    searchLocations(
      _ctx: ServiceContext,
      { locale, query, limit }: { locale: Locale; query: string; limit: number },
    ): LocationView[] {
      return repo.searchLocations(query, limit).map((l) => {
        const countryName = localizedCountryName(locale, l.countryIso, l.countryName);
        const parts = [l.cityName, l.subdivisionName === l.cityName ? '' : l.subdivisionName, countryName];
        return { ...l, countryName, prettyName: parts.filter(Boolean).join(', ') };
      });
    },

    /** Payment groups with their methods; reference rows only, so shaped once per language. */
    listPaymentGroups(_ctx: ServiceContext, { locale }: { locale: Locale }): PaymentGroupView[] {
      let list = paymentGroupCache.get(locale);
      if (!list) {
        list = shapePaymentGroups(repo, locale);
        paymentGroupCache.set(locale, list);
      }
      return list;
    },

    listTimezones(_ctx: ServiceContext): TimezoneView[] {
      const at = now();
      if (!timezoneCache || at - timezoneCache.at > TIMEZONE_CACHE_MS) {
        const date = new Date(at);
        const list = repo.listTimezones().map((tz) => {
          const offsetMinutes = utcOffsetMinutes(tz.name, date);
          return { name: tz.name, region: tz.region, offset: formatOffset(offsetMinutes), offsetMinutes };
        });
        timezoneCache = { at, list };
      }
      return timezoneCache.list;
    },
  };
}

export type ReferenceService = ReturnType<typeof createReferenceService>;
