import { type MapStore, map } from 'nanostores';
import {
  type Amounts,
  type ChartPoint,
  calculatorUrl,
  convert,
  isAmountText,
  pairCode,
  rateFromUsd,
  type Side,
} from '../components/calculator/convert.ts';
import {
  type CalcCurrency,
  type CalcOffer,
  type CalculatorState,
  type ChartRange,
  type CurrencyEntry,
  OFFERS_SHOWN,
  toCalcOffer,
} from '../components/calculator/types.ts';
import type { Locale } from '../lib/shared/i18n/locales.ts';
import { onClientMount } from './client-mount.ts';
import { $rates, type Rates } from './rates.ts';

// The BTC calculator's state (spec sections 4 and 5): the shown currency and its rate, the two
// amounts, the chart and the offers with their loading states, the currency picker. One store
// per island, created with what the server rendered. While the island listens (the browser) it
// follows the shared `rates` store and the history: a switch of currency sets the new rate at
// once, pushes the URL (back and forward work) and reloads chart and offers; a newer switch wins
// over a slower older answer.

export type LoadState = 'ready' | 'loading' | 'error';

export interface CalculatorView {
  currency: CalcCurrency;
  /** The live price of 1 BTC in US dollars, once the `rates` channel gave one. */
  btcUsd: number | undefined;
  /** Unix seconds of the price shown. */
  updatedAt: number;
  amounts: Amounts;
  /** The field whose last keystroke was refused. */
  refused: Side | undefined;
  range: ChartRange;
  chart: ChartPoint[];
  chartState: LoadState;
  offers: CalcOffer[];
  offersState: LoadState;
  query: string;
  pickerOpen: boolean;
}

export interface CalculatorInit {
  locale: Locale;
  currencies: CurrencyEntry[];
  initial: CalculatorState;
  amounts: Amounts;
  pickerQuery: string;
  updatedAt: number;
  /** The document title of a currency's calculator. */
  title(code: string): string;
}

async function getData<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return ((await response.json()) as { data: T }).data;
}

/** A comma typed as the decimal mark (`0,5`) is read as the point the field expects. */
function normalizeTyped(text: string): string {
  return text.replace(',', '.').replace(/\s/g, '');
}

type CurrencyListEntry = { code: string; name: string; perUsd: number };

/** What the store's functions share: the view, its patch, the request counters, the currencies. */
interface Context {
  init: CalculatorInit;
  locale: Locale;
  list: CurrencyListEntry[];
  $view: MapStore<CalculatorView>;
  patch(change: Partial<CalculatorView>): void;
  /** The latest request of each kind: an older answer that comes after a newer one is dropped. */
  requests: { chart: number; offers: number; currency: number };
}

/** The view the server rendered. */
function initialView(init: CalculatorInit): CalculatorView {
  return {
    currency: init.initial.currency,
    btcUsd: undefined,
    updatedAt: init.updatedAt,
    amounts: init.amounts,
    refused: undefined,
    range: init.initial.range,
    chart: init.initial.chart,
    chartState: 'ready',
    offers: init.initial.offers,
    offersState: 'ready',
    query: init.pickerQuery,
    pickerOpen: init.pickerQuery !== '',
  };
}

/** A new rate for the shown currency: the field typed in last stays, the other follows. */
function applyRate(ctx: Context, next: CalcCurrency, change: Partial<CalculatorView> = {}) {
  const { amounts } = ctx.$view.get();
  ctx.patch({ ...change, currency: next, amounts: convert(amounts.from, amounts[amounts.from], next.rate) });
}

async function loadChart(ctx: Context, code: string, range: ChartRange) {
  const id = ++ctx.requests.chart;
  ctx.patch({ chartState: 'loading' });
  try {
    const points = await getData<ChartPoint[]>(
      `/rest/v1/calculator/chart?range=${range}&currency=${encodeURIComponent(code)}`,
    );
    if (id === ctx.requests.chart) ctx.patch({ chart: points, chartState: 'ready' });
  } catch {
    if (id === ctx.requests.chart) ctx.patch({ chartState: 'error' });
  }
}

async function loadOffers(ctx: Context, code: string) {
  const id = ++ctx.requests.offers;
  ctx.patch({ offersState: 'loading' });
  try {
    const found = await getData<Parameters<typeof toCalcOffer>[0][]>(
      `/rest/v1/offers?type=buy&currency=${encodeURIComponent(code)}&crypto_currency_id=1&locale=${ctx.locale}`,
    );
    if (id === ctx.requests.offers)
      ctx.patch({ offers: found.slice(0, OFFERS_SHOWN).map(toCalcOffer), offersState: 'ready' });
  } catch {
    if (id === ctx.requests.offers) ctx.patch({ offersState: 'error' });
  }
}

