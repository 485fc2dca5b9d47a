import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { buildListingUrl } from '../../lib/offer-listing-url.ts';
import { formatFiat } from '../../lib/shared/format.ts';
import { type IslandMessages, islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import { type RealtimeEvent, useChannel } from '../../lib/use-channel.ts';
import { CurrencyPicker, isPlainClick } from './CurrencyPicker.tsx';
import {
  type Amounts,
  type ChartPoint,
  calculatorUrl,
  convert,
  isAmountText,
  pairCode,
  rateFromUsd,
  type Side,
} from './convert.ts';
import { OffersList } from './OffersList.tsx';
import { PriceChart } from './PriceChart.tsx';
import {
  type CalcCurrency,
  type CalcOffer,
  type CalculatorState,
  type ChartRange,
  type CurrencyEntry,
  OFFERS_SHOWN,
  toCalcOffer,
} from './types.ts';

// The BTC calculator (spec sections 2, 4 and 5): two-way conversion at the live price, the
// currency list, the chart, the first offers and a table of popular currencies. The server
// renders all of it with real numbers; this island then follows the `rates` channel and switches
// currency in place: new rate at once, the URL pushed (back and forward work), chart and offers
// reloaded. A newer switch wins over a slower older answer.

interface Props {
  locale: Locale;
  lang: string;
  messages: IslandMessages;
  siteName: string;
  currencies: CurrencyEntry[];
  popular: string[];
  initial: CalculatorState;
  amounts: Amounts;
  pickerQuery: string;
  /** Unix seconds of the server's price. */
  updatedAt: number;
}

type LoadState = 'ready' | 'loading' | 'error';

async function getData<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return ((await response.json()) as { data: T }).data;
}

/** A comma typed as the decimal mark (`0,5`) is read as the point the field expects. */
function normalizeTyped(text: string): string {
  return text.replace(',', '.').replace(/\s/g, '');
}

