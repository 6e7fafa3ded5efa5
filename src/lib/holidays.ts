/** The organization's holidays: UTC days it lists (the server's HOLIDAYS and HOLIDAYS_FILE), left out of daily charts. */
import { isDay, type Day } from './dates';

/**
 * The days of a list of holidays, sorted and once each: days as YYYY-MM-DD, separated by commas, spaces or
 * new lines, anything after `#` on a line a comment (`2026-12-25  # Christmas`). An entry that is not a day
 * is refused by an error naming it, `source` and, in a text of several lines, its line.
 */
export function parseHolidays(text: string, source: string): Day[] {
  const days = new Set<Day>();
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    for (const entry of line.replace(/#.*/, '').split(/[\s,;]+/)) {
      if (entry === '') continue;
      if (!isDay(entry))
        throw new Error(
          `${source}${lines.length > 1 ? ` line ${i + 1}` : ''}: "${entry}" is not a day (YYYY-MM-DD, e.g. 2026-12-25)`,
        );
      days.add(entry);
    }
  });
  return [...days].sort();
}
