// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { curveStep, line } from 'd3-shape';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { OTHER } from '../lib/series';
import { barSlot, markerRows, timeSeriesFrame, type FrameInput, type RenderProps } from './chart-frame';
import { CHART_STYLE, markProps, rechartsParts, type ChartStyle } from './chart-style';
import { RechartsTimeSeries } from './RechartsTimeSeries';
import { StaticTimeSeries } from './StaticTimeSeries';
import { groupSeries, seriesColor } from './TimeSeriesChart';

afterEach(cleanup);

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

/** A style unlike the default in every field the renderers read. */
const custom: ChartStyle = {
  ...CHART_STYLE,
  margin: { top: 12, right: 20, bottom: 4, left: 6 },
  yAxisWidth: 60,
  xAxisHeight: 28,
  axis: { stroke: 'orange', tickSize: 5, tickMargin: 4 },
  tick: { fontSize: 11, fill: 'purple' },
  grid: { stroke: 'green', strokeDasharray: '2 4', categoryLines: true },
  line: { strokeWidth: 3, curve: 'monotone', dots: true },
  area: { strokeWidth: 2, curve: 'step', dots: false, fillOpacity: { stacked: 0.5, overlapping: 0.25 } },
  dot: { r: 4, fill: 'white' },
  bar: { categoryGap: 0.2, gap: 6, radius: 0 },
};

