import { useEffect, useRef, useState } from 'react';
import { formatFiat } from '../../lib/shared/format.ts';
import type { ChartHandle } from './chart-engine.ts';
import type { ChartPoint } from './convert.ts';

// The browser's chart: lightweight-charts, loaded with `import()` (a chunk of its own) once the
// chart's box comes near the screen; it follows the points it is given.

export type EngineState = 'waiting' | 'ready' | 'failed';

/** Calls `load` once the element is within 200px of the screen (at once without an observer). */
function whenNearScreen(element: HTMLElement | null, load: () => void): IntersectionObserver | undefined {
  if (typeof IntersectionObserver === 'undefined' || !element) {
    load();
    return undefined;
  }
  const watch = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      watch.disconnect();
      load();
    },
    { rootMargin: '200px' },
  );
  watch.observe(element);
  return watch;
}

export function useChartEngine(lang: string, code: string, points: ChartPoint[]) {
  const box = useRef<HTMLDivElement>(null);
  const handle = useRef<ChartHandle | undefined>(undefined);
  const [engine, setEngine] = useState<EngineState>('waiting');
  // The formatter the chart calls reads the code of the moment.
  const codeRef = useRef(code);
  codeRef.current = code;
  const latest = useRef(points);
  latest.current = points;

  useEffect(() => {
    let cancelled = false;
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
    const watch = whenNearScreen(box.current, () => void load());
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

  return { box, engine };
}
