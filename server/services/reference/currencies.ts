import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import { roundDecimal as round } from '../../../src/lib/shared/money.ts';
import type { CurrencyView, FiatRate } from '../../../src/lib/shared/views/reference.ts';
import type { ServiceContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { ReferenceParts } from './deps.ts';
import { localizedCurrencyName } from './display-names.ts';
import type { FiatCurrencyRow } from './repository.ts';

// Fiat currencies with their rates: the list, one currency, its rate and the calculator's picks.

/** Currencies with a sort order up to this count as popular (spec: `meta.popularCurrencies`). */
const POPULAR_MAX_ORDER = 10;
/** Quick-pick chips of the calculator's currency list. */
const FAST_SEARCH_COUNT = 6;

/** The rows, read on the first call and kept (after that, no database access at all). */
async function currencies({ repo, caches }: ReferenceParts): Promise<FiatCurrencyRow[]> {
  caches.currencyRows ??= await repo.listCurrencies();
  return caches.currencyRows;
}

// The market's exchange rate when the feed quotes one, else the seeded rate of the currency.
const usdRateOf = ({ priceFeed }: ReferenceParts, row: FiatCurrencyRow) =>
  priceFeed.fiatPerUsd(row.code) ?? row.usdRate;

const rateOf = ({ priceFeed }: ReferenceParts, usdRate: number): FiatRate => ({
  usd: round(usdRate, 6),
  btc: round(priceFeed.usdPrice('BTC') * usdRate, 2),
  usdt: round(priceFeed.usdPrice('USDT') * usdRate, 4),
});

const view = (parts: ReferenceParts, row: FiatCurrencyRow, locale: Locale): CurrencyView => ({
  id: row.id,
  code: row.code,
  name: localizedCurrencyName(locale, row.code, row.name),
  originalName: row.name,
  symbol: row.symbol,
  minorUnits: row.minorUnits,
  rate: rateOf(parts, usdRateOf(parts, row)),
  order: row.sortOrder,
  defaultAmount: row.defaultAmount,
});

/** `field` names the request parameter that carried the code, for the 404's field. */
async function findRow(parts: ReferenceParts, code: string, field = 'code'): Promise<FiatCurrencyRow> {
  const row = (await currencies(parts)).find((c) => c.code === code);
  if (!row) throw notFound(`Currency ${code}`, field);
  return row;
}

export async function listCurrencies(
  parts: ReferenceParts,
  _ctx: ServiceContext,
  { locale }: { locale: Locale },
): Promise<CurrencyView[]> {
  const { priceFeed, caches } = parts;
  // First the rows, so nothing below awaits: the prices and the lists are read and kept together.
  const rows = await currencies(parts);
  // A ticker's poll may move exchange rates alone; its time changes with them.
  const prices = `${priceFeed.usdPrice('BTC')}:${priceFeed.usdPrice('USDT')}:${priceFeed.updatedAt()}`;
  if (prices !== caches.listPrices) {
    caches.lists.clear();
    caches.listPrices = prices;
  }
  let list = caches.lists.get(locale);
  if (!list) {
    list = rows.map((row) => view(parts, row, locale));
    caches.lists.set(locale, list);
  }
  return list;
}

export async function popularCurrencyCodes(parts: ReferenceParts, _ctx: ServiceContext): Promise<string[]> {
  return (await currencies(parts)).filter((c) => c.sortOrder <= POPULAR_MAX_ORDER).map((c) => c.code);
}

export async function getCurrency(
  parts: ReferenceParts,
  _ctx: ServiceContext,
  { locale, code, field }: { locale: Locale; code: string; field?: string },
): Promise<CurrencyView> {
  return view(parts, await findRow(parts, code, field), locale);
}

/** Units of the currency per US dollar, unrounded (market charts convert with it). */
export async function fiatPerUsd(
  parts: ReferenceParts,
  _ctx: ServiceContext,
  { code, field }: { code: string; field?: string },
): Promise<number> {
  return usdRateOf(parts, await findRow(parts, code, field));
}

export async function calculatorCurrencies(parts: ReferenceParts, ctx: ServiceContext, { locale }: { locale: Locale }) {
  const list = await listCurrencies(parts, ctx, { locale });
  return {
    currencies: list,
    popular: list.filter((c) => c.order <= POPULAR_MAX_ORDER),
    fastSearch: list.slice(0, FAST_SEARCH_COUNT).map((c) => c.code),
  };
}
