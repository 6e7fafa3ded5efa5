import { categoryTickIndexes, FRACTION_TICKS, labelWidth, maxValue, valueTicks } from '../lib/axis';
import { CHART_STYLE, type ChartStyle, type Margin, type MarkKind } from './chart-style';

/**
 * The geometry of a time-series chart at a given size: plot box, ticks and
 * scales, from the chart style's margins and axis sizes. The first-paint SVG
 * draws from it and the interactive chart is given the same ticks, margins
 * and domain, so swapping one for the other moves nothing.
 */

export interface FrameInput {
  data: readonly Record<string, unknown>[];
  keys: readonly string[];
  xKey: string;
  xFormat: (x: string) => string;
  band: boolean;
  stacked: boolean;
  /** Values are fractions: the axis runs from 0 to 100 %. */
  fractions: boolean;
  width: number;
  height: number;
}

export interface Frame {
  margin: Margin;
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
  yTicks: number[];
  xTicks: string[];
  /** Width of one category when drawn as bars (0 for points). */
  bandWidth: number;
  /** Centre of the i-th category. */
  x: (i: number) => number;
  y: (v: number) => number;
}

export function timeSeriesFrame(f: FrameInput, style: ChartStyle = CHART_STYLE): Frame {
  const labels = f.data.map((p) => f.xFormat(String(p[f.xKey])));
  // The last label is centred on the last point (or bar): leave room for its right half.
  const margin = { ...style.margin, right: Math.max(style.margin.right, labelWidth(labels.at(-1) ?? '') / 2) };
  const left = margin.left + style.yAxisWidth;
  const right = Math.max(left + 1, f.width - margin.right);
  const top = margin.top;
  const bottom = Math.max(top + 1, f.height - margin.bottom - style.xAxisHeight);
  const yTicks = f.fractions ? FRACTION_TICKS : valueTicks(maxValue(f.data, f.keys, f.stacked));
  const yMax = yTicks.at(-1)!;
  const n = f.data.length;
  const plot = right - left;
  const bandWidth = f.band ? plot / Math.max(1, n) : 0;
  const x = f.band
    ? (i: number) => left + bandWidth * (i + 0.5)
    : n > 1
      ? (i: number) => left + (plot * i) / (n - 1)
      : () => left + plot / 2;
  const y = (v: number) => bottom - ((bottom - top) * Math.min(Math.max(v, 0), yMax)) / yMax;
  const xTicks = categoryTickIndexes(labels, plot, f.band).map((i) => String(f.data[i]![f.xKey]));
  return { margin, width: f.width, height: f.height, left, right, top, bottom, yTicks, xTicks, bandWidth, x, y };
}

export interface SeriesStyle {
  key: string;
  label: string;
  color: string;
  /** A line's dash pattern (SVG `stroke-dasharray`). */
  dash?: string;
}

/** A labelled vertical line at one x value of the data (a repository's level change, on its week). */
export interface ChartMarker {
  x: string;
  label: string;
}

/**
 * The span of the plot a shaded point covers (a partial week): its bar's band, or for points half the way
 * to each neighbour, within the plot. One box per x value found in the data, left to right.
 */
export function shadeBoxes(
  frame: Frame,
  data: readonly Record<string, unknown>[],
  xKey: string,
  xs: readonly string[],
): { x: string; left: number; width: number }[] {
  const want = new Set(xs);
  const n = data.length;
  const half = frame.bandWidth > 0 ? frame.bandWidth / 2 : n > 1 ? (frame.right - frame.left) / (n - 1) / 2 : 0;
  const out: { x: string; left: number; width: number }[] = [];
  data.forEach((p, i) => {
    const x = String(p[xKey]);
    if (!want.has(x)) return;
    const lo = n > 1 || frame.bandWidth > 0 ? Math.max(frame.left, frame.x(i) - half) : frame.left;
    const hi = n > 1 || frame.bandWidth > 0 ? Math.min(frame.right, frame.x(i) + half) : frame.right;
    out.push({ x, left: lo, width: Math.max(0, hi - lo) });
  });
  return out;
}

/** The line each marker's label sits on: the next one down for each earlier marker at the same x, so none overlap. */
export function markerRows(markers: readonly ChartMarker[]): number[] {
  const seen = new Map<string, number>();
  return markers.map((m) => {
    const row = seen.get(m.x) ?? 0;
    seen.set(m.x, row + 1);
    return row;
  });
}

/** What either renderer needs: resolved options, the chart style and the frame built with it. */
export interface RenderProps {
  data: readonly Record<string, unknown>[];
  series: readonly SeriesStyle[];
  kind: MarkKind;
  stacked: boolean;
  fractions: boolean;
  xKey: string;
  xFormat: (x: string) => string;
  xTooltipFormat: (x: string) => string;
  yFormat: (v: number) => string;
  /** Tooltip values. */
  valueFormat: (v: number) => string;
  chartStyle: ChartStyle;
  frame: Frame;
  markers?: readonly ChartMarker[];
}

/**
 * Bars of one category: left edge offset from the band centre and width of the i-th of m series,
 * as recharts places them: a category gap on each side, the bar gap between side-by-side bars
 * (none when they leave no room), widths rounded to whole pixels once wider than one.
 */
export function barSlot(
  frame: Frame,
  stacked: boolean,
  i: number,
  m: number,
  bar: ChartStyle['bar'] = CHART_STYLE.bar,
): { offset: number; width: number } {
  const band = frame.bandWidth;
  const [n, j] = stacked ? [1, 0] : [Math.max(1, m), i];
  const side = band * bar.categoryGap;
  const gap = band - 2 * side - (n - 1) * bar.gap <= 0 ? 0 : bar.gap;
  const raw = (band - 2 * side - (n - 1) * gap) / n;
  const width = raw > 1 ? Math.round(raw) : raw;
  return { offset: -band / 2 + side + j * (width + gap), width };
}
