// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TimeSeriesChart } from './TimeSeriesChart';

// Draws are counted on the first-paint renderer, at a fixed width (jsdom lays nothing out).
const draws = vi.hoisted(() => ({ count: 0 }));
vi.mock('./StaticTimeSeries', () => ({
  StaticTimeSeries: () => {
    draws.count++;
    return <svg data-chart="static" />;
  },
}));
vi.mock('./use-width', () => ({ useWidth: () => [{ current: null }, 600] as const }));
vi.mock('./chart-engine', () => ({ useChartEngine: () => null }));

afterEach(() => {
  cleanup();
  draws.count = 0;
});

const POINTS = [
  { date: '2026-05-07', a: 1, b: 2 },
  { date: '2026-05-08', a: 3, b: 4 },
];
const series = () => [
  { key: 'a', label: 'A', color: 'var(--chart-1)' },
  { key: 'b', label: 'B', color: 'var(--chart-2)' },
];

describe('TimeSeriesChart', () => {
  it('is drawn again only when what it draws changes, not for series built afresh alike', () => {
    const chart = (data: typeof POINTS, s: ReturnType<typeof series>, summary = 'A and B') => (
      <TimeSeriesChart data={data} series={s} summary={summary} />
    );
    const r = render(chart(POINTS, series()));
    expect(draws.count).toBe(1);
    // A page's re-render: the same points, series alike but new objects.
    r.rerender(chart(POINTS, series()));
    expect(draws.count).toBe(1);
    // A series renamed, new points, a new summary: drawn again each time.
    r.rerender(chart(POINTS, [series()[0]!, { ...series()[1]!, label: 'Bee' }]));
    expect(draws.count).toBe(2);
    r.rerender(chart([...POINTS], series()));
    expect(draws.count).toBe(3);
    r.rerender(chart(POINTS, series(), 'A and B, per week'));
    expect(draws.count).toBe(4);
    expect(r.getByRole('figure', { name: 'A and B, per week' })).toBeTruthy();
  });
});
