import { buildListingUrl } from '../../lib/offer-listing-url.ts';
import { formatFiat } from '../../lib/shared/format.ts';
import type { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import type { CalculatorStore, CalculatorView } from '../../stores/calculator.ts';
import { CurrencyPicker, isPlainClick } from './CurrencyPicker.tsx';
import { calculatorUrl, rateFromUsd, type Side } from './convert.ts';

// The calculator's cards: the converter, the price, and the table of popular currencies.

type T = ReturnType<typeof islandTranslator>;

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

/** The form the fields post without JavaScript. */
function ConvertForm({ view }: { view: CalculatorView }) {
  return (
    <form id="calc-convert" method="get" onSubmit={(event) => event.preventDefault()} className="calc-form-anchor">
      <input type="hidden" name="btc0" value={view.amounts.btc} />
      <input type="hidden" name="fiat0" value={view.amounts.fiat} />
      {view.range !== 'month' && <input type="hidden" name="range" value={view.range} />}
    </form>
  );
}

function BtcField({ t, view, calc }: { t: T; view: CalculatorView; calc: CalculatorStore }) {
  return (
    <div className="calc-field">
      <label htmlFor="calc-btc">{t('calculator.amount.btc')}</label>
      <div className="calc-input-row">
        <AmountField side="btc" value={view.amounts.btc} refused={view.refused === 'btc'} calc={calc} />
        <span className="calc-unit">
          <svg className="calc-coin" viewBox="0 0 24 24" aria-hidden="true">
            <circle cx="12" cy="12" r="12" />
            <path d="M9 7h4a2.5 2.5 0 0 1 0 5H9zm0 5h4.8a2.5 2.5 0 0 1 0 5H9zm0-5v10M11 5.5V7m2-1.5V7m-2 10v1.5m2-1.5v1.5" />
          </svg>
          BTC
        </span>
      </div>
    </div>
  );
}

interface CardProps {
  t: T;
  locale: Locale;
  view: CalculatorView;
  calc: CalculatorStore;
}

function FiatField({ t, locale, view, calc, popular }: CardProps & { popular: string[] }) {
  return (
    <div className="calc-field">
      <label htmlFor="calc-fiat">{view.currency.name}</label>
      <div className="calc-input-row">
        <AmountField side="fiat" value={view.amounts.fiat} refused={view.refused === 'fiat'} calc={calc} />
        <CurrencyPicker
          t={t}
          locale={locale}
          code={view.currency.code}
          currencies={calc.list}
          popular={popular}
          query={view.query}
          open={view.pickerOpen}
          range={view.range}
          onQuery={calc.setQuery}
          onOpen={calc.setPickerOpen}
          onPick={calc.pick}
        />
      </div>
    </div>
  );
}

export function ConverterCard(props: CardProps & { popular: string[]; rateText: string }) {
  const { t, view } = props;
  return (
    <section className="card calc-card calc-converter" aria-labelledby="calc-converter-title">
      <h2 id="calc-converter-title" className="visually-hidden">
        {t('calculator.converter')}
      </h2>
      <ConvertForm view={view} />
      <BtcField t={t} view={view} calc={props.calc} />
      <div className="calc-equals" aria-hidden="true">
        =
      </div>
      <FiatField {...props} />
      <p id="calc-refused" className="calc-refused" role="status" aria-live="polite">
        {view.refused ? t('calculator.refused') : ''}
      </p>
      <button type="submit" form="calc-convert" className="btn btn-primary nojs-only calc-submit">
        {t('calculator.convert')}
      </button>
      <p className="calc-rate">
        <span className="calc-live" aria-hidden="true" />
        <bdi dir="ltr" data-rate-text>
          {t('calculator.rate', { price: props.rateText })}
        </bdi>
      </p>
    </section>
  );
}

export function PriceCard({
  t,
  lang,
  locale,
  view,
  rateText,
}: {
  t: T;
  lang: string;
  locale: Locale;
  view: CalculatorView;
  rateText: string;
}) {
  const { currency, updatedAt } = view;
  const code = currency.code;
  const time = new Intl.DateTimeFormat(lang, { timeStyle: 'medium' }).format(new Date(updatedAt * 1000));
  return (
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
  );
}

type Entry = CalculatorStore['list'][number];

/** One popular currency's price: from the live price when there is one, else through US dollars. */
function PopularRow({ locale, lang, view, calc, entry }: Omit<CardProps, 't'> & { lang: string; entry: Entry }) {
  const { btcUsd, currency } = view;
  const price = btcUsd ? rateFromUsd(btcUsd, entry.perUsd) : (currency.rate / currency.perUsd) * entry.perUsd;
  return (
    <tr aria-current={entry.code === currency.code ? 'true' : undefined}>
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
}

export function PopularTable(props: CardProps & { lang: string; rows: Entry[] }) {
  const { t } = props;
  return (
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
          {props.rows.map((entry) => (
            <PopularRow key={entry.code} {...props} entry={entry} />
          ))}
        </tbody>
      </table>
    </section>
  );
}
