import { area, line } from 'd3-shape';
import { useId } from 'react';
import { barSlot, markerRows, type RenderProps } from './chart-frame';
import { CURVES, markProps } from './chart-style';

/**
 * The first paint of a time-series chart: the same axes, grid and marks as
 * the interactive chart, as plain SVG, without its library. Replaced by the
 * interactive chart as soon as that has loaded. Every stroke, curve, colour
 * and size comes from the chart style, as the interactive chart's do.
 */
export function StaticTimeSeries({
  data,
  series,
  kind,
  stacked,
  fractions,
  xKey,
  xFormat,
  yFormat,
  chartStyle,
  frame,
  markers = [],
}: RenderProps) {
  const clipId = useId();
  const rows = markerRows(markers);
  const { left, right, top, bottom, x, y } = frame;
  const { axis, tick, grid } = chartStyle;
  const n = data.length;
  const base = new Array<number>(n).fill(0);
  const layers = series.map((s) => {
    const low = stacked ? [...base] : new Array<number>(n).fill(0);
    // A point without a value (a ratio on a day with nothing to divide) is a gap in a line, as recharts leaves it.
    const has = data.map((p) => stacked || (p[s.key] != null && Number.isFinite(Number(p[s.key]))));
    const high = data.map((p, i) => {
      const v = Number(p[s.key]);
      return low[i]! + (Number.isFinite(v) ? v : 0);
    });
    if (stacked) high.forEach((h, i) => (base[i] = h));
    return { s, low, high, has };
  });
  const index = new Map(data.map((p, i) => [String(p[xKey]), i]));
  const look = markProps(chartStyle, stacked, n);
  const curve = CURVES[kind === 'bar' ? 'linear' : chartStyle[kind].curve];
  const marks = layers.map(({ s, low, high, has }, si) => {
    const topLine = line<number>(
      (_, i) => x(i),
      (h) => y(h),
    )
      .defined((_, i) => has[i]!)
      .curve(curve);
    if (kind === 'bar') {
      const { fill, radius } = look.bar(s.color);
      const slot = barSlot(frame, stacked, si, series.length, chartStyle.bar);
      return (
        <g key={s.key} fill={fill}>
          {high.map((h, i) => {
            const y1 = y(h);
            const y0 = y(low[i]!);
            const r = Math.min(radius, slot.width / 2, (y0 - y1) / 2);
            return y0 - y1 > 0 ? (
              <rect
                key={i}
                className="chart-mark"
                x={x(i) + slot.offset}
                y={y1}
                width={slot.width}
                height={y0 - y1}
                rx={r > 0 ? r : undefined}
              />
            ) : null;
          })}
        </g>
      );
    }
    const edge = topLine(high) ?? '';
    const m = kind === 'line' ? { ...look.line(s.color), fillOpacity: undefined } : look.area(s.color);
    // Dots: the mark's stroke around its fill (a line's fill is only its dots').
    const dot = m.dot;
    const dots = dot && (
      <g stroke={m.stroke} strokeWidth={m.strokeWidth} fill={m.fill} fillOpacity={m.fillOpacity}>
        {high.map((h, i) => has[i] && <circle key={i} cx={x(i)} cy={y(h)} r={dot.r} />)}
      </g>
    );
    if (kind === 'line')
      return (
        <g key={s.key}>
          <path
            className="chart-mark"
            d={edge}
            fill="none"
            stroke={m.stroke}
            strokeWidth={m.strokeWidth}
            strokeDasharray={s.dash}
          />
          {dots}
        </g>
      );
    const fill = area<number>()
      .defined((_, i) => has[i]!)
      .x((_, i) => x(i))
      .y0((_, i) => y(low[i]!))
      .y1((h) => y(h))
      .curve(curve)(high);
    return (
      <g key={s.key}>
        <path className="chart-mark" d={fill ?? ''} fill={m.fill} fillOpacity={m.fillOpacity} />
        <path d={edge} fill="none" stroke={m.stroke} strokeWidth={m.strokeWidth} />
        {dots}
      </g>
    );
  });
  // Category grid lines at the ticks and, as recharts draws them, at both edges of the plot.
  const tickXs = frame.xTicks.map((v) => x(index.get(v) ?? 0));
  const categoryLines = [...tickXs, ...[left, right].filter((e) => !tickXs.includes(e))];
  // Tick labels sit past the tick mark, as recharts places them.
  const labelGap = axis.tickSize + axis.tickMargin;
  return (
    <svg width={frame.width} height={frame.height} className="block" aria-hidden="true" data-chart="static">
      <g className="chart-grid" stroke={grid.stroke} strokeDasharray={grid.strokeDasharray}>
        {frame.yTicks.map((t) => (
          <line key={t} x1={left} x2={right} y1={y(t)} y2={y(t)} />
        ))}
        {grid.categoryLines && categoryLines.map((cx) => <line key={cx} x1={cx} x2={cx} y1={top} y2={bottom} />)}
      </g>
      {/* A share axis lets values overflow its 100 %: the marks are clipped to its height, as recharts clips them. */}
      {fractions && (
        <defs>
          <clipPath id={clipId}>
            <rect x={left - (right - left) / 2} y={top} width={(right - left) * 2} height={bottom - top} />
          </clipPath>
        </defs>
      )}
      <g clipPath={fractions ? `url(#${clipId})` : undefined}>{marks}</g>
      {markers.map((m, k) => {
        const i = index.get(m.x);
        if (i === undefined) return null;
        return (
          <g key={`${m.x}|${m.label}`} className="chart-marker">
            <line x1={x(i)} x2={x(i)} y1={top} y2={bottom} stroke={tick.fill} strokeDasharray="4 3" />
            <text x={x(i) + 4} y={top + 4 + rows[k]! * (tick.fontSize + 4)} dy="0.71em" stroke="none" {...tick}>
              {m.label}
            </text>
          </g>
        );
      })}
      <g className="chart-x-axis" stroke={axis.stroke}>
        <line x1={left} x2={right} y1={bottom} y2={bottom} />
        {frame.xTicks.map((v) => {
          const cx = x(index.get(v) ?? 0);
          return (
            <g key={v}>
              <line x1={cx} x2={cx} y1={bottom} y2={bottom + axis.tickSize} />
              <text x={cx} y={bottom + labelGap} dy="0.71em" textAnchor="middle" stroke="none" {...tick}>
                {xFormat(v)}
              </text>
            </g>
          );
        })}
      </g>
      <g className="chart-y-axis" stroke={axis.stroke}>
        <line x1={left} x2={left} y1={top} y2={bottom} />
        {frame.yTicks.map((t) => (
          <g key={t}>
            <line x1={left - axis.tickSize} x2={left} y1={y(t)} y2={y(t)} />
            <text x={left - labelGap} y={y(t)} dy="0.355em" textAnchor="end" stroke="none" {...tick}>
              {yFormat(t)}
            </text>
          </g>
        ))}
      </g>
    </svg>
  );
}
