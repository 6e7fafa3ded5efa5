/**
 * The price list's changes as marks on the charts. A price list holds prices in force from days on
 * (`spend/prices.ts`), and a day's spend is priced by the entries in force that day, whenever the file
 * was loaded: so the truthful marks are the days an entry starts, after the first day of history (whose
 * entries are the first prices, not a change). Reloading the file re-prices every day by those entries;
 * the day of the reload is not marked, because no day's price changed on it.
 */
import type { Mark } from '../../api/marks';
import { HISTORY_START, type DayRange } from '../../lib/dates';
import type { PriceEntry, PriceList } from '../spend/prices';

const what = (e: PriceEntry) =>
  e.model !== undefined ? `model ${e.model}` : e.tier !== undefined ? `the ${e.tier} tier` : 'the default price';

/** What an entry priced before it: the previous entry of the same model, tier or default, in words. */
function before(e: PriceEntry, list: PriceList): string {
  const same = list.entries
    .filter((o) => o.model === e.model && o.tier === e.tier && o.from < e.from)
    .sort((a, b) => (a.from < b.from ? 1 : -1))[0];
  if (same) return `was ${same.perMillionCredits} ${list.currency}`;
  return e.model !== undefined ? 'was priced by its tier or the default' : 'was priced by the default';
}

/** The price list's changes from `range.start` to `range.end`, one mark per entry, by day. */
export function priceMarks(list: PriceList | null, range: DayRange | null): Mark[] {
  if (!list) return [];
  return list.entries
    .filter((e) => e.from > HISTORY_START && (!range || (e.from >= range.start && e.from <= range.end)))
    .sort((a, b) => (a.from === b.from ? a.line - b.line : a.from < b.from ? -1 : 1))
    .map((e, i) => ({
      id: `prices:${e.from}:${i}`,
      day: e.from,
      team: '',
      text: `Price change: ${what(e)} is ${e.perMillionCredits} ${list.currency} per million credits (${before(e, list)}).`,
      source: 'prices' as const,
      author: null,
      updatedAt: null,
      editable: false,
    }));
}
