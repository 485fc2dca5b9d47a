import { useEffect, useRef, useState } from 'react';
import { formatFiat, formatPercent } from '../../lib/shared/format.ts';
import type { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import type { ChartHandle } from './chart-engine.ts';
import { type ChartPoint, chartStats, sparklinePath } from './convert.ts';
import { CHART_RANGES, type ChartRange } from './types.ts';

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

export function PriceChart({ t, lang, code, range, points, state, onRange, onRetry }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const handle = useRef<ChartHandle | undefined>(undefined);
  const [engine, setEngine] = useState<'waiting' | 'ready' | 'failed'>('waiting');
  // The formatter the chart calls reads the code of the moment.
  const codeRef = useRef(code);
  codeRef.current = code;
  const latest = useRef(points);
  latest.current = points;

  useEffect(() => {
    let cancelled = false;
    let watch: IntersectionObserver | undefined;
    const load = () =>
      import('./chart-engine.ts')
        .then(({ mountChart }) => {
          if (cancelled || !box.current) return;
          handle.current = mountChart(box.current, {
            lang,
            formatPrice: (value) => formatFiat(value, codeRef.current, lang, value >= 1000 ? 0 : 2),
          });
          handle.current.setData(latest.current);
          setEngine('ready');
        })
        .catch(() => {
          if (!cancelled) setEngine('failed');
        });
    // The library (~50 KB gzip) comes when the chart is near the screen: a phone that never
    // scrolls down to it never downloads it; the server-drawn line stands in until then.
    if (typeof IntersectionObserver === 'undefined' || !box.current) void load();
    else {
      watch = new IntersectionObserver(
        (entries) => {
          if (!entries.some((e) => e.isIntersecting)) return;
          watch?.disconnect();
          void load();
        },
        { rootMargin: '200px' },
      );
      watch.observe(box.current);
    }
    return () => {
      cancelled = true;
      watch?.disconnect();
      handle.current?.destroy();
      handle.current = undefined;
    };
  }, [lang]);

  useEffect(() => {
    handle.current?.setData(points);
  }, [points]);

  const stats = chartStats(points);
  const change = stats?.change ?? 0;
  const path = sparklinePath(points, SVG_W, SVG_H);

  return (
    <section className="card calc-card calc-chart" aria-labelledby="calc-chart-title">
      <div className="calc-card-head">
        <h2 id="calc-chart-title" className="calc-card-title">
          {t('calculator.chart.title', { code })}
        </h2>
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
      </div>
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
        {engine !== 'ready' && path && (
          <svg
            className="calc-sparkline"
            viewBox={`0 0 ${SVG_W} ${SVG_H}`}
            preserveAspectRatio="none"
            role="img"
            aria-label={t('calculator.chart.aria', { code })}
          >
            <path className="area" d={`${path}L${SVG_W},${SVG_H}L0,${SVG_H}Z`} />
            <path className="line" d={path} vectorEffect="non-scaling-stroke" />
          </svg>
        )}
        {state === 'loading' && (
          <p className="calc-chart-note" role="status">
            {t('calculator.chart.loading')}
          </p>
        )}
        {state === 'error' && (
          <p className="calc-chart-note calc-error" role="status">
            {t('calculator.chart.error')}{' '}
            <button type="button" className="text-link" onClick={onRetry}>
              {t('calculator.retry')}
            </button>
          </p>
        )}
      </div>
    </section>
  );
}
