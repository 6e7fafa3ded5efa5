import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countColumn,
  formatChange,
  formatCompact,
  formatDecimal,
  formatExact,
  formatPercent,
  percentColumn,
  tickColumn,
} from './format';
import { moneyFormat } from './money';

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
    expect(formatChange(-0.04)).toBe('−4.0%');
    expect(formatExact(NaN)).toBe('–');
  });
});

describe('one format for a column', () => {
  it('counts: one unit in every cell, exact with the same decimals when small', () => {
    // Below a million, whole numbers: never "12.8K" above "540".
    const big = countColumn([12_800, 8_800, 540, 7]);
    expect([12_800, 8_800, 540, 7].map(big)).toEqual(['12,800', '8,800', '540', '7']);
    expect(countColumn([15_732.16, 3.5])(15_732.16)).toBe('15,732');
    // From a million, the largest's unit in every cell: never "1M" above "877K".
    const million = countColumn([1_000_400, 877_000, 12_345, 400, 0]);
    expect([1_000_400, 877_000, 12_345, 400, 0].map(million)).toEqual(['1.0M', '0.9M', '<0.1M', '<0.1M', '0']);
    expect(countColumn([999_960, 877_000])(999_960)).toBe('999,960');
    const huge = countColumn([486_921_000, 172_732_000, 3_400_000]);
    expect([486_921_000, 172_732_000, 3_400_000].map(huge)).toEqual(['487M', '173M', '3M']);
    const billions = countColumn([45_210_000_000, 877_000_000, -3_400_000_000]);
    expect([45_210_000_000, 877_000_000, -3_400_000_000].map(billions)).toEqual(['45.2B', '0.9B', '-3.4B']);
    // The same numbers one at a time read differently: the column is what makes them agree.
    expect([formatCompact(12_800), formatCompact(8_800)]).toEqual(['12.8K', '8,800']);
    expect(formatCompact.forColumn).toBe(countColumn);
    expect(countColumn([NaN, 3])(NaN)).toBe('–');
  });

  it('changes: one decimal always, so a row or column of them reads alike', () => {
    expect([0.08, 0.079, -0.2, 0, 12.345].map((c) => formatChange(c))).toEqual([
      '+8.0%',
      '+7.9%',
      '−20.0%',
      '0.0%',
      '+1,234.5%',
    ]);
    expect([0.04, -0.125, 0].map((d) => formatChange(d, ' pts'))).toEqual(['+4.0 pts', '−12.5 pts', '0.0 pts']);
  });

  it('a daily average of people keeps one decimal and the thousands separator', () => {
    expect(formatDecimal(1141.66, 1)).toBe('1,141.7');
    expect(formatDecimal(7, 1)).toBe('7.0');
    expect(formatDecimal(NaN, 1)).toBe('–');
  });

  it('axis ticks: the largest tick’s unit on every tick, with the decimals the finest needs', () => {
    const ticks = [0, 500_000, 1_000_000, 1_500_000, 2_000_000];
    expect(ticks.map(tickColumn(ticks))).toEqual(['0', '0.5M', '1.0M', '1.5M', '2.0M']);
    const quarters = [0, 250_000, 500_000, 750_000, 1_000_000];
    expect(quarters.map(tickColumn(quarters))).toEqual(['0', '0.25M', '0.50M', '0.75M', '1.00M']);
    const thousands = [0, 2_000, 4_000, 6_000, 8_000, 10_000];
    expect(thousands.map(tickColumn(thousands))).toEqual(['0', '2K', '4K', '6K', '8K', '10K']);
    const small = [0, 0.5, 1, 1.5];
    expect(small.map(tickColumn(small))).toEqual(['0', '0.5', '1.0', '1.5']);
  });

  it('percentages: the same decimals in every cell', () => {
    const p = percentColumn([0.18, 0.411, 1]);
    expect([0.18, 0.411, 1].map(p)).toEqual(['18.0%', '41.1%', '100.0%']);
    const q = percentColumn([0.18, 0.41]);
    expect([0.18, 0.41].map(q)).toEqual(['18%', '41%']);
    expect(formatPercent.forColumn).toBe(percentColumn);
    expect(formatPercent.exact(0.12345)).toBe('12.35%');
  });

  it('money: whole units in every cell once an amount reaches 100, cents otherwise; the cent in full', () => {
    const usd = moneyFormat('USD');
    expect([546, 76.13].map(usd.forColumn([546, 76.13]))).toEqual(['$546', '$76']);
    expect([46, 76.13].map(usd.forColumn([46, 76.13]))).toEqual(['$46.00', '$76.13']);
    expect(usd.exact(76.125)).toBe('$76.13');
    expect(usd(76.13)).toBe('$76.13');
  });
});
