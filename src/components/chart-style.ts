import { curveLinear, curveMonotoneX, curveStep, type CurveFactory } from 'd3-shape';

/**
 * Every visual decision of the charts, in one place: the first-paint SVG
 * (StaticTimeSeries) and the interactive charts (RechartsTimeSeries,
 * CategoryBarChart) both draw from it, so a change here changes them alike.
 * Colours are theme variables (src/index.css), so both themes follow.
 */

/** Curves by recharts' names, with the d3 curve recharts draws each with. */
export const CURVES = {
  linear: curveLinear,
  monotone: curveMonotoneX,
  step: curveStep,
} as const satisfies Record<string, CurveFactory>;
export type CurveName = keyof typeof CURVES;

export interface Margin {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface ChartStyle {
  /** Around the plot and its axes; a time series widens `right` to fit its last label. */
  margin: Margin;
  yAxisWidth: number;
  xAxisHeight: number;
  /** Axis lines and tick marks; tick labels sit `tickSize + tickMargin` from the axis. */
  axis: { stroke: string; tickSize: number; tickMargin: number };
  /** Tick labels. */
  tick: { fontSize: number; fill: string };
  /** Grid lines at the value ticks (and at the category ticks when `categoryLines`). */
  grid: { stroke: string; strokeDasharray: string; categoryLines: boolean };
  /** Series colours by index; the last is the grey of "Other". */
  series: readonly string[];
  /**
   * Lines and areas join the points straight: a day's count is a value of its own, and a smoothed curve
   * would bulge below zero days and swoop between them.
   */
  line: { strokeWidth: number; curve: CurveName; dots: boolean };
  area: {
    strokeWidth: number;
    curve: CurveName;
    dots: boolean;
    /** Stacked areas are solid enough to read as parts; overlapping ones stay see-through. */
    fillOpacity: { stacked: number; overlapping: number };
  };
  /** Point markers (drawn when the kind's `dots` is on, and always for a single point). */
  dot: { r: number; fill: string };
  /** Gap around the bars of one category (a fraction of the band, each side) and between side-by-side bars (px). */
  bar: { categoryGap: number; gap: number; radius: number };
  tooltip: { background: string; borderColor: string; color: string };
  /** Bar charts of categories (readiness). */
  category: {
    margin: Margin;
    /** Width of the value axis when the bars grow up. */
    valueAxisWidth: number;
    /** Height of the category axis when its labels are hidden. */
    hiddenLabelsHeight: number;
    /** Height of a horizontal chart: per bar, plus the axis, at least `minHeight`; else `height`. */
    rowHeight: number;
    rowsExtra: number;
    minHeight: number;
    height: number;
  };
}

export const CHART_STYLE: ChartStyle = {
  margin: { top: 8, right: 8, bottom: 0, left: 0 },
  yAxisWidth: 56,
  xAxisHeight: 30,
  // Recharts' defaults for stroke, tickSize and tickMargin: given explicitly, so the first paint draws the same.
  axis: { stroke: 'var(--chart-axis)', tickSize: 6, tickMargin: 2 },
  tick: { fontSize: 12, fill: 'var(--fg-muted)' },
  grid: { stroke: 'var(--chart-grid)', strokeDasharray: '3 3', categoryLines: false },
  series: Array.from({ length: 8 }, (_, i) => `var(--chart-${i + 1})`),
  line: { strokeWidth: 2, curve: 'linear', dots: false },
  area: { strokeWidth: 1, curve: 'linear', dots: false, fillOpacity: { stacked: 0.75, overlapping: 0.15 } },
  dot: { r: 3, fill: 'var(--surface)' },
  bar: { categoryGap: 0.1, gap: 4, radius: 0 },
  tooltip: { background: 'var(--surface)', borderColor: 'var(--line)', color: 'var(--fg)' },
  category: {
    margin: { top: 8, right: 16, bottom: 0, left: 0 },
    valueAxisWidth: 48,
    hiddenLabelsHeight: 8,
    rowHeight: 26,
    rowsExtra: 40,
    minHeight: 120,
    height: 240,
  },
};

export type MarkKind = 'area' | 'line' | 'bar';

/** Fill opacity of an area. */
export const areaOpacity = (style: ChartStyle, stacked: boolean) =>
  stacked ? style.area.fillOpacity.stacked : style.area.fillOpacity.overlapping;

/** Whether a line or area draws its points: as configured, and always when there is one point (as recharts does). */
export const showDots = (style: ChartStyle, kind: MarkKind, points: number) =>
  kind !== 'bar' && (style[kind].dots || points === 1);

/** The props both recharts charts give their parts; plain objects, so this module stays free of recharts. */
export function rechartsParts(style: ChartStyle) {
  const axis = {
    stroke: style.axis.stroke,
    tickSize: style.axis.tickSize,
    tickMargin: style.axis.tickMargin,
    tick: style.tick,
  };
  return {
    chart: { barGap: style.bar.gap, barCategoryGap: `${style.bar.categoryGap * 100}%` },
    /** Lines at the value ticks; `valueAxis` says which way the values run. */
    grid: (valueAxis: 'x' | 'y') => ({
      stroke: style.grid.stroke,
      strokeDasharray: style.grid.strokeDasharray,
      horizontal: valueAxis === 'y' || style.grid.categoryLines,
      vertical: valueAxis === 'x' || style.grid.categoryLines,
    }),
    axis,
    // A time series' axes: every tick of the frame, where it falls, as the first paint draws them
    // (recharts would otherwise nudge an edge label inward or drop one that it finds crowded).
    xAxis: { ...axis, height: style.xAxisHeight, interval: 0 },
    yAxis: { ...axis, width: style.yAxisWidth, interval: 0 },
    // "Credits per commit: 15.7K", as every label and its value read elsewhere (recharts' default puts " : ").
    tooltip: { contentStyle: style.tooltip, separator: ': ' },
  };
}

/**
 * The look of one series' mark, by kind, as props of recharts' Line, Area and Bar; the first paint
 * draws its SVG from the same objects.
 */
export function markProps(style: ChartStyle, stacked: boolean, points: number) {
  return {
    line: (color: string) => ({
      stroke: color,
      strokeWidth: style.line.strokeWidth,
      type: style.line.curve,
      dot: showDots(style, 'line', points) ? { r: style.dot.r } : (false as const),
      // A line's dots are filled with the line's fill.
      fill: style.dot.fill,
    }),
    area: (color: string) => ({
      stroke: color,
      strokeWidth: style.area.strokeWidth,
      type: style.area.curve,
      dot: showDots(style, 'area', points) ? { r: style.dot.r } : (false as const),
      fill: color,
      fillOpacity: areaOpacity(style, stacked),
    }),
    bar: (color: string) => ({ fill: color, radius: style.bar.radius }),
  };
}
