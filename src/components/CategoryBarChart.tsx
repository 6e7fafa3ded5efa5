import { memo } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, Tooltip, XAxis, YAxis } from 'recharts';
import { formatExact } from '../lib/format';
import { CHART_STYLE, markProps, rechartsParts } from './chart-style';

interface Props {
  data: readonly { label: string; value: number; color?: string }[];
  /** Bars grow to the right with labels on the left (long names), or up. */
  horizontal?: boolean;
  format?: (v: number) => string;
  domain?: [number, number];
  valueName: string;
  summary: string;
  height?: number;
  labelWidth?: number;
  /** For many thin bars: no category labels, names in the tooltip only. */
  hideLabels?: boolean;
}

/**
 * Bars per category, in the same chart style (colours, axes, grid, tooltip) as the time series. Drawn again
 * only when a prop changes (recharts' render is the costliest part of a page): give it the same `data` array
 * while the bars are the same.
 */
export const CategoryBarChart = memo(function CategoryBarChart({
  data,
  horizontal = false,
  format = formatExact,
  domain,
  valueName,
  summary,
  height,
  labelWidth = 160,
  hideLabels = false,
}: Props) {
  const style = CHART_STYLE;
  const { category } = style;
  const parts = rechartsParts(style);
  const bar = markProps(style, false, data.length).bar;
  const h =
    height ??
    (horizontal
      ? Math.max(category.minHeight, data.length * category.rowHeight + category.rowsExtra)
      : category.height);
  return (
    <figure role="figure" aria-label={summary} className="m-0">
      <BarChart
        data={data as { label: string; value: number }[]}
        layout={horizontal ? 'vertical' : 'horizontal'}
        responsive
        style={{ width: '100%', height: h }}
        margin={category.margin}
        {...parts.chart}
      >
        <CartesianGrid {...parts.grid(horizontal ? 'x' : 'y')} />
        {horizontal ? (
          <>
            <XAxis {...parts.axis} type="number" tickFormatter={format} domain={domain ?? [0, 'auto']} />
            <YAxis {...parts.axis} type="category" dataKey="label" width={labelWidth} interval={0} />
          </>
        ) : (
          <>
            <XAxis
              {...parts.xAxis}
              dataKey="label"
              tick={hideLabels ? false : style.tick}
              interval={hideLabels ? 'preserveStartEnd' : 0}
              height={hideLabels ? category.hiddenLabelsHeight : style.xAxisHeight}
            />
            <YAxis
              {...parts.axis}
              tickFormatter={format}
              domain={domain ?? [0, 'auto']}
              width={category.valueAxisWidth}
              allowDecimals={false}
            />
          </>
        )}
        <Tooltip {...parts.tooltip} formatter={(v) => [format(Number(v)), valueName]} />
        <Bar dataKey="value" name={valueName} isAnimationActive={false} {...bar(style.series[0]!)}>
          {data.map((d) => (
            <Cell key={d.label} fill={d.color ?? style.series[0]!} />
          ))}
        </Bar>
      </BarChart>
    </figure>
  );
});
