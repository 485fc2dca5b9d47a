import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { buildListingUrl } from '../../lib/offer-listing-url.ts';
import { formatFiat } from '../../lib/shared/format.ts';
import { type IslandMessages, islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import { type CalculatorStore, createCalculator } from '../../stores/calculator.ts';
import { CurrencyPicker, isPlainClick } from './CurrencyPicker.tsx';
import { type Amounts, calculatorUrl, rateFromUsd, type Side } from './convert.ts';
import { OffersList } from './OffersList.tsx';
import { PriceChart } from './PriceChart.tsx';
import type { CalculatorState, CurrencyEntry } from './types.ts';

// The BTC calculator (spec sections 2, 4 and 5): two-way conversion at the live price, the
// currency list, the chart, the first offers and a table of popular currencies. The server
// renders all of it with real numbers; in the browser the island's store (src/stores/
// calculator.ts) follows the live price and switches currency in place. This component renders
// the store's view and hands events to its actions.

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

/** An amount field; `form` ties it to the no-JavaScript form above. */
function AmountField({
  side,
  value,
  refused,
  calc,
}: {
  side: Side;
  value: string;
  refused: boolean;
  calc: CalculatorStore;
}) {
  return (
    <input
      id={`calc-${side}`}
      name={side}
      form="calc-convert"
      className="calc-input"
      type="text"
      inputMode="decimal"
      autoComplete="off"
      dir="ltr"
      maxLength={18}
      pattern="[0-9]*[.]?[0-9]*"
      value={value}
      aria-describedby={refused ? 'calc-refused' : undefined}
      onChange={(event) => calc.type(side, event.target.value)}
      onFocus={(event) => {
        event.target.select();
        calc.focus(side);
      }}
    />
  );
}

/** Hydration reads the store's first value, the server's, whatever its mount changed since. */
const HYDRATE = { ssr: 'initial' } as const;

export default function Calculator(props: Props) {
  const { locale, lang, siteName, popular } = props;
  const [{ t, calc, popularRows }] = useState(() => {
    const t = islandTranslator(props.messages);
    const calc = createCalculator({ ...props, title: (code) => `${t('calculator.title', { code })} · ${siteName}` });
    const popularRows = popular.flatMap((c) => calc.list.filter((entry) => entry.code === c));
    return { t, calc, popularRows };
  });
  const {
    currency,
    btcUsd,
    updatedAt,
    amounts,
    range,
    chart,
    chartState,
    offers,
    offersState,
    query,
    pickerOpen,
    refused,
  } = useStore(calc.$view, HYDRATE);
  const { code, rate } = currency;
  const rateText = formatFiat(rate, code, lang);
  const time = new Intl.DateTimeFormat(lang, { timeStyle: 'medium' }).format(new Date(updatedAt * 1000));

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
              <AmountField side="btc" value={amounts.btc} refused={refused === 'btc'} calc={calc} />
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
              <AmountField side="fiat" value={amounts.fiat} refused={refused === 'fiat'} calc={calc} />
              <CurrencyPicker
                t={t}
                locale={locale}
                code={code}
                currencies={calc.list}
                popular={popular}
                query={query}
                open={pickerOpen}
                range={range}
                onQuery={calc.setQuery}
                onOpen={calc.setPickerOpen}
                onPick={calc.pick}
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
        onRange={calc.chooseRange}
        onRetry={calc.retryChart}
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
          onRetry={calc.retryOffers}
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
                          calc.pick(entry.code);
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