export default function Calculator(props: Props) {
  const { locale, lang, siteName, popular } = props;
  const t = useMemo(() => islandTranslator(props.messages), [props.messages]);
  const list = useMemo(
    () => props.currencies.map(([code, name, perUsd]) => ({ code, name, perUsd })),
    [props.currencies],
  );

  const [currency, setCurrency] = useState<CalcCurrency>(props.initial.currency);
  const [btcUsd, setBtcUsd] = useState<number | undefined>(undefined);
  const [updatedAt, setUpdatedAt] = useState(props.updatedAt);
  const [amounts, setAmounts] = useState<Amounts>(props.amounts);
  const [refused, setRefused] = useState<Side | undefined>(undefined);
  const [range, setRange] = useState<ChartRange>(props.initial.range);
  const [chart, setChart] = useState<ChartPoint[]>(props.initial.chart);
  const [chartState, setChartState] = useState<LoadState>('ready');
  const [offers, setOffers] = useState<CalcOffer[]>(props.initial.offers);
  const [offersState, setOffersState] = useState<LoadState>('ready');
  const [query, setQuery] = useState(props.pickerQuery);
  const [pickerOpen, setPickerOpen] = useState(props.pickerQuery !== '');

  const rate = currency.rate;
  const code = currency.code;
  // The latest values for callbacks that outlive a render (socket events, history).
  const current = useRef({ currency, range, btcUsd });
  current.current = { currency, range, btcUsd };
  const requests = useRef({ chart: 0, offers: 0, currency: 0 });

  /** A new rate for the shown currency: the field typed in last stays, the other follows. */
  const applyRate = useCallback((next: CalcCurrency) => {
    setCurrency(next);
    setAmounts((a) => convert(a.from, a[a.from], next.rate));
  }, []);

  const loadChart = useCallback(async (forCode: string, forRange: ChartRange) => {
    const id = ++requests.current.chart;
    setChartState('loading');
    try {
      const points = await getData<ChartPoint[]>(
        `/rest/v1/calculator/chart?range=${forRange}&currency=${encodeURIComponent(forCode)}`,
      );
      if (id !== requests.current.chart) return;
      setChart(points);
      setChartState('ready');
    } catch {
      if (id === requests.current.chart) setChartState('error');
    }
  }, []);

  const loadOffers = useCallback(
    async (forCode: string) => {
      const id = ++requests.current.offers;
      setOffersState('loading');
      try {
        const found = await getData<Parameters<typeof toCalcOffer>[0][]>(
          `/rest/v1/offers?type=buy&currency=${encodeURIComponent(forCode)}&crypto_currency_id=1&locale=${locale}`,
        );
        if (id !== requests.current.offers) return;
        setOffers(found.slice(0, OFFERS_SHOWN).map(toCalcOffer));
        setOffersState('ready');
      } catch {
        if (id === requests.current.offers) setOffersState('error');
      }
    },
    [locale],
  );

  /** Spec section 4: load the currency, update the rate, go to its URL, reload chart and offers. */
  const switchCurrency = useCallback(
    async (nextCode: string, how: 'push' | 'pop') => {
      const entry = list.find((c) => c.code === nextCode);
      if (!entry) return;
      setPickerOpen(false);
      setQuery('');
      if (how === 'push') {
        if (nextCode === current.current.currency.code) return;
        history.pushState({ calculator: nextCode }, '', calculatorUrl(locale, nextCode));
      }
      document.title = `${t('calculator.title', { code: nextCode })} · ${siteName}`;
      // The rate at once, from the live price when we have one, else through US dollars.
      const was = current.current.currency;
      const usd = current.current.btcUsd ?? was.rate / was.perUsd;
      applyRate({ code: entry.code, name: entry.name, perUsd: entry.perUsd, rate: rateFromUsd(usd, entry.perUsd) });

      const id = ++requests.current.currency;
      const forRange = current.current.range;
      void loadOffers(nextCode);
      requests.current.chart += 1;
      const chartId = requests.current.chart;
      setChartState('loading');
      try {
        const view = await getData<{
          currency: { code: string; name: string; rate: { usd: number; btc: number } };
          chart: ChartPoint[];
        }>(`/rest/v1/calculator?currency=${encodeURIComponent(nextCode)}&range=${forRange}&locale=${locale}`);
        if (id === requests.current.currency) {
          const c = view.currency;
          applyRate({ code: c.code, name: c.name, perUsd: c.rate.usd, rate: c.rate.btc });
        }
        if (chartId === requests.current.chart) {
          setChart(view.chart);
          setChartState('ready');
        }
      } catch {
        if (chartId === requests.current.chart) setChartState('error');
      }
    },
    [list, locale, siteName, t, applyRate, loadOffers],
  );

  // Back and forward between calculators.
  useEffect(() => {
    history.replaceState({ ...(history.state ?? {}), calculator: current.current.currency.code }, '');
    const onPop = () => {
      const segment = location.pathname.replace(/\/+$/, '').split('/').pop();
      const popped = pairCode(segment);
      if (popped && popped !== current.current.currency.code) void switchCurrency(popped, 'pop');
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [switchCurrency]);

  // The live price: BTC in US dollars × the currency's units per dollar.
  useChannel('rates', (event: RealtimeEvent) => {
    const payload = event.payload as { at?: number; usd?: { BTC?: number } } | undefined;
    const usd = payload?.usd?.BTC;
    if (event.type !== 'rates' || typeof usd !== 'number' || !(usd > 0)) return;
    setBtcUsd(usd);
    if (payload?.at) setUpdatedAt(Math.floor(payload.at / 1000));
    const shown = current.current.currency;
    const next = rateFromUsd(usd, shown.perUsd);
    applyRate({ ...shown, rate: next });
    setChart((points) => {
      const last = points[points.length - 1];
      return last ? [...points.slice(0, -1), { date: last.date, rate: next }] : points;
    });
  });

  const onAmount = (side: Side, typed: string) => {
    const text = normalizeTyped(typed);
    if (!isAmountText(text)) {
      setRefused(side);
      return;
    }
    setRefused(undefined);
    setAmounts(convert(side, text, rate));
  };

  const onRange = (next: ChartRange) => {
    if (next === range && chartState === 'ready') return;
    setRange(next);
    void loadChart(code, next);
  };

  const popularRows = useMemo(() => popular.flatMap((c) => list.filter((entry) => entry.code === c)), [list, popular]);
  const rateText = formatFiat(rate, code, lang);
  const time = new Intl.DateTimeFormat(lang, { timeStyle: 'medium' }).format(new Date(updatedAt * 1000));

  const field = (side: Side) => {
    const id = `calc-${side}`;
    return (
      <input
        id={id}
        name={side}
        form="calc-convert"
        className="calc-input"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        dir="ltr"
        maxLength={18}
        pattern="[0-9]*[.]?[0-9]*"
        value={amounts[side]}
        aria-describedby={refused === side ? 'calc-refused' : undefined}
        onChange={(event) => onAmount(side, event.target.value)}
        onFocus={(event) => {
          event.target.select();
          // The field in use leads: a live price moves the other one, never the text under the caret.
          setAmounts((a) => (a.from === side ? a : { ...a, from: side }));
        }}
      />
    );
  };

  return (
    <div className="calc" data-calculator={code} data-rate={rate} data-from={amounts.from}>
      <header className="calc-hero">
        <h1 className="h2 calc-title">{t('calculator.title', { code })}</h1>
        <p className="lead calc-lead">{t('calculator.lead', { name: currency.name })}</p>
      </header>

      <div className="calc-top">
        <section className="card calc-card calc-converter" aria-labelledby="calc-converter-title">
          <h2 id="calc-converter-title" className="visually-hidden">
            {t('calculator.converter')}
          </h2>
          <form
            id="calc-convert"
            method="get"
            onSubmit={(event) => event.preventDefault()}
            className="calc-form-anchor"
          >
            <input type="hidden" name="btc0" value={amounts.btc} />
            <input type="hidden" name="fiat0" value={amounts.fiat} />
            {range !== 'month' && <input type="hidden" name="range" value={range} />}
          </form>
          <div className="calc-field">
            <label htmlFor="calc-btc">{t('calculator.amount.btc')}</label>
            <div className="calc-input-row">
              {field('btc')}
              <span className="calc-unit">
                <svg className="calc-coin" viewBox="0 0 24 24" aria-hidden="true">
                  <circle cx="12" cy="12" r="12" />
                  <path d="M9 7h4a2.5 2.5 0 0 1 0 5H9zm0 5h4.8a2.5 2.5 0 0 1 0 5H9zm0-5v10M11 5.5V7m2-1.5V7m-2 10v1.5m2-1.5v1.5" />
                </svg>
                BTC
              </span>
            </div>
          </div>
          <div className="calc-equals" aria-hidden="true">
            =
          </div>
          <div className="calc-field">
            <label htmlFor="calc-fiat">{currency.name}</label>
            <div className="calc-input-row">
              {field('fiat')}
              <CurrencyPicker
                t={t}
                locale={locale}
                code={code}
                currencies={list}
                popular={popular}
                query={query}
                open={pickerOpen}
                range={range}
                onQuery={setQuery}
                onOpen={setPickerOpen}
                onPick={(next) => void switchCurrency(next, 'push')}
              />
            </div>
          </div>
          <p id="calc-refused" className="calc-refused" role="status" aria-live="polite">
            {refused ? t('calculator.refused') : ''}
          </p>
          <button type="submit" form="calc-convert" className="btn btn-primary nojs-only calc-submit">
            {t('calculator.convert')}
          </button>
          <p className="calc-rate">
            <span className="calc-live" aria-hidden="true" />
            <bdi dir="ltr" data-rate-text>
              {t('calculator.rate', { price: rateText })}
            </bdi>
          </p>
        </section>

        <section className="card calc-card calc-price" aria-labelledby="calc-price-title">
          <h2 id="calc-price-title" className="calc-card-title">
            {t('calculator.price.title')}
          </h2>
          <p className="calc-price-value" data-price aria-live="polite" dir="ltr">
            {rateText}
          </p>
          <p className="muted calc-price-caption">{t('calculator.price.caption', { name: currency.name })}</p>
          <p className="muted calc-updated">
            <span className="calc-live" aria-hidden="true" />
            {t('calculator.live')} ·{' '}
            {/* The server's time zone is not the reader's: the browser's text wins without a warning. */}
            <time dateTime={new Date(updatedAt * 1000).toISOString()} suppressHydrationWarning>
              {time}
            </time>
          </p>
          <div className="calc-price-actions">
            <a
              className="btn btn-primary"
              href={buildListingUrl(locale, { type: 'buy', crypto: 'bitcoin', currency: code })}
            >
              {t('nav.buyBitcoin')}
            </a>
            <a
              className="btn btn-secondary"
              href={buildListingUrl(locale, { type: 'sell', crypto: 'bitcoin', currency: code })}
            >
              {t('nav.sellBitcoin')}
            </a>
          </div>
        </section>
      </div>

      <PriceChart
        t={t}
        lang={lang}
        code={code}
        range={range}
        points={chart}
        state={chartState}
        onRange={onRange}
        onRetry={() => void loadChart(code, range)}
      />

      <div className="calc-bottom">
        <OffersList
          t={t}
          lang={lang}
          locale={locale}
          code={code}
          name={currency.name}
          offers={offers}
          state={offersState}
          onRetry={() => void loadOffers(code)}
        />

        <section className="card calc-card calc-table" aria-labelledby="calc-table-title">
          <h2 id="calc-table-title" className="calc-card-title">
            {t('calculator.table.title')}
          </h2>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('calculator.table.currency')}</th>
                <th scope="col">{t('calculator.table.price')}</th>
              </tr>
            </thead>
            <tbody>
              {popularRows.map((entry) => {
                const price = btcUsd ? rateFromUsd(btcUsd, entry.perUsd) : (rate / currency.perUsd) * entry.perUsd;
                return (
                  <tr key={entry.code} aria-current={entry.code === code ? 'true' : undefined}>
                    <th scope="row">
                      <a
                        href={calculatorUrl(locale, entry.code)}
                        onClick={(event) => {
                          if (!isPlainClick(event)) return;
                          event.preventDefault();
                          void switchCurrency(entry.code, 'push');
                          window.scrollTo({ top: 0, behavior: 'smooth' });
                        }}
                      >
                        <strong>{entry.code}</strong>
                        <small>{entry.name}</small>
                      </a>
                    </th>
                    <td dir="ltr">{formatFiat(price, entry.code, lang)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      </div>
    </div>
  );
}
