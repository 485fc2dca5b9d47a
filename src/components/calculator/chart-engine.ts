import { AreaSeries, ColorType, createChart, type UTCTimestamp } from 'lightweight-charts';
import type { ChartPoint } from './convert.ts';

// The price chart drawn by lightweight-charts. Only PriceChart.tsx imports this module, and only
// through `import()` in the browser: the library never runs on the server and arrives as its own
// chunk after the page is usable. Colours come from the site's CSS variables, read again whenever
// the theme toggle flips `data-theme` on <html>.

export interface ChartHandle {
  setData(points: readonly ChartPoint[]): void;
  /** Moves the last point (the live price) without redrawing the rest. */
  updateLast(point: ChartPoint): void;
  destroy(): void;
}

function themeColors() {
  const style = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  const accent = v('--accent', '#0b7a4b');
  return {
    background: v('--surface', '#ffffff'),
    text: v('--muted', '#5a6a82'),
    grid: v('--border', '#e2e7ee'),
    border: v('--border-strong', '#cbd4df'),
    accent,
    crosshair: v('--ink-2', '#33435c'),
    fill: withAlpha(accent, 0.28),
    fade: withAlpha(accent, 0.02),
  };
}

/**
 * `rgba()` of any CSS colour at `alpha`: lightweight-charts parses colours itself and knows neither
 * `color-mix()` nor `color(srgb …)`. A canvas normalizes an opaque colour to `#rrggbb`.
 */
function withAlpha(color: string, alpha: number): string {
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return color;
  ctx.fillStyle = '#000000';
  ctx.fillStyle = color;
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(String(ctx.fillStyle));
  if (!hex) return color;
  const [r, g, b] = hex.slice(1).map((h) => Number.parseInt(h, 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

export function mountChart(
  container: HTMLElement,
  { lang, formatPrice }: { lang: string; formatPrice: (value: number) => string },
): ChartHandle {
  const colors = themeColors();
  const chart = createChart(container, {
    autoSize: true,
    layout: {
      background: { type: ColorType.Solid, color: colors.background },
      textColor: colors.text,
      fontFamily: getComputedStyle(container).fontFamily,
      fontSize: 12,
    },
    localization: { locale: lang, priceFormatter: formatPrice },
    grid: { vertLines: { visible: false }, horzLines: { color: colors.grid } },
    rightPriceScale: { borderVisible: false, scaleMargins: { top: 0.12, bottom: 0.08 } },
    timeScale: { borderColor: colors.border, timeVisible: true, secondsVisible: false },
    crosshair: {
      vertLine: { labelBackgroundColor: colors.crosshair },
      horzLine: { labelBackgroundColor: colors.crosshair },
    },
    handleScroll: false,
    handleScale: false,
  });
  const series = chart.addSeries(AreaSeries, {
    lineColor: colors.accent,
    lineWidth: 2,
    topColor: colors.fill,
    bottomColor: colors.fade,
    priceLineVisible: false,
    lastValueVisible: true,
  });

  const applyTheme = () => {
    const c = themeColors();
    chart.applyOptions({
      layout: { background: { type: ColorType.Solid, color: c.background }, textColor: c.text },
      grid: { horzLines: { color: c.grid } },
      timeScale: { borderColor: c.border },
      crosshair: { vertLine: { labelBackgroundColor: c.crosshair }, horzLine: { labelBackgroundColor: c.crosshair } },
    });
    series.applyOptions({ lineColor: c.accent, topColor: c.fill, bottomColor: c.fade });
  };
  const themeWatch = new MutationObserver(applyTheme);
  themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });

  const toSeries = (p: ChartPoint) => ({ time: p.date as UTCTimestamp, value: p.rate });
  return {
    setData(points) {
      series.setData(points.map(toSeries));
      chart.timeScale().fitContent();
    },
    updateLast(point) {
      try {
        series.update(toSeries(point));
      } catch {
        // A point older than the last one (a late tick after a range switch): the next setData fixes it.
      }
    },
    destroy() {
      themeWatch.disconnect();
      chart.remove();
    },
  };
}
