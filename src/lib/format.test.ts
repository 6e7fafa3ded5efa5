import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatChange, formatCompact, formatExact, formatPercent } from './format';

const COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const EXACT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const PERCENT = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

/** Doubles of every kind: integers, few decimals (the rounding edges), anything. */
const numbers = (max: number) =>
  fc.oneof(
    fc.integer({ min: -max, max }),
    fc.integer({ min: -max * 1000, max: max * 1000 }).map((n) => n / 1000),
    fc.double({ min: -max, max, noNaN: true }),
  );

describe('number formatting matches Intl en-US', () => {
  it('exact', () => {
    fc.assert(
      fc.property(numbers(1e15), (n) => {
        expect(formatExact(n)).toBe(EXACT.format(n));
      }),
      { numRuns: 5000 },
    );
  });
  it('compact', () => {
    fc.assert(
      fc.property(numbers(1e14), (n) => {
        expect(formatCompact(n)).toBe(Math.abs(n) < 10_000 ? EXACT.format(n) : COMPACT.format(n));
      }),
      { numRuns: 5000 },
    );
  });
  it('percent', () => {
    fc.assert(
      fc.property(numbers(1e6), (n) => {
        expect(formatPercent(n)).toBe(PERCENT.format(n));
      }),
      { numRuns: 5000 },
    );
  });
  it('at the edges that carry into the next digit or unit', () => {
    for (const n of [0, -0, 0.005, 1.005, 2.675, 9.995, 99.995, 999_949, 999_950, 999_999, 9_999_999, 1e-7, 123e-9])
      expect([formatExact(n), formatCompact(n), formatPercent(n)]).toEqual([
        EXACT.format(n),
        Math.abs(n) < 10_000 ? EXACT.format(n) : COMPACT.format(n),
        PERCENT.format(n),
      ]);
    expect(formatCompact(45_210_000)).toBe('45.2M');
    expect(formatCompact(999_960)).toBe('1M');
    expect(formatExact(1234567.891)).toBe('1,234,567.89');
    expect(formatPercent(0.1234)).toBe('12.3%');
    expect(formatChange(-0.04)).toBe('−4%');
    expect(formatExact(NaN)).toBe('–');
  });
});
