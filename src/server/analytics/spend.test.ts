import { describe, expect, it } from 'vitest';
import type { PriceList } from '../spend/prices';
import type { Analytics } from './engine';
import { priceTableOf } from './spend';

const LIST: PriceList = { currency: 'USD', entries: [{ from: '2026-01-14', perMillionCredits: 10, line: 1 }] };

/** An engine of one model over the history's first week, counting the price tables made. */
function engine() {
  let generation = 0;
  const made: number[] = [];
  const a = {
    generation: () => generation,
    rows: async (sql: string) =>
      sql.includes('max(day)') ? [{ day: '2026-01-20' }] : [{ model: 'model-a', tier: 'standard' }],
    replaceTable: async (_name: string, _columns: unknown, rows: unknown[][]) => {
      await new Promise((ok) => setTimeout(ok, 10));
      made.push(rows.length);
    },
  } as unknown as Analytics;
  return { a, made, change: () => generation++ };
}

describe('the price table', () => {
  it('is made once for readers asking together, and again only when the copy or the list changes', async () => {
    const { a, made, change } = engine();
    const prices = priceTableOf(a);
    await Promise.all([prices(LIST), prices(LIST), prices(LIST)]);
    expect(made).toEqual([7]);
    await prices(LIST);
    expect(made).toEqual([7]);
    // The copy changed, its days and models did not: nothing to make.
    change();
    await prices(LIST);
    expect(made).toEqual([7]);
    await prices({ ...LIST, entries: [{ ...LIST.entries[0]!, perMillionCredits: 12 }] });
    expect(made).toEqual([7, 7]);
  });
});
