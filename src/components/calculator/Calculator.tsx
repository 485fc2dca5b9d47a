import { formatFiat } from '../../lib/shared/format.ts';
import { ConverterCard, PopularTable, PriceCard } from './calculator-cards.tsx';
import { OffersList } from './OffersList.tsx';
import { PriceChart } from './PriceChart.tsx';
import { type CalculatorProps, useCalculator } from './use-calculator.ts';

// The BTC calculator (spec sections 2, 4 and 5): two-way conversion at the live price, the
// currency list, the chart, the first offers and a table of popular currencies. The server
// renders all of it with real numbers; in the browser the island's store (src/stores/
// calculator.ts) follows the live price and switches currency in place. This component renders
// the store's view and hands events to its actions.

export default function Calculator(props: CalculatorProps) {
  const { locale, lang, popular } = props;
  const { t, calc, popularRows, view } = useCalculator(props);
  const { currency, amounts, range } = view;
  const { code, rate } = currency;
  const rateText = formatFiat(rate, code, lang);
  const cards = { t, locale, view, calc };

  return (
    <div className="calc" data-calculator={code} data-rate={rate} data-from={amounts.from}>
      <header className="calc-hero">
        <h1 className="h2 calc-title">{t('calculator.title', { code })}</h1>
        <p className="lead calc-lead">{t('calculator.lead', { name: currency.name })}</p>
      </header>

      <div className="calc-top">
        <ConverterCard {...cards} popular={popular} rateText={rateText} />
        <PriceCard t={t} lang={lang} locale={locale} view={view} rateText={rateText} />
      </div>

      <PriceChart
        t={t}
        lang={lang}
        code={code}
        range={range}
        points={view.chart}
        state={view.chartState}
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
          offers={view.offers}
          state={view.offersState}
          onRetry={calc.retryOffers}
        />
        <PopularTable {...cards} lang={lang} rows={popularRows} />
      </div>
    </div>
  );
}
