import { describe, expect, it } from 'vitest';
import { formatMoney, formatMoneyExact, moneyTicks, prepareMoneyFormats } from './money';

describe('money', () => {
  it('writes amounts in the price list’s currency: cents under 100, whole units above', () => {
    prepareMoneyFormats('EUR');
    expect(formatMoney(12.345, 'EUR')).toBe('€12.35');
    expect(formatMoney(1234.5, 'EUR')).toBe('€1,235');
    expect(formatMoneyExact(1234.5, 'EUR')).toBe('€1,234.50');
    expect(formatMoney(null, 'EUR')).toBe('–');
  });

  it('prepares nothing without a currency, and never throws for one Intl does not know (the app starts anyway)', () => {
    expect(() => prepareMoneyFormats(null)).not.toThrow();
    expect(() => prepareMoneyFormats('xx')).not.toThrow();
    expect(() => formatMoney(5, 'xx')).toThrow(RangeError);
  });

  it('writes an axis in one unit, with its currency and the decimals the finest tick needs', () => {
    const ticks = [0, 500, 1_000, 1_500, 2_000, 2_500, 3_000, 3_500];
    expect(ticks.map(moneyTicks(ticks, 'USD'))).toEqual([
      '$0',
      '$0.5K',
      '$1.0K',
      '$1.5K',
      '$2.0K',
      '$2.5K',
      '$3.0K',
      '$3.5K',
    ]);
    const whole = [0, 5_000, 10_000, 15_000];
    expect(whole.map(moneyTicks(whole, 'EUR'))).toEqual(['€0', '€5K', '€10K', '€15K']);
    const millions = [0, 250_000, 500_000, 750_000, 1_000_000];
    expect(millions.map(moneyTicks(millions, 'EUR'))).toEqual(['€0', '€0.25M', '€0.50M', '€0.75M', '€1.00M']);
    const cents = [0, 0.5, 1, 1.5];
    expect(cents.map(moneyTicks(cents, 'USD'))).toEqual(['$0', '$0.50', '$1.00', '$1.50']);
    const small = [0, 200, 400, 600];
    expect(small.map(moneyTicks(small, 'USD'))).toEqual(['$0', '$200', '$400', '$600']);
  });
});
