import { memo, useMemo } from 'react';
import { formatDayLong, formatDayShort } from '../lib/dates';
import { formatCompact, formatExact, formatPercent, tickColumn } from '../lib/format';
import { OTHER, keyColorSlots } from '../lib/series';
import { markerRows, shadeBoxes, timeSeriesFrame, type ChartMarker, type Frame, type RenderProps } from './chart-frame';
import { CHART_STYLE } from './chart-style';
import { useChartEngine } from './chart-engine';
import { ChartMarks, type PlacedMark } from './ChartMarks';
import { StaticTimeSeries } from './StaticTimeSeries';
import { useWidth } from './use-width';

export interface SeriesConfig {
  key: string;
  label: string;
  /** A theme colour, e.g. `seriesColor(0)` (`var(--chart-1)`). */
  color: string;
  /** A line's dash pattern (SVG `stroke-dasharray`): a line drawn to a goal or projected, not one counted. */
  dash?: string;
}

/** The hatching of a partial week, in the axis colour of either theme, faint enough to read the marks through. */
const PARTIAL: React.CSSProperties = {
  background:
    'repeating-linear-gradient(135deg, color-mix(in srgb, var(--chart-axis) 18%, transparent) 0 4px, transparent 4px 9px)',
};

/** The i-th series colour of the chart style. */
export const seriesColor = (i: number) => CHART_STYLE.series[i % CHART_STYLE.series.length]!;

/** The colour slots of the groups drawn in this session: every colour but the last (grey, Other's). */
const groupSlots = keyColorSlots(CHART_STYLE.series.length - 1);

/**
 * Series for pivoted groups (models, clients, tools): each group's colour follows its name (`keyColorSlots`),
 * so a model is drawn alike for the organization and for a team, on every chart; grey is Other's alone.
 */
export function groupSeries(keys: readonly string[], label: (k: string) => string = (k) => k): SeriesConfig[] {
  const grey = CHART_STYLE.series.length - 1;
  const slots = groupSlots(keys.filter((k) => k !== OTHER));
  return keys.map((k) => ({ key: k, label: label(k), color: seriesColor(k === OTHER ? grey : slots.get(k)!) }));
}

interface Props {
  data: readonly object[];
  series: readonly SeriesConfig[];
  kind?: 'area' | 'line' | 'bar';
  stacked?: boolean;
  /** Values are fractions that sum to 1 per day (a 100 % stacked chart). */
  percent?: boolean;
  /** Values are fractions shown as percentages, not stacked. */
  fractions?: boolean;
  xKey?: string;
  /** Labels the x values (days by default). */
  xFormat?: (x: string) => string;
  xTooltipFormat?: (x: string) => string;
  height?: number;
  /** A sentence describing the chart for assistive technology. */
  summary: string;
  /** Labelled vertical lines at some x values (say them in `summary` or a table too: they are drawn only). */
  markers?: readonly ChartMarker[];
  /**
   * X values whose span of the plot is shaded and labelled "partial" (weeks the range holds only part of),
   * over whichever renderer draws; say what they are in a note beside the chart too.
   */
  shaded?: readonly string[];
  /** Marks on the chart (`ChartMarks.tsx`): a focusable, numbered flag each, with its text; list them beside the table view too. */
  marks?: readonly PlacedMark[];
  /**
   * How the value axis and the tooltip write a value, for a unit of its own (money in its currency): the same object
   * from render to render. By default compact on the axis and exact in the tooltip (percentages for fractions).
   */
  format?: ValueFormat;
  /**
   * Called with the x value of the point nearest a click on the plot (a chart that adds a mark on the day clicked);
   * give the same choice by keyboard beside the chart.
   */
  onPick?: (x: string) => void;
}

export interface ValueFormat {
  axis: (n: number) => string;
  value: (n: number) => string;
}

/** Where the marks' flags start below the plot's top: under the labels of the chart's own lines (level changes). */
const flagsBelow = (markers: readonly ChartMarker[] | undefined) =>
  markers?.length ? (Math.max(...markerRows(markers)) + 1) * (CHART_STYLE.tick.fontSize + 4) + 2 : 0;

/** The x value of the point nearest a click inside the plot (a click on a mark's flag is the flag's). */
function pick(
  e: React.MouseEvent<HTMLDivElement>,
  frame: Frame,
  points: readonly Record<string, unknown>[],
  xKey: string,
  onPick: (x: string) => void,
) {
  if ((e.target as Element).closest('button') || points.length === 0) return;
  const x = e.clientX - e.currentTarget.getBoundingClientRect().left;
  if (x < frame.left - 8 || x > frame.right + 8) return;
  let best = 0;
  for (let i = 1; i < points.length; i++) if (Math.abs(frame.x(i) - x) < Math.abs(frame.x(best) - x)) best = i;
  onPick(String(points[best]![xKey]));
}

