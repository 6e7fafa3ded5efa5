import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ReferenceLine,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { markerRows, type RenderProps } from './chart-frame';
import { markProps, rechartsParts } from './chart-style';

/** The interactive chart (tooltips), drawn on the frame and in the style the first paint used. */
export function RechartsTimeSeries({
  data,
  series,
  kind,
  stacked,
  fractions,
  xKey,
  xFormat,
  xTooltipFormat,
  yFormat,
  valueFormat,
  chartStyle,
  frame,
  markers = [],
}: RenderProps) {
  const parts = rechartsParts(chartStyle);
  const rows = markerRows(markers);
  const stackId = stacked ? 'stack' : undefined;
  const marks = markProps(chartStyle, stacked, data.length);
  const common = {
    data: data as Record<string, unknown>[],
    width: frame.width,
    height: frame.height,
    margin: frame.margin,
  };
  const axes = (
    <>
      <CartesianGrid {...parts.grid('y')} />
      <XAxis {...parts.xAxis} dataKey={xKey} tickFormatter={xFormat} ticks={frame.xTicks} />
      <YAxis
        {...parts.yAxis}
        tickFormatter={yFormat}
        ticks={frame.yTicks}
        domain={[0, frame.yTicks.at(-1)!]}
        allowDataOverflow={fractions}
      />
      <Tooltip
        {...parts.tooltip}
        labelFormatter={(l) => xTooltipFormat(String(l))}
        formatter={(v, name) => [v == null ? 'none' : valueFormat(Number(v)), name]}
      />
      {markers.map((m, i) => (
        <ReferenceLine
          key={`${m.x}|${m.label}`}
          x={m.x}
          stroke={chartStyle.tick.fill}
          strokeDasharray="4 3"
          label={{
            value: m.label,
            position: 'insideTopLeft',
            fontSize: chartStyle.tick.fontSize,
            fill: chartStyle.tick.fill,
            dy: rows[i]! * (chartStyle.tick.fontSize + 4),
          }}
        />
      ))}
    </>
  );
  if (kind === 'bar')
    return (
      <BarChart {...common} {...parts.chart}>
        {axes}
        {series.map((s) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={s.label}
            {...marks.bar(s.color)}
            stackId={stackId}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    );
  if (kind === 'line')
    return (
      <LineChart {...common}>
        {axes}
        {series.map((s) => (
          <Line
            key={s.key}
            dataKey={s.key}
            name={s.label}
            {...marks.line(s.color)}
            strokeDasharray={s.dash}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    );
  return (
    <AreaChart {...common}>
      {axes}
      {series.map((s) => (
        <Area
          key={s.key}
          dataKey={s.key}
          name={s.label}
          {...marks.area(s.color)}
          stackId={stackId}
          isAnimationActive={false}
        />
      ))}
    </AreaChart>
  );
}
