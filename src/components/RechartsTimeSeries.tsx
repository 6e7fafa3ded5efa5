import { Area, AreaChart, Bar, BarChart, CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { areaOpacity, TICK, TOOLTIP_STYLE, X_AXIS_HEIGHT, Y_AXIS_WIDTH, type RenderProps } from './chart-frame';

/** The interactive chart (tooltips), drawn on the frame the first paint used. */
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
  frame,
}: RenderProps) {
  const stackId = stacked ? 'stack' : undefined;
  const common = {
    data: data as Record<string, unknown>[],
    width: frame.width,
    height: frame.height,
    margin: frame.margin,
  };
  const axes = (
    <>
      <CartesianGrid strokeDasharray="3 3" stroke="var(--color-slate-200)" vertical={false} />
      <XAxis
        dataKey={xKey}
        tickFormatter={xFormat}
        ticks={frame.xTicks}
        interval={0}
        height={X_AXIS_HEIGHT}
        tick={TICK}
      />
      <YAxis
        tickFormatter={yFormat}
        width={Y_AXIS_WIDTH}
        tick={TICK}
        ticks={frame.yTicks}
        domain={[0, frame.yTicks.at(-1)!]}
        allowDataOverflow={fractions}
      />
      <Tooltip
        contentStyle={TOOLTIP_STYLE}
        labelFormatter={(l) => xTooltipFormat(String(l))}
        formatter={(v, name) => [valueFormat(Number(v)), name]}
      />
    </>
  );
  if (kind === 'bar')
    return (
      <BarChart {...common}>
        {axes}
        {series.map((s) => (
          <Bar key={s.key} dataKey={s.key} name={s.label} fill={s.color} stackId={stackId} isAnimationActive={false} />
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
            stroke={s.color}
            dot={false}
            strokeWidth={2}
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
          stroke={s.color}
          fill={s.color}
          fillOpacity={areaOpacity(stacked)}
          stackId={stackId}
          type="monotone"
          isAnimationActive={false}
        />
      ))}
    </AreaChart>
  );
}
