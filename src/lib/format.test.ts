import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countColumn, formatChange, formatCompact, formatExact, formatPercent, percentColumn } from './format';
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
    expect(formatChange(-0.04)).toBe('−4%');
    expect(formatExact(NaN)).toBe('–');
  });
});

describe('one format for a column', () => {
  it('counts: compact in every cell when the largest needs it, exact with the same decimals otherwise', () => {
    const big = countColumn([12_800, 8_800, 540, 7]);
    expect([12_800, 8_800, 540, 7].map(big)).toEqual(['12.8K', '8.8K', '540', '7']);
    const small = countColumn([8_800, 76.13, 5]);
    expect([8_800, 76.13, 5].map(small)).toEqual(['8,800.00', '76.13', '5.00']);
    const whole = countColumn([9_999, 12, 0]);
    expect([9_999, 12, 0].map(whole)).toEqual(['9,999', '12', '0']);
    // The same numbers one at a time read differently: the column is what makes them agree.
    expect([formatCompact(12_800), formatCompact(8_800)]).toEqual(['12.8K', '8,800']);
    expect(formatCompact.forColumn).toBe(countColumn);
    expect(countColumn([NaN, 3])(NaN)).toBe('–');
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
