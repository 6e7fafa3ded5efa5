import { area, curveLinear, curveMonotoneX, line } from 'd3-shape';
import { areaOpacity, barSlot, TICK, type RenderProps } from './chart-frame';

const AXIS = '#666';

/**
 * The first paint of a time-series chart: the same axes, grid and marks as
 * the interactive chart, as plain SVG, without its library. Replaced by the
 * interactive chart as soon as that has loaded.
 */
export function StaticTimeSeries({ data, series, kind, stacked, xKey, xFormat, yFormat, frame }: RenderProps) {
  const { left, right, top, bottom, x, y } = frame;
  const n = data.length;
  const base = new Array<number>(n).fill(0);
  const layers = series.map((s) => {
    const low = stacked ? [...base] : new Array<number>(n).fill(0);
    const high = data.map((p, i) => {
      const v = Number(p[s.key]);
      return low[i]! + (Number.isFinite(v) ? v : 0);
    });
    if (stacked) high.forEach((h, i) => (base[i] = h));
    return { s, low, high };
  });
  const index = new Map(data.map((p, i) => [String(p[xKey]), i]));
  const curve = kind === 'area' ? curveMonotoneX : curveLinear;
  const topLine = line<number>(
    (_, i) => x(i),
    (h) => y(h),
  ).curve(curve);
  const marks = layers.map(({ s, low, high }, si) => {
    if (kind === 'bar') {
      const slot = barSlot(frame, stacked, si, series.length);
      return (
        <g key={s.key} fill={s.color}>
          {high.map((h, i) => {
            const y1 = y(h);
            const y0 = y(low[i]!);
            return y0 - y1 > 0 ? (
              <rect key={i} className="chart-mark" x={x(i) + slot.offset} y={y1} width={slot.width} height={y0 - y1} />
            ) : null;
          })}
        </g>
      );
    }
    const edge = topLine(high) ?? '';
    if (kind === 'line')
      return <path key={s.key} className="chart-mark" d={edge} fill="none" stroke={s.color} strokeWidth={2} />;
    const fill = area<number>()
      .x((_, i) => x(i))
      .y0((_, i) => y(low[i]!))
      .y1((h) => y(h))
      .curve(curve)(high);
    return (
      <g key={s.key}>
        <path className="chart-mark" d={fill ?? ''} fill={s.color} fillOpacity={areaOpacity(stacked)} />
        <path d={edge} fill="none" stroke={s.color} />
      </g>
    );
  });
  return (
    <svg width={frame.width} height={frame.height} className="block" aria-hidden="true" data-chart="static">
      {frame.yTicks.map((t) => (
        <line key={t} x1={left} x2={right} y1={y(t)} y2={y(t)} stroke="var(--color-slate-200)" strokeDasharray="3 3" />
      ))}
      {marks}
      <g>
        <line x1={left} x2={right} y1={bottom} y2={bottom} stroke={AXIS} />
        {frame.xTicks.map((v) => {
          const cx = x(index.get(v) ?? 0);
          return (
            <g key={v}>
              <line x1={cx} x2={cx} y1={bottom} y2={bottom + 6} stroke={AXIS} />
              <text x={cx} y={bottom + 8} dy="0.71em" textAnchor="middle" {...TICK}>
                {xFormat(v)}
              </text>
            </g>
          );
        })}
      </g>
      <g>
        <line x1={left} x2={left} y1={top} y2={bottom} stroke={AXIS} />
        {frame.yTicks.map((t) => (
          <g key={t}>
            <line x1={left - 6} x2={left} y1={y(t)} y2={y(t)} stroke={AXIS} />
            <text x={left - 8} y={y(t)} dy="0.355em" textAnchor="end" {...TICK}>
              {yFormat(t)}
            </text>
          </g>
        ))}
      </g>
    </svg>
  );
}
