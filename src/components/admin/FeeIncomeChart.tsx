import { ADMIN_TEXT } from './admin-text.ts';
import { type FeeSeries, SERIES_COLORS, useFeeChart } from './use-fee-chart.ts';

// The fee income chart (issue 25): a line per currency over the range's days. The figures are the
// table's (FeeIncomeTable.tsx), which stays the exact record; the chart shows the shape.
// `data-chart` says whether the library drew it (the browser tests read it).

const TEXT = ADMIN_TEXT.fees;

export default function FeeIncomeChart({ series }: { series: FeeSeries[] }) {
  const { box, state } = useFeeChart(series);
  return (
    <figure className="card admin-money-chart" data-chart={state}>
      <figcaption className="admin-money-legend">
        <span>{TEXT.chart}</span>
        {series.map(({ currency }) => (
          <span key={currency} className="admin-money-key" data-series={currency}>
            <span aria-hidden="true" style={{ background: SERIES_COLORS[currency] }} />
            {currency}
          </span>
        ))}
      </figcaption>
      <div ref={box} className="admin-money-canvas" />
      {state !== 'ready' && (
        <p className="muted admin-money-chart-note">{state === 'failed' ? TEXT.chartFailed : TEXT.chartLoading}</p>
      )}
    </figure>
  );
}