/** The server's rate and chart of a currency just switched to; the newest switch wins. */
async function loadCurrency(ctx: Context, code: string, range: ChartRange) {
  const id = ++ctx.requests.currency;
  void loadOffers(ctx, code);
  const chartId = ++ctx.requests.chart;
  ctx.patch({ chartState: 'loading' });
  try {
    const view = await getData<{
      currency: { code: string; name: string; rate: { usd: number; btc: number } };
      chart: ChartPoint[];
    }>(`/rest/v1/calculator?currency=${encodeURIComponent(code)}&range=${range}&locale=${ctx.locale}`);
    if (id === ctx.requests.currency) {
      const c = view.currency;
      applyRate(ctx, { code: c.code, name: c.name, perUsd: c.rate.usd, rate: c.rate.btc });
    }
    if (chartId === ctx.requests.chart) ctx.patch({ chart: view.chart, chartState: 'ready' });
  } catch {
    if (chartId === ctx.requests.chart) ctx.patch({ chartState: 'error' });
  }
}

/** Spec section 4: load the currency, update the rate, go to its URL, reload chart and offers. */
async function switchCurrency(ctx: Context, nextCode: string, how: 'push' | 'pop') {
  const entry = ctx.list.find((c) => c.code === nextCode);
  if (!entry) return;
  const was = ctx.$view.get();
  ctx.patch({ pickerOpen: false, query: '' });
  if (how === 'push') {
    if (nextCode === was.currency.code) return;
    history.pushState({ calculator: nextCode }, '', calculatorUrl(ctx.locale, nextCode));
  }
  document.title = ctx.init.title(nextCode);
  // The rate at once, from the live price when we have one, else through US dollars.
  const usd = was.btcUsd ?? was.currency.rate / was.currency.perUsd;
  applyRate(ctx, { code: entry.code, name: entry.name, perUsd: entry.perUsd, rate: rateFromUsd(usd, entry.perUsd) });
  await loadCurrency(ctx, nextCode, was.range);
}

/** The live price: BTC in US dollars × the currency's units per dollar; the chart's last point follows. */
function applyLive(ctx: Context, rates: Rates | undefined) {
  const usd = rates?.usd.BTC;
  if (usd === undefined) return;
  const { currency, chart, updatedAt } = ctx.$view.get();
  const next = rateFromUsd(usd, currency.perUsd);
  const last = chart[chart.length - 1];
  applyRate(
    ctx,
    { ...currency, rate: next },
    {
      btcUsd: usd,
      updatedAt: rates?.at ? Math.floor(rates.at / 1000) : updatedAt,
      chart: last ? [...chart.slice(0, -1), { date: last.date, rate: next }] : chart,
    },
  );
}

/** While the island listens: back and forward between calculators, and the live price. */
function followBrowser(ctx: Context) {
  const { $view } = ctx;
  onClientMount($view, () => {
    history.replaceState({ ...(history.state ?? {}), calculator: $view.get().currency.code }, '');
    const onPop = () => {
      const segment = location.pathname.replace(/\/+$/, '').split('/').pop();
      const popped = pairCode(segment);
      if (popped && popped !== $view.get().currency.code) void switchCurrency(ctx, popped, 'pop');
    };
    window.addEventListener('popstate', onPop);
    const stopRates = $rates.subscribe((rates) => applyLive(ctx, rates));
    return () => {
      window.removeEventListener('popstate', onPop);
      stopRates();
    };
  });
}

/** What the island's events do. */
function actions(ctx: Context) {
  const { $view, patch } = ctx;
  return {
    /** A keystroke in a field: refused unless it is an amount, else the other field follows. */
    type(side: Side, typed: string) {
      const text = normalizeTyped(typed);
      if (!isAmountText(text)) patch({ refused: side });
      else patch({ refused: undefined, amounts: convert(side, text, $view.get().currency.rate) });
    },
    /** The field in use leads: a live price moves the other one, never the text under the caret. */
    focus(side: Side) {
      const { amounts } = $view.get();
      if (amounts.from !== side) patch({ amounts: { ...amounts, from: side } });
    },
    chooseRange(next: ChartRange) {
      const { range, chartState, currency } = $view.get();
      if (next === range && chartState === 'ready') return;
      patch({ range: next });
      void loadChart(ctx, currency.code, next);
    },
    retryChart: () => void loadChart(ctx, $view.get().currency.code, $view.get().range),
    retryOffers: () => void loadOffers(ctx, $view.get().currency.code),
    pick: (code: string) => void switchCurrency(ctx, code, 'push'),
    setQuery: (query: string) => patch({ query }),
    setPickerOpen: (pickerOpen: boolean) => patch({ pickerOpen }),
  };
}

export function createCalculator(init: CalculatorInit) {
  const list = init.currencies.map(([code, name, perUsd]) => ({ code, name, perUsd }));
  const $view = map<CalculatorView>(initialView(init));
  const patch = (change: Partial<CalculatorView>) => $view.set({ ...$view.get(), ...change });
  const ctx: Context = {
    init,
    locale: init.locale,
    list,
    $view,
    patch,
    requests: { chart: 0, offers: 0, currency: 0 },
  };
  followBrowser(ctx);
  return { $view, list, ...actions(ctx) };
}

export type CalculatorStore = ReturnType<typeof createCalculator>;
