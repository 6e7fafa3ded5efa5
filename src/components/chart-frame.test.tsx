import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { barSlot, timeSeriesFrame, Y_AXIS_WIDTH, type FrameInput } from './chart-frame';
import { StaticTimeSeries } from './StaticTimeSeries';

const data = Array.from({ length: 30 }, (_, i) => ({
  date: `2026-11-${String(i + 1).padStart(2, '0')}`,
  a: 100 + i,
  b: 50,
}));
const input: FrameInput = {
  data,
  keys: ['a', 'b'],
  xKey: 'date',
  xFormat: (d) => `Nov ${Number(d.slice(8))}`,
  band: false,
  stacked: true,
  fractions: false,
  width: 800,
  height: 280,
};

describe('timeSeriesFrame', () => {
  it('spreads points from the y axis to the right edge, leaving room for the last label', () => {
    const f = timeSeriesFrame(input);
    expect(f.x(0)).toBe(Y_AXIS_WIDTH);
    expect(f.x(29)).toBe(f.right);
    expect(f.width - f.right).toBeGreaterThanOrEqual(('Nov 30'.length * 7) / 2);
  });
  it('maps zero to the bottom and the top tick to the top, with the stacked maximum inside', () => {
    const f = timeSeriesFrame(input);
    expect(f.y(0)).toBe(f.bottom);
    expect(f.y(f.yTicks.at(-1)!)).toBe(f.top);
    expect(f.yTicks.at(-1)).toBeGreaterThanOrEqual(129 + 50);
  });
  it('ticks the x axis on days of the data, ending on the last', () => {
    const f = timeSeriesFrame(input);
    expect(f.xTicks.at(-1)).toBe('2026-11-30');
    for (const t of f.xTicks) expect(data.map((d) => d.date)).toContain(t);
  });
  it('runs a share axis from 0 to 100 %', () => {
    expect(timeSeriesFrame({ ...input, fractions: true }).yTicks).toEqual([0, 0.25, 0.5, 0.75, 1]);
  });
  it('centres bars in equal bands, side by side when not stacked', () => {
    const f = timeSeriesFrame({ ...input, band: true, data: data.slice(0, 4) });
    const band = (f.right - f.left) / 4;
    expect(f.x(0)).toBeCloseTo(f.left + band / 2);
    const stacked = barSlot(f, true, 1, 2);
    expect(stacked.width).toBeCloseTo(band * 0.8);
    const first = barSlot(f, false, 0, 2);
    const second = barSlot(f, false, 1, 2);
    expect(second.offset).toBeCloseTo(first.offset + first.width + 4);
    expect(second.offset + second.width).toBeCloseTo(band * 0.4);
  });
});

describe('StaticTimeSeries', () => {
  const frame = timeSeriesFrame(input);
  const props = {
    data,
    series: [
      { key: 'a', label: 'A', color: 'red' },
      { key: 'b', label: 'B', color: 'blue' },
    ],
    kind: 'area' as const,
    stacked: true,
    fractions: false,
    xKey: 'date',
    xFormat: input.xFormat,
    xTooltipFormat: (x: string) => x,
    yFormat: (v: number) => `${v}!`,
    valueFormat: String,
    frame,
  };
  it('draws one filled area per series and the frame’s ticks as labels', () => {
    const svg = renderToStaticMarkup(<StaticTimeSeries {...props} />);
    expect(svg.match(/class="chart-mark"/g)).toHaveLength(2);
    const labels = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(labels).toEqual([...frame.xTicks.map(input.xFormat), ...frame.yTicks.map((t) => `${t}!`)]);
  });
  it('draws a bar per series and day, skipping zero-height ones', () => {
    const bars = renderToStaticMarkup(
      <StaticTimeSeries {...props} kind="bar" data={[...data.slice(0, 3), { date: '2026-11-04', a: 0, b: 0 }]} />,
    );
    expect(bars.match(/<rect class="chart-mark"/g)).toHaveLength(6);
  });
});
