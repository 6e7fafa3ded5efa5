import { describe, expect, it } from 'vitest';
import { parseHolidays } from './holidays';

describe('parseHolidays', () => {
  it('reads days separated by commas, spaces or lines, with comments, sorted and once each', () => {
    expect(parseHolidays('2026-12-26, 2026-12-25;2026-12-25', 'HOLIDAYS')).toEqual(['2026-12-25', '2026-12-26']);
    expect(parseHolidays('# Acme, 2026\n2027-01-01  # New Year\n\n2026-12-25\r\n', 'HOLIDAYS_FILE (h.txt)')).toEqual([
      '2026-12-25',
      '2027-01-01',
    ]);
    expect(parseHolidays('', 'HOLIDAYS')).toEqual([]);
  });

  it.each([
    ['2026-12-25,Dec 26', 'HOLIDAYS: "Dec" is not a day (YYYY-MM-DD, e.g. 2026-12-25)'],
    ['2026-12-25,2026-02-30', 'HOLIDAYS: "2026-02-30" is not a day (YYYY-MM-DD, e.g. 2026-12-25)'],
    ['2026-12-25T00:00', 'HOLIDAYS: "2026-12-25T00:00" is not a day (YYYY-MM-DD, e.g. 2026-12-25)'],
  ])('refuses %j, naming the entry', (text, message) => {
    expect(() => parseHolidays(text, 'HOLIDAYS')).toThrow(message);
  });

  it('names the line of a bad entry in a file', () => {
    expect(() => parseHolidays('2026-12-25\n# fine\n2026-13-01 # Boxing Day\n', 'HOLIDAYS_FILE (h.txt)')).toThrow(
      'HOLIDAYS_FILE (h.txt) line 3: "2026-13-01" is not a day (YYYY-MM-DD, e.g. 2026-12-25)',
    );
  });
});
