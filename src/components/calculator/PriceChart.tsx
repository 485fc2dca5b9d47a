import { formatFiat, formatPercent } from '../../lib/shared/format.ts';
import type { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { RetryNote } from '../RetryNote.tsx';
import { type ChartPoint, chartStats, sparklinePath } from './convert.ts';
import { CHART_RANGES, type ChartRange } from './types.ts';
import { useChartEngine } from './use-chart-engine.ts';

// The chart card: range links, high/low/change and the chart. The server draws the line as SVG
// (the page is useful before JavaScript and without it); in the browser lightweight-charts
// replaces it, loaded with `import()` so it is a chunk of its own. `data-range` and `data-points`
// say what the chart shows (the browser tests read them).

interface Props {
  t: ReturnType<typeof islandTranslator>;
  lang: string;
  code: string;
  range: ChartRange;
  points: ChartPoint[];
  state: 'ready' | 'loading' | 'error';
  onRange: (range: ChartRange) => void;
  onRetry: () => void;
}

const SVG_W = 600;
const SVG_H = 220;

function RangeNav({ t, range, onRange }: Pick<Props, 't' | 'range' | 'onRange'>) {
  return (
    <nav className="calc-ranges" aria-label={t('calculator.chart.ranges')}>
      {CHART_RANGES.map((r) => (
        <a
          key={r}
          href={`?range=${r}`}
          className="calc-range"
          data-range={r}
          aria-current={r === range ? 'true' : undefined}
          onClick={(event) => {
            if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
            event.preventDefault();
            onRange(r);
          }}
        >
          {t(`calculator.chart.range.${r}`)}
        </a>
      ))}
    </nav>
  );
}

function ChartStats({ t, lang, code, points }: Pick<Props, 't' | 'lang' | 'code' | 'points'>) {
  const stats = chartStats(points);
  const change = stats?.change ?? 0;
  return (
    <dl className="calc-stats">
      <div>
        <dt>{t('calculator.chart.high')}</dt>
        <dd>{stats ? formatFiat(stats.high, code, lang) : '–'}</dd>
      </div>
      <div>
        <dt>{t('calculator.chart.low')}</dt>
        <dd>{stats ? formatFiat(stats.low, code, lang) : '–'}</dd>
      </div>
      <div>
        <dt>{t('calculator.chart.change')}</dt>
        <dd className={change < 0 ? 'down' : 'up'} dir="ltr">
          {stats ? `${change >= 0 ? '+' : '−'}${formatPercent(Math.abs(change) * 100, lang)}` : '–'}
        </dd>
      </div>
    </dl>
  );
}

/** The server-drawn line, shown until the chart library stands in. */
function Sparkline({ label, path }: { label: string; path: string }) {
  return (
    <svg
      className="calc-sparkline"
      viewBox={`0 0 ${SVG_W} ${SVG_H}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
    >
      <path className="area" d={`${path}L${SVG_W},${SVG_H}L0,${SVG_H}Z`} />
      <path className="line" d={path} vectorEffect="non-scaling-stroke" />
    </svg>
  );
}

function ChartNote({ t, state, onRetry }: Pick<Props, 't' | 'state' | 'onRetry'>) {
  if (state === 'loading')
    return (
      <p className="calc-chart-note" role="status">
        {t('calculator.chart.loading')}
      </p>
    );
  if (state === 'error')
    return (
      <RetryNote
        className="calc-chart-note calc-error"
        role="status"
        message={t('calculator.chart.error')}
        retry={t('calculator.retry')}
        onRetry={onRetry}
      />
    );
  return null;
}

export function PriceChart({ t, lang, code, range, points, state, onRange, onRetry }: Props) {
  const { box, engine } = useChartEngine(lang, code, points);
  const path = sparklinePath(points, SVG_W, SVG_H);

  return (
    <section className="card calc-card calc-chart" aria-labelledby="calc-chart-title">
      <div className="calc-card-head">
        <h2 id="calc-chart-title" className="calc-card-title">
          {t('calculator.chart.title', { code })}
        </h2>
        <RangeNav t={t} range={range} onRange={onRange} />
      </div>
      <ChartStats t={t} lang={lang} code={code} points={points} />
      <div
        className="calc-chart-box"
        dir="ltr"
        data-chart
        data-state={state}
        data-engine={engine}
        data-range={range}
        data-points={points.length}
        aria-busy={state === 'loading'}
      >
        <div ref={box} className="calc-chart-canvas" role="img" aria-label={t('calculator.chart.aria', { code })} />
        {engine !== 'ready' && path && <Sparkline label={t('calculator.chart.aria', { code })} path={path} />}
        <ChartNote t={t} state={state} onRetry={onRetry} />
      </div>
    </section>
  );
}
