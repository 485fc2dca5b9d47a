import type { AutoscaleInfo } from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';

// The fee income chart's engine: lightweight-charts, fetched with `import()` (a chunk of its own)
// only once the island runs, so the page's first script stays small and the table is readable
// before it. One line per currency, each on its own price scale (bitcoin on the right, tether on
// the left: their amounts differ by orders of magnitude). Colours follow the theme toggle.

export type FeeCurrency = 'BTC' | 'USDT';
export interface FeeSeries {
  currency: FeeCurrency;
  /** One point per day of the range, zero on a day without income. */
  points: { date: string; value: number }[];
}
export type ChartState = 'waiting' | 'ready' | 'failed';

export const SERIES_COLORS: Record<FeeCurrency, string> = { BTC: '#f7931a', USDT: '#26a17b' };

function themeColors() {
  const style = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return { background: v('--surface', '#ffffff'), text: v('--muted', '#5a6a82'), grid: v('--border', '#e2e7ee') };
}

const FROM_ZERO = { top: 0.1, bottom: 0.05 };

async function mount(box: HTMLElement, series: FeeSeries[]) {
  const { createChart, ColorType, LineSeries } = await import('lightweight-charts');
  const colors = themeColors();
  const chart = createChart(box, {
    autoSize: true,
    layout: {
      background: { type: ColorType.Solid, color: colors.background },
      textColor: colors.text,
      fontFamily: getComputedStyle(box).fontFamily,
      fontSize: 12,
    },
    localization: { locale: 'en-GB' },
    grid: { vertLines: { visible: false }, horzLines: { color: colors.grid } },
    // Income is never below zero: autoscale starts at exactly 0, with a small margin so its label
    // shows whole (autoscale's own range went a hair below 0 and labelled it "−0.00000000").
    leftPriceScale: {
      visible: series.some((s) => s.currency === 'USDT'),
      borderVisible: false,
      scaleMargins: FROM_ZERO,
    },
    rightPriceScale: {
      visible: series.some((s) => s.currency === 'BTC'),
      borderVisible: false,
      scaleMargins: FROM_ZERO,
    },
    timeScale: { borderColor: colors.grid },
    handleScroll: false,
    handleScale: false,
  });
  for (const { currency, points } of series) {
    const line = chart.addSeries(LineSeries, {
      color: SERIES_COLORS[currency],
      lineWidth: 2,
      priceScaleId: currency === 'BTC' ? 'right' : 'left',
      priceFormat: { type: 'price', precision: currency === 'BTC' ? 8 : 2, minMove: currency === 'BTC' ? 1e-8 : 0.01 },
      title: currency,
      priceLineVisible: false,
      autoscaleInfoProvider: (original: () => AutoscaleInfo | null) => {
        const info = original();
        return info && { ...info, priceRange: { minValue: 0, maxValue: Math.max(info.priceRange?.maxValue ?? 0, 0) } };
      },
    });
    line.setData(points.map((p) => ({ time: p.date, value: p.value })));
  }
  chart.timeScale().fitContent();
  const applyTheme = () => {
    const c = themeColors();
    chart.applyOptions({
      layout: { background: { type: ColorType.Solid, color: c.background }, textColor: c.text },
      grid: { horzLines: { color: c.grid } },
      timeScale: { borderColor: c.grid },
    });
  };
  const themeWatch = new MutationObserver(applyTheme);
  themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => {
    themeWatch.disconnect();
    chart.remove();
  };
}

export function useFeeChart(series: FeeSeries[]) {
  const box = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<ChartState>('waiting');
  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | undefined;
    if (box.current) {
      mount(box.current, series).then(
        (remove) => {
          if (cancelled) remove();
          else {
            destroy = remove;
            setState('ready');
          }
        },
        () => {
          if (!cancelled) setState('failed');
        },
      );
    }
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [series]);
  return { box, state };
}
