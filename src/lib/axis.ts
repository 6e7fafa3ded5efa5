import { nice, ticks } from 'd3-array';

/**
 * Axis layout shared by the first-paint SVG chart and the interactive one, so
 * both draw the same ticks at the same places and the swap does not move.
 */

/** Values on a 0-based axis: five or so round steps covering `max`. */
export function valueTicks(max: number, count = 5): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const [, top] = nice(0, max, count);
  return ticks(0, top, count);
}

/** Shares from 0 to 100 %. */
export const FRACTION_TICKS = [0, 0.25, 0.5, 0.75, 1];

/** The largest value drawn: per point the sum of the series when stacked, else each series. */
export function maxValue(
  points: readonly Record<string, unknown>[],
  keys: readonly string[],
  stacked: boolean,
): number {
  let max = 0;
  for (const p of points) {
    let sum = 0;
    for (const k of keys) {
      const v = Number(p[k]);
      if (!Number.isFinite(v)) continue;
      if (stacked) sum += Math.max(0, v);
      else max = Math.max(max, v);
    }
    if (stacked) max = Math.max(max, sum);
  }
  return max;
}

/** Roughly how wide a 12 px label is. */
export const labelWidth = (text: string) => text.length * 7;

/**
 * Which of `n` category labels fit in `width` pixels without overlapping (with
 * `gap` between them): every k-th, always keeping the last. Points sit on the
 * edges and between (lines, areas) or in the middle of equal bands (bars).
 * Returns the indexes, ascending.
 */
export function categoryTickIndexes(labels: readonly string[], width: number, band = false, gap = 24): number[] {
  const n = labels.length;
  if (n === 0) return [];
  const widest = Math.max(...labels.map(labelWidth));
  const spacing = band ? width / n : width / Math.max(1, n - 1);
  const step = Math.max(1, Math.ceil((widest + gap) / Math.max(1, spacing)));
  const out: number[] = [];
  for (let i = n - 1; i >= 0; i -= step) out.push(i);
  return out.reverse();
}
