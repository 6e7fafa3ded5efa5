import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatDayLong, formatDayShort } from '../lib/dates';
import { formatCompact, formatExact, formatPercent } from '../lib/format';
import { OTHER } from '../lib/series';

export interface SeriesConfig {
  key: string;
  label: string;
  /** A theme colour variable, e.g. `var(--color-series-1)`. */
  color: string;
}

/** Tooltip colours from the theme, so it reads in light and dark alike. */
export const TOOLTIP_STYLE = {
  background: 'var(--color-white)',
  borderColor: 'var(--color-slate-200)',
  color: 'var(--color-slate-900)',
};

export const seriesColor = (i: number) => `var(--color-series-${(i % 8) + 1})`;

/** Series for pivoted groups: seven colours for the top groups, grey for Other. */
export function groupSeries(keys: readonly string[], label: (k: string) => string = (k) => k): SeriesConfig[] {
  return keys.map((k, i) => ({ key: k, label: label(k), color: k === OTHER ? seriesColor(7) : seriesColor(i % 7) }));
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
}

/**
 * The one chart wrapper: series config → label and colour; exact values in
 * the tooltip, compact ones on the axis; days read in UTC.
 */
export function TimeSeriesChart({
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
}: Props) {
  const stackId = stacked || percent ? 'stack' : undefined;
  const asPercent = percent || fractions;
  const yFormat = asPercent ? (v: number) => formatPercent(v) : (v: number) => formatCompact(v);
  const common = {
    data: data as Record<string, unknown>[],
    responsive: true,
    style: { width: '100%', height },
    margin: { top: 8, right: 8, bottom: 0, left: 0 },
  };
  const axes = (
    <>
      <CartesianGrid strokeDasharray="3 3" stroke="var(--color-slate-200)" vertical={false} />
      <XAxis
        dataKey={xKey}
        tickFormatter={xFormat}
        minTickGap={24}
        tick={{ fontSize: 12, fill: 'var(--color-slate-600)' }}
      />
      <YAxis
        tickFormatter={yFormat}
        width={56}
        tick={{ fontSize: 12, fill: 'var(--color-slate-600)' }}
        domain={asPercent ? [0, 1] : [0, 'auto']}
        allowDataOverflow={asPercent}
      />
      <Tooltip
        contentStyle={TOOLTIP_STYLE}
        labelFormatter={(l) => xTooltipFormat(String(l))}
        formatter={(v, name) => [asPercent ? formatPercent(Number(v)) : formatExact(Number(v)), name]}
      />
      {series.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} />}
    </>
  );
  const chart =
    kind === 'bar' ? (
      <BarChart {...common}>
        {axes}
        {series.map((s) => (
          <Bar key={s.key} dataKey={s.key} name={s.label} fill={s.color} stackId={stackId} isAnimationActive={false} />
        ))}
      </BarChart>
    ) : kind === 'line' ? (
      <LineChart {...common}>
        {axes}
        {series.map((s) => (
          <Line
            key={s.key}
            dataKey={s.key}
            name={s.label}
            stroke={s.color}
            dot={false}
            strokeWidth={2}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    ) : (
      <AreaChart {...common}>
        {axes}
        {series.map((s) => (
          <Area
            key={s.key}
            dataKey={s.key}
            name={s.label}
            stroke={s.color}
            fill={s.color}
            fillOpacity={stackId ? 0.75 : 0.15}
            stackId={stackId}
            type="monotone"
            isAnimationActive={false}
          />
        ))}
      </AreaChart>
    );
  return (
    <figure role="figure" aria-label={summary} className="m-0">
      {chart}
    </figure>
  );
}