/** Series alike in what is drawn (key, label and colour), whether or not the array or its entries are the same objects. */
function sameSeries(a: readonly SeriesConfig[], b: readonly SeriesConfig[]): boolean {
  return (
    a === b ||
    (a.length === b.length &&
      a.every((s, i) => {
        const t = b[i]!;
        return s.key === t.key && s.label === t.label && s.color === t.color && s.dash === t.dash;
      }))
  );
}

/**
 * Whether a chart would draw the same: its series compared by what is drawn (a page builds them afresh on
 * each render), everything else as given. The points must be the same array: a widget gets them from a
 * query's memoized answer, so a page's re-render (a new URL, a placeholder, another widget's answer) that
 * leaves them as they were does not draw the chart again (recharts' render is the costliest part of a page).
 */
function sameChart(prev: Props, next: Props): boolean {
  const keys = new Set([...Object.keys(prev), ...Object.keys(next)] as (keyof Props)[]);
  for (const k of keys) {
    if (k === 'series' ? !sameSeries(prev.series, next.series) : !Object.is(prev[k], next[k])) return false;
  }
  return true;
}

/**
 * The one chart wrapper: series config → label and colour; exact values in
 * the tooltip, one unit on the whole axis; days read in UTC. It paints first as
 * plain SVG and becomes interactive once the chart library has loaded. Drawn
 * again only when what it draws changes (see `sameChart`).
 */
export const TimeSeriesChart = memo(TimeSeriesChartImpl, sameChart);

function TimeSeriesChartImpl({
  data,
  series,
  kind = 'area',
  stacked = false,
  percent = false,
  fractions = false,
  xKey = 'date',
  xFormat = formatDayShort,
  xTooltipFormat = formatDayLong,
  height = 280,
  summary,
  markers,
  shaded,
  marks,
  format,
  onPick,
}: Props) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const engine = useChartEngine();
  const asPercent = percent || fractions;
  const stack = stacked || percent;
  const points = data as readonly Record<string, unknown>[];
  const keys = series.map((s) => s.key).join('|');
  const frame = useMemo(
    () =>
      width > 0
        ? timeSeriesFrame(
            {
              data: points,
              keys: keys.split('|'),
              xKey,
              xFormat,
              band: kind === 'bar',
              stacked: stack,
              fractions: asPercent,
              width,
              height,
            },
            CHART_STYLE,
          )
        : null,
    [points, keys, xKey, xFormat, kind, stack, asPercent, width, height],
  );
  const render: Omit<RenderProps, 'frame'> = {
    data: points,
    series,
    kind,
    stacked: stack,
    fractions: asPercent,
    xKey,
    xFormat,
    xTooltipFormat,
    // One unit on the whole axis: "0.5M" under "1.0M", never "500K" under "1M".
    yFormat: format?.axis ?? (asPercent ? formatPercent : frame ? tickColumn(frame.yTicks) : formatCompact),
    valueFormat: format?.value ?? (asPercent ? formatPercent : formatExact),
    chartStyle: CHART_STYLE,
    markers,
  };
  const Renderer = engine?.RechartsTimeSeries ?? StaticTimeSeries;
  return (
    <figure role="figure" aria-label={summary} className="m-0">
      <div
        ref={ref}
        className={`relative ${onPick ? 'cursor-crosshair' : ''}`}
        style={{ height }}
        onClick={onPick && frame ? (e) => pick(e, frame, points, xKey, onPick) : undefined}
      >
        {frame && <Renderer {...render} frame={frame} />}
        {frame &&
          shaded &&
          shadeBoxes(frame, points, xKey, shaded).map((b) => (
            <div
              key={b.x}
              data-shade={b.x}
              aria-hidden="true"
              className="chart-partial pointer-events-none absolute text-center text-[10px] leading-4 text-fg-subtle"
              style={{ left: b.left, width: b.width, top: frame.top, height: frame.bottom - frame.top, ...PARTIAL }}
            >
              partial
            </div>
          ))}
        {frame && marks && marks.length > 0 && (
          <ChartMarks frame={frame} placed={marks} points={points} xKey={xKey} offset={flagsBelow(markers)} />
        )}
      </div>
      {series.length > 1 && (
        <ul className="mt-1 flex flex-wrap justify-center gap-x-4 gap-y-1 text-xs text-fg-soft">
          {series.map((s) => (
            <li key={s.key} className="flex items-center gap-1.5">
              {s.dash ? (
                <svg aria-hidden="true" width="16" height="10" className="shrink-0">
                  <line x1="0" x2="16" y1="5" y2="5" stroke={s.color} strokeWidth="2" strokeDasharray={s.dash} />
                </svg>
              ) : (
                <span aria-hidden="true" className="inline-block size-2.5 rounded-sm" style={{ background: s.color }} />
              )}
              {s.label}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
