import { describe, expect, it } from 'vitest';
import { parsePrices, priceOf, type PriceList } from './prices';

const ok = (text: string): PriceList => {
  const r = parsePrices(text);
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  return r.prices;
};
const refused = (text: string) => {
  const r = parsePrices(text);
  if (r.ok) throw new Error('accepted');
  return r.errors.map((e) => e.message);
};

const LIST = `{
  "currency": "EUR",
  "prices": [
    { "from": "2026-01-14", "perMillionCredits": 8 },
    { "from": "2026-06-01", "perMillionCredits": 6 },
    { "from": "2026-01-14", "tier": "thinking", "perMillionCredits": 12 },
    { "from": "2026-09-01", "model": "model-large", "perMillionCredits": 20 }
  ]
}`;

describe('the price list', () => {
  it('prices a day by the most specific entry in force: the model, else its tier, else the default', () => {
    const p = ok(LIST);
    expect(p.currency).toBe('EUR');
    expect(priceOf(p, '2026-01-14', 'model-small', 'standard')).toBe(8);
    expect(priceOf(p, '2026-05-31', 'model-small', 'standard')).toBe(8);
    expect(priceOf(p, '2026-06-01', 'model-small', 'standard')).toBe(6); // the later default from its day
    expect(priceOf(p, '2026-06-01', 'model-small', 'thinking')).toBe(12); // a tier beats the default
    expect(priceOf(p, '2026-08-31', 'model-large', 'thinking')).toBe(12); // the model's price is not in force yet
    expect(priceOf(p, '2026-09-01', 'model-large', 'thinking')).toBe(20); // a model beats its tier
    expect(priceOf(p, '2026-09-01', 'model-large', 'standard')).toBe(20);
  });

  it('refuses each problem naming its line, and a list without a default from the start of history', () => {
    expect(refused('')).toEqual(['the file is empty']);
    expect(
      refused('{"currency": "USD", "prices": [\n  {"from": "2026-01-14", "perMillionCredits": 8},\n]}')[0],
    ).toMatch(/^line 3: not valid JSON/);
    expect(refused('[1]')[0]).toMatch(/^line 1: the file must be a JSON object/);
    // Nested deeper than the parser's stack: refused, not thrown (a change is read in a watch's callback).
    const deep = `{"currency": "USD", "prices": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(refused(deep)).toEqual(['not valid JSON (nested too deeply)']);
    const many = refused(`{
  "currency": "usd",
  "prices": [
    { "from": "2026-01-14", "perMillionCredits": 8 },
    { "from": "14/01/2026", "perMillionCredits": 8 },
    { "from": "2026-02-01", "perMillionCredits": -1 },
    { "from": "2026-02-01", "perMillionCredits": 1, "model": "m", "tier": "thinking" },
    { "from": "2026-02-01", "perMillionCredits": 1, "currency": "USD" },
    { "from": "2026-01-14", "perMillionCredits": 9 }
  ],
  "discount": 0.1
}`);
    expect(many).toEqual([
      'line 11: unknown field "discount" (expected "currency" and "prices")',
      'line 2: "currency" must be a three-letter ISO code in capitals, like "USD" or "EUR"',
      'line 5: "from" must be a day like 2026-01-14',
      'line 6: "perMillionCredits" must be a number, zero or more',
      'line 7: an entry prices a model or a tier, not both: write two entries',
      'line 8: unknown field "currency" (an entry has "from", "perMillionCredits", and "model" or "tier")',
      'line 9: a second price for the default from 2026-01-14 (the first is on line 4)',
    ]);
    expect(
      refused(
        '{"currency": "USD",\n "prices": [\n {"from": "2026-02-01", "perMillionCredits": 8},\n {"from": "2026-01-14", "tier": "thinking", "perMillionCredits": 8}]}',
      ),
    ).toEqual([
      'line 2: no default price (without "model" or "tier") applies from 2026-01-14, the start of history: every day needs a price',
    ]);
    expect(refused('{"prices": []}')[0]).toBe('no "currency": name it by its ISO code, like "USD" or "EUR"');
  });
});
