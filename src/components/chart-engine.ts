import { useEffect } from 'react';
import { externalValue } from '../data/external-value';

/**
 * The interactive charts (recharts, ~115 KB gzip) are not on the landing
 * path: charts first paint as plain SVG from the same geometry, then this
 * module loads the interactive renderer and every chart switches to it.
 */
type Engine = typeof import('./RechartsTimeSeries');

const engine = externalValue<Engine | null>(null);
let loading: Promise<void> | null = null;

export function loadChartEngine(): Promise<void> {
  loading ??= import('./RechartsTimeSeries').then(
    (m) => engine.set(m),
    () => {
      // The chunk could not be fetched (offline, a new deployment): the charts stay drawn as they are,
      // and the next chart to mount tries again.
      loading = null;
    },
  );
  return loading;
}

/** The interactive renderer once loaded, else null; a mounted chart asks for it once its first paint is on screen. */
export function useChartEngine(): Engine | null {
  const e = engine.useValue();
  useEffect(() => {
    if (engine.get()) return;
    // The next frame is the one with the chart in it; the task after it runs once that frame is painted.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => void loadChartEngine())));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return e;
}
