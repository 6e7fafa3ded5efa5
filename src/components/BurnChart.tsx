import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { categoryTickIndexes, labelWidth, valueTicks } from '../lib/axis';
import { formatDayLong, formatDayShort } from '../lib/dates';
import { formatMoney, moneyTicks } from '../lib/money';
import { CHART_STYLE, rechartsParts } from './chart-style';
import { BURN_LOOK, type BurnPoint } from './burn-points';

/**
 * The month's burn chart, interactive (loaded with recharts, off the landing path): the running total
 * to the latest day, the forecast's middle to month end as a dashed line inside its range drawn as a band
 * (recharts' range area, [low, high] per day), and the budget as a line; the money axis in the currency.
 */
export default function BurnChart({
  points,
  currency,
  budget,
  width,
  height,
}: {
  points: readonly BurnPoint[];
  currency: string;
  budget: number | undefined;
  width: number;
  height: number;
}) {
  const style = CHART_STYLE;
  const parts = rechartsParts(style);
  const money = (n: number) => formatMoney(n, currency);
  const top = Math.max(budget ?? 0, ...points.map((p) => Math.max(p.spent ?? 0, p.range?.[1] ?? 0)));
  const yTicks = valueTicks(top);
  const yFormat = moneyTicks(yTicks, currency);
  const yWidth = Math.max(style.yAxisWidth, ...yTicks.map((t) => labelWidth(yFormat(t)) + 12));
  const labels = points.map((p) => formatDayShort(p.date));
  // The last day's label is centred on the plot's right edge: leave room for its right half.
  const margin = { ...style.margin, right: Math.max(style.margin.right, labelWidth(labels.at(-1) ?? '') / 2) };
  const plot = width - margin.left - margin.right - yWidth;
  const xTicks = categoryTickIndexes(labels, plot).map((i) => points[i]!.date);
  return (
    <ComposedChart data={points as BurnPoint[]} width={width} height={height} margin={margin}>
      <CartesianGrid {...parts.grid('y')} />
      <XAxis {...parts.xAxis} dataKey="date" tickFormatter={formatDayShort} ticks={xTicks} />
      <YAxis {...parts.yAxis} width={yWidth} tickFormatter={yFormat} ticks={yTicks} domain={[0, yTicks.at(-1)!]} />
      <Tooltip
        {...parts.tooltip}
        labelFormatter={(l) => formatDayLong(String(l))}
        formatter={(v, name) => [
          Array.isArray(v) ? `${money(Number(v[0]))} – ${money(Number(v[1]))}` : money(Number(v)),
          name,
        ]}
      />
      <Area
        dataKey="range"
        name={BURN_LOOK.range.label}
        stroke="none"
        fill={BURN_LOOK.range.color}
        fillOpacity={BURN_LOOK.range.opacity}
        isAnimationActive={false}
      />
      <Line
        dataKey="forecast"
        name={BURN_LOOK.forecast.label}
        stroke={BURN_LOOK.forecast.color}
        strokeWidth={style.line.strokeWidth}
        strokeDasharray={BURN_LOOK.forecast.dash}
        dot={false}
        isAnimationActive={false}
      />
      <Line
        dataKey="spent"
        name={BURN_LOOK.spent.label}
        stroke={BURN_LOOK.spent.color}
        strokeWidth={style.line.strokeWidth}
        dot={false}
        isAnimationActive={false}
      />
      {budget !== undefined && (
        <ReferenceLine
          y={budget}
          stroke={BURN_LOOK.budget.color}
          strokeDasharray={BURN_LOOK.budget.dash}
          strokeWidth={1.5}
          label={{
            value: `Budget ${money(budget)}`,
            position: 'insideTopLeft',
            fontSize: style.tick.fontSize,
            fill: style.tick.fill,
          }}
        />
      )}
    </ComposedChart>
  );
}
