import { Bar, BarChart, CartesianGrid, Cell, Tooltip, XAxis, YAxis } from 'recharts';
import { formatExact } from '../lib/format';
import { TICK, TOOLTIP_STYLE } from './chart-frame';

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

/** Bars per category, from the same theme colours as the time series. */
export function CategoryBarChart({
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
  const h = height ?? (horizontal ? Math.max(120, data.length * 26 + 40) : 240);
  return (
    <figure role="figure" aria-label={summary} className="m-0">
      <BarChart
        data={data as { label: string; value: number }[]}
        layout={horizontal ? 'vertical' : 'horizontal'}
        responsive
        style={{ width: '100%', height: h }}
        margin={{ top: 8, right: 16, bottom: 0, left: 0 }}
      >
        <CartesianGrid
          strokeDasharray="3 3"
          stroke="var(--color-slate-200)"
          horizontal={!horizontal}
          vertical={horizontal}
        />
        {horizontal ? (
          <>
            <XAxis type="number" tickFormatter={format} domain={domain ?? [0, 'auto']} tick={TICK} />
            <YAxis type="category" dataKey="label" width={labelWidth} tick={TICK} interval={0} />
          </>
        ) : (
          <>
            <XAxis
              dataKey="label"
              tick={hideLabels ? false : TICK}
              interval={hideLabels ? 'preserveStartEnd' : 0}
              height={hideLabels ? 8 : 30}
            />
            <YAxis tickFormatter={format} domain={domain ?? [0, 'auto']} tick={TICK} width={48} allowDecimals={false} />
          </>
        )}
        <Tooltip contentStyle={TOOLTIP_STYLE} formatter={(v) => [format(Number(v)), valueName]} />
        <Bar dataKey="value" name={valueName} isAnimationActive={false} fill="var(--color-series-1)">
          {data.map((d) => (
            <Cell key={d.label} fill={d.color ?? 'var(--color-series-1)'} />
          ))}
        </Bar>
      </BarChart>
    </figure>
  );
}
