import { categoryTickIndexes, FRACTION_TICKS, labelWidth, maxValue, valueTicks } from '../lib/axis';

/**
 * The geometry of a time-series chart at a given size: plot box, ticks and
 * scales. The first-paint SVG draws from it and the interactive chart is
 * given the same ticks, margins and domain, so swapping one for the other
 * moves nothing.
 */
export const MARGIN = { top: 8, right: 8, bottom: 0, left: 0 };
export const Y_AXIS_WIDTH = 56;
export const X_AXIS_HEIGHT = 30;
/** Recharts' default gap around the bars of one category (10 % of the band on each side). */
export const BAR_CATEGORY_GAP = 0.1;
export const BAR_GAP = 4;
/** Axis labels, in the theme's colours. */
export const TICK = { fontSize: 12, fill: 'var(--color-slate-600)' };
/** Stacked areas are solid enough to read as parts; overlapping ones stay see-through. */
export const areaOpacity = (stacked: boolean) => (stacked ? 0.75 : 0.15);

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
  margin: typeof MARGIN;
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

export function timeSeriesFrame(f: FrameInput): Frame {
  const labels = f.data.map((p) => f.xFormat(String(p[f.xKey])));
  // The last label is centred on the last point (or bar): leave room for its right half.
  const margin = { ...MARGIN, right: Math.max(MARGIN.right, labelWidth(labels.at(-1) ?? '') / 2) };
  const left = margin.left + Y_AXIS_WIDTH;
  const right = Math.max(left + 1, f.width - margin.right);
  const top = margin.top;
  const bottom = Math.max(top + 1, f.height - margin.bottom - X_AXIS_HEIGHT);
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
}

/** What either renderer needs: resolved options and the frame. */
export interface RenderProps {
  data: readonly Record<string, unknown>[];
  series: readonly SeriesStyle[];
  kind: 'area' | 'line' | 'bar';
  stacked: boolean;
  fractions: boolean;
  xKey: string;
  xFormat: (x: string) => string;
  xTooltipFormat: (x: string) => string;
  yFormat: (v: number) => string;
  /** Tooltip values. */
  valueFormat: (v: number) => string;
  frame: Frame;
}

/** Bars of one category: left edge offset from the band centre and width of the i-th of m series. */
export function barSlot(frame: Frame, stacked: boolean, i: number, m: number): { offset: number; width: number } {
  const inner = frame.bandWidth * (1 - 2 * BAR_CATEGORY_GAP);
  if (stacked || m <= 1) return { offset: -inner / 2, width: inner };
  const width = Math.max(1, (inner - (m - 1) * BAR_GAP) / m);
  return { offset: -inner / 2 + i * (width + BAR_GAP), width };
}

/** Tooltip colours from the theme, so it reads in light and dark alike. */
export const TOOLTIP_STYLE = {
  background: 'var(--color-white)',
  borderColor: 'var(--color-slate-200)',
  color: 'var(--color-slate-900)',
};
