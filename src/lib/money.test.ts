import { describe, expect, it } from 'vitest';
import { formatMoney, formatMoneyAxis, formatMoneyExact, prepareMoneyFormats } from './money';

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

  it('writes an axis label short, with its currency', () => {
    expect([0, 0.5, 600, 3500, 12_000, 1_250_000].map((n) => formatMoneyAxis(n, 'EUR'))).toEqual([
      '€0',
      '€0.5',
      '€600',
      '€3.5K',
      '€12K',
      '€1.3M',
    ]);
    expect(formatMoneyAxis(3000, 'USD')).toBe('$3K');
  });
});