describe('timeSeriesFrame', () => {
  it('spreads points from the y axis to the right edge, leaving room for the last label', () => {
    const f = timeSeriesFrame(input);
    expect(f.x(0)).toBe(CHART_STYLE.yAxisWidth);
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
  it('takes its margins and axis sizes from the chart style', () => {
    const f = timeSeriesFrame({ ...input, xFormat: () => 'x' }, custom);
    expect(f.margin).toEqual(custom.margin);
    expect(f.left).toBe(6 + 60);
    expect(f.right).toBe(800 - 20);
    expect(f.top).toBe(12);
    expect(f.bottom).toBe(280 - 4 - 28);
  });
  it('centres bars in equal bands, side by side when not stacked, as recharts places them', () => {
    const f = timeSeriesFrame({ ...input, band: true, data: data.slice(0, 4) });
    const band = (f.right - f.left) / 4;
    expect(f.x(0)).toBeCloseTo(f.left + band / 2);
    const stacked = barSlot(f, true, 1, 2);
    expect(stacked.width).toBe(Math.round(band * 0.8));
    expect(stacked.offset).toBeCloseTo(-band / 2 + band * 0.1);
    const first = barSlot(f, false, 0, 2);
    const second = barSlot(f, false, 1, 2);
    expect(first.width).toBe(Math.round((band * 0.8 - 4) / 2));
    expect(second.offset).toBeCloseTo(first.offset + first.width + 4);
    const wide = barSlot(f, false, 1, 2, custom.bar);
    expect(wide.offset).toBeCloseTo(-band / 2 + band * 0.2 + wide.width + 6);
  });
});

const props: RenderProps = {
  data,
  series: [
    { key: 'a', label: 'A', color: 'red' },
    { key: 'b', label: 'B', color: 'blue' },
  ],
  kind: 'area',
  stacked: true,
  fractions: false,
  xKey: 'date',
  xFormat: input.xFormat,
  xTooltipFormat: (x: string) => x,
  yFormat: (v: number) => `${v}!`,
  valueFormat: String,
  chartStyle: CHART_STYLE,
  frame: timeSeriesFrame(input),
};

describe('StaticTimeSeries', () => {
  it('draws one filled area per series and the frame’s ticks as labels', () => {
    const svg = renderToStaticMarkup(<StaticTimeSeries {...props} />);
    expect(svg.match(/class="chart-mark"/g)).toHaveLength(2);
    const labels = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(labels).toEqual([...props.frame.xTicks.map(input.xFormat), ...props.frame.yTicks.map((t) => `${t}!`)]);
  });
  it('draws a bar per series and day, skipping zero-height ones', () => {
    const bars = renderToStaticMarkup(
      <StaticTimeSeries {...props} kind="bar" data={[...data.slice(0, 3), { date: '2026-11-04', a: 0, b: 0 }]} />,
    );
    expect(bars.match(/<rect class="chart-mark"/g)).toHaveLength(6);
  });
  it('draws lines, dots, grid, axes and labels in the configured style', () => {
    const frame = timeSeriesFrame(input, custom);
    const style: ChartStyle = { ...custom, line: { ...custom.line, curve: 'step' } };
    const { container } = render(
      <StaticTimeSeries {...props} kind="line" stacked={false} chartStyle={style} frame={frame} />,
    );
    const [a, b] = [...container.querySelectorAll('path.chart-mark')];
    expect(a!.getAttribute('stroke')).toBe('red');
    expect(b!.getAttribute('stroke')).toBe('blue');
    expect(a!.getAttribute('stroke-width')).toBe('3');
    const stepped = line<number>(
      (_, i) => frame.x(i),
      (v) => frame.y(v),
    ).curve(curveStep)(data.map((p) => p.a));
    expect(a!.getAttribute('d')).toBe(stepped);
    const dots = container.querySelectorAll('circle');
    expect(dots).toHaveLength(60);
    expect(dots[0]!.getAttribute('r')).toBe('4');
    expect(inherited(dots[0]!, 'fill')).toBe('white');
    const grid = container.querySelector('.chart-grid')!;
    expect([grid.getAttribute('stroke'), grid.getAttribute('stroke-dasharray')]).toEqual(['green', '2 4']);
    const text = container.querySelector('.chart-x-axis text')!;
    expect([text.getAttribute('fill'), text.getAttribute('font-size')]).toEqual(['purple', '11']);
    expect(Number(text.getAttribute('y'))).toBe(frame.bottom + 5 + 4);
    expect(container.querySelector('.chart-x-axis')!.getAttribute('stroke')).toBe('orange');
  });
});

describe('series colours', () => {
  it('come from the chart style, the last (grey) for Other', () => {
    expect(seriesColor(0)).toBe(CHART_STYLE.series[0]);
    expect(seriesColor(9)).toBe(CHART_STYLE.series[1]);
    const groups = groupSeries(['x', 'y', OTHER]);
    expect(groups.at(-1)!.color).toBe(CHART_STYLE.series.at(-1));
    expect(new Set(groups.map((g) => g.color)).size).toBe(3);
    expect(groups.slice(0, 2).every((g) => CHART_STYLE.series.slice(0, -1).includes(g.color))).toBe(true);
  });

  it("follow each group's name, whatever the order or the other groups drawn (a team's models)", () => {
    const org = ['claude-opus', 'claude-sonnet', 'claude-haiku', 'gpt-5', 'gemini-pro', 'o3', 'llama', OTHER];
    const colors = new Map(groupSeries(org).map((g) => [g.key, g.color]));
    // Seven groups and Other: eight colours, none shared.
    expect(new Set(colors.values()).size).toBe(8);
    const team = groupSeries(['gpt-5', 'claude-sonnet']);
    const teamReversed = groupSeries(['claude-sonnet', 'gpt-5']);
    for (const g of [...team, ...teamReversed]) expect(g.color).toBe(colors.get(g.key));
  });
});

describe('recharts props from the chart style', () => {
  it('give grid lines across the value axis, axes and tooltip in the style', () => {
    const parts = rechartsParts(custom);
    expect(parts.grid('y')).toEqual({ stroke: 'green', strokeDasharray: '2 4', horizontal: true, vertical: true });
    const plain = rechartsParts(CHART_STYLE);
    expect(plain.grid('y')).toMatchObject({ horizontal: true, vertical: false });
    expect(plain.grid('x')).toMatchObject({ horizontal: false, vertical: true });
    expect(parts.yAxis).toMatchObject({ stroke: 'orange', tickSize: 5, tickMargin: 4, width: 60, tick: custom.tick });
    expect(parts.chart).toEqual({ barGap: 6, barCategoryGap: '20%' });
    expect(parts.tooltip.contentStyle).toBe(custom.tooltip);
  });
  it('give each series its colour, stroke width, curve and dots', () => {
    const marks = markProps(custom, true, 30);
    expect(marks.line('red')).toMatchObject({ stroke: 'red', strokeWidth: 3, type: 'monotone', dot: { r: 4 } });
    expect(marks.area('red')).toMatchObject({ stroke: 'red', fill: 'red', fillOpacity: 0.5, type: 'step', dot: false });
    expect(marks.bar('red')).toEqual({ fill: 'red', radius: 0 });
    // One point is drawn as a dot, as recharts does.
    expect(markProps(custom, true, 1).area('red').dot).toEqual({ r: 4 });
  });
});

/** An attribute of an element or, as SVG inherits it, of its nearest ancestor that has it. */
function inherited(el: Element, name: string): string | null {
  for (let e: Element | null = el; e; e = e.parentElement) if (e.hasAttribute(name)) return e.getAttribute(name);
  return null;
}
const numbers = (d: string | null) => (d?.match(/-?\d+(\.\d+)?(e-?\d+)?/g) ?? []).map(Number);
function expectClose(a: readonly number[], b: readonly number[]) {
  expect(a).toHaveLength(b.length);
  a.forEach((v, i) => expect(v).toBeCloseTo(b[i]!, 2));
}
/** A line's end points, in order, so lines drawn either way round compare equal. */
const ends = (l: Element) => {
  const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((k) => Number(l.getAttribute(k)));
  return x1! < x2! || (x1 === x2 && y1! <= y2!) ? [x1!, y1!, x2!, y2!] : [x2!, y2!, x1!, y1!];
};
const look = (els: Iterable<Element>, names: readonly string[]) =>
  [...els].map((e) => names.map((n) => inherited(e, n)));

describe('daily counts', () => {
  it('are joined by straight lines, never smoothed curves, in both renderers', async () => {
    expect([CHART_STYLE.line.curve, CHART_STYLE.area.curve]).toEqual(['linear', 'linear']);
    // A zero day between busy ones: a straight path goes down to it and back, with no curve command.
    const days = data.slice(0, 7).map((p, i) => ({ ...p, a: i === 3 ? 0 : 100, b: 0 }));
    const frame = timeSeriesFrame({ ...input, data: days, stacked: false, width: 640 });
    for (const kind of ['line', 'area'] as const) {
      const p = { ...props, data: days, kind, stacked: false, frame };
      const rc = render(<RechartsTimeSeries {...p} />).container;
      const st = render(<StaticTimeSeries {...p} />).container;
      await new Promise((r) => setTimeout(r, 0));
      const paths = [...rc.querySelectorAll('.recharts-curve'), ...st.querySelectorAll('path')].map(
        (e) => e.getAttribute('d') ?? '',
      );
      expect(paths.length).toBeGreaterThan(2);
      for (const d of paths) expect(d).not.toMatch(/[CcSsQq]/);
      cleanup();
    }
  });
});

describe('a day without a value (a ratio with nothing to divide)', () => {
  it('is a gap in the line, not a fall to 0, in both renderers', async () => {
    const days = data.slice(0, 7).map((p, i) => ({ ...p, a: i === 3 ? null : 100, b: 50 }));
    const frame = timeSeriesFrame({ ...input, data: days, stacked: false, width: 640 });
    const p = { ...props, data: days, kind: 'line' as const, stacked: false, frame };
    const rc = render(<RechartsTimeSeries {...p} />).container;
    const st = render(<StaticTimeSeries {...p} />).container;
    await new Promise((r) => setTimeout(r, 0));
    const [ours] = [...st.querySelectorAll('path.chart-mark')].map((e) => e.getAttribute('d') ?? '');
    const [theirs] = [...rc.querySelectorAll('.recharts-line-curve')].map((e) => e.getAttribute('d') ?? '');
    for (const d of [ours!, theirs!]) {
      // Two pieces, each moved to afresh; no point at the axis (y of 0).
      expect(d.match(/M/g)).toHaveLength(2);
      expect(numbers(d).filter((_, i) => i % 2 === 1)).not.toContain(frame.y(0));
    }
    // No dot where there is no value.
    expect(st.querySelectorAll('circle').length).toBeLessThan(2 * days.length);
  });
});

describe('the first paint and the interactive chart', () => {
  const days = data.slice(0, 12).map((p, i) => ({ ...p, a: 100 + 40 * (i % 3) }));
  for (const kind of ['line', 'area', 'bar'] as const) {
    it(`draw the same ${kind} chart from one style`, async () => {
      const frame = timeSeriesFrame(
        { ...input, data: days, band: kind === 'bar', stacked: kind !== 'line', width: 640 },
        custom,
      );
      const p = { ...props, data: days, kind, stacked: kind !== 'line', chartStyle: custom, frame };
      const rc = render(<RechartsTimeSeries {...p} />).container;
      const st = render(<StaticTimeSeries {...p} />).container;
      await new Promise((r) => setTimeout(r, 0));

      // Marks: geometry, colours, widths, opacity.
      const stroke = ['stroke', 'stroke-width'];
      const fill = ['fill', 'fill-opacity'];
      if (kind === 'bar') {
        const rects = [...rc.querySelectorAll('.recharts-bar-rectangle path')];
        const ours = [...st.querySelectorAll('rect.chart-mark')];
        expect(rects.length).toBe(ours.length);
        expect(rects.length).toBeGreaterThan(0);
        rects.forEach((r, i) => {
          const [x, y, w, h] = numbers(r.getAttribute('d'));
          const o = ours[i]!;
          expectClose(
            [x!, y!, w!, h!],
            ['x', 'y', 'width', 'height'].map((k) => Number(o.getAttribute(k))),
          );
          expect(inherited(r, 'fill')).toBe(inherited(o, 'fill'));
        });
      } else {
        const curves = [...rc.querySelectorAll(kind === 'line' ? '.recharts-line-curve' : '.recharts-area-curve')];
        const edges = [...st.querySelectorAll(kind === 'line' ? 'path.chart-mark' : 'path:not(.chart-mark)')];
        expect(curves.length).toBe(2);
        expect(look(edges, stroke)).toEqual(look(curves, stroke));
        curves.forEach((c, i) => expectClose(numbers(edges[i]!.getAttribute('d')), numbers(c.getAttribute('d'))));
        if (kind === 'area') {
          const areas = [...rc.querySelectorAll('.recharts-area-area')];
          const fills = [...st.querySelectorAll('path.chart-mark')];
          expect(look(fills, fill)).toEqual(look(areas, fill));
          areas.forEach((a, i) => expectClose(numbers(fills[i]!.getAttribute('d')), numbers(a.getAttribute('d'))));
        }
        const dots = ['cx', 'cy', 'r', 'stroke', 'stroke-width', 'fill'];
        expect(st.querySelectorAll('circle').length).toBe(kind === 'line' ? 2 * days.length : 0);
        expect(look(st.querySelectorAll('circle'), dots)).toEqual(look(rc.querySelectorAll('.recharts-dot'), dots));
      }

      // Grid, axis lines and tick marks: same places, same strokes.
      const rcGrid = [...rc.querySelectorAll('.recharts-cartesian-grid line')];
      const stGrid = [...st.querySelectorAll('.chart-grid line')];
      const sorted = (ls: Element[]) => ls.map(ends).sort((p, q) => p[0]! - q[0]! || p[1]! - q[1]!);
      expectClose(sorted(stGrid).flat(), sorted(rcGrid).flat());
      expect(new Set(look(rcGrid, ['stroke', 'stroke-dasharray']).map(String))).toEqual(
        new Set(look(stGrid, ['stroke', 'stroke-dasharray']).map(String)),
      );
      for (const [ours, theirs, theirLabels] of [
        ['.chart-x-axis', '.recharts-xAxis', '.recharts-xAxis-tick-labels'],
        ['.chart-y-axis', '.recharts-yAxis', '.recharts-yAxis-tick-labels'],
      ] as const) {
        const rcLines = [...rc.querySelectorAll(`${theirs} line`)];
        const stLines = [...st.querySelectorAll(`${ours} line`)];
        expectClose(sorted(stLines).flat(), sorted(rcLines).flat());
        expect(new Set(look(rcLines, ['stroke']).flat())).toEqual(new Set(look(stLines, ['stroke']).flat()));
        // Tick labels: same text, places and look.
        const label = ['fill', 'font-size', 'text-anchor'];
        const rcText = [...rc.querySelectorAll(`${theirLabels} text`)];
        const stText = [...st.querySelectorAll(`${ours} text`)];
        expect(rcText.length).toBeGreaterThan(2);
        expect(stText.map((t) => t.textContent)).toEqual(rcText.map((t) => t.textContent));
        expect(look(stText, label)).toEqual(look(rcText, label));
        expectClose(
          stText.flatMap((t) => [Number(t.getAttribute('x')), Number(t.getAttribute('y'))]),
          rcText.flatMap((t) => [Number(t.getAttribute('x')), Number(t.getAttribute('y'))]),
        );
        expect(stText.map((t) => t.getAttribute('dy'))).toEqual(
          rcText.map((t) => t.querySelector('tspan')!.getAttribute('dy')),
        );
      }
    });
  }
});

describe('marker labels', () => {
  it('go one line down for each earlier marker on the same day, so a rise and a fall of one week do not overlap', () => {
    const rows = markerRows([
      { x: '2026-08-03', label: '↓ #3' },
      { x: '2026-07-06', label: '↑ #1' },
      { x: '2026-08-03', label: '↑ #4' },
      { x: '2026-08-03', label: '↑ #5' },
    ]);
    expect(rows).toEqual([0, 0, 1, 2]);
  });
});
