import { describe, expect, it } from 'vitest';
import { categoryTickIndexes, labelWidth, maxValue, valueTicks } from './axis';

describe('valueTicks', () => {
  it('covers the largest value with round steps from zero', () => {
    expect(valueTicks(2_760_000)).toEqual([0, 500_000, 1_000_000, 1_500_000, 2_000_000, 2_500_000, 3_000_000]);
    expect(valueTicks(7)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(valueTicks(0.42)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5]);
  });
  it('still has an axis when everything is zero or missing', () => {
    expect(valueTicks(0)).toEqual([0, 1]);
    expect(valueTicks(NaN)).toEqual([0, 1]);
  });
  it('always ends at or above the maximum', () => {
    for (const max of [1, 9, 10, 11, 99, 101, 12_345, 999_999, 1e9 + 1])
      expect(valueTicks(max).at(-1)).toBeGreaterThanOrEqual(max);
  });
});

describe('maxValue', () => {
  const pts = [
    { a: 3, b: 4 },
    { a: 6, b: null },
    { a: 'x', b: 2 },
  ];
  it('sums the series per point when stacked, ignoring what is not a number', () => {
    expect(maxValue(pts, ['a', 'b'], true)).toBe(7);
  });
  it('takes the largest single value otherwise', () => {
    expect(maxValue(pts, ['a', 'b'], false)).toBe(6);
  });
});

describe('categoryTickIndexes', () => {
  const days = Array.from({ length: 30 }, (_, i) => `Nov ${i + 1}`);
  it('labels every point when there is room', () => {
    expect(categoryTickIndexes(days.slice(0, 5), 1000)).toEqual([0, 1, 2, 3, 4]);
  });
  it('keeps the last point and spaces the labels so they do not overlap', () => {
    const width = 600;
    const idx = categoryTickIndexes(days, width);
    expect(idx.at(-1)).toBe(29);
    const spacing = width / 29;
    for (let i = 1; i < idx.length; i++)
      expect((idx[i]! - idx[i - 1]!) * spacing).toBeGreaterThanOrEqual(labelWidth('Nov 30') + 24);
    expect(idx.length).toBeGreaterThan(5);
  });
  it('uses the band width for bars', () => {
    expect(categoryTickIndexes(['a', 'b'], 100, true)).toEqual([0, 1]);
    expect(categoryTickIndexes([], 100)).toEqual([]);
  });
});
