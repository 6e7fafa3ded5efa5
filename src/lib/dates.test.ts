import { describe, expect, it } from 'vitest';
import {
  addDays,
  clampRange,
  daysBetween,
  dayToMs,
  eachDay,
  formatDayLong,
  formatDayShort,
  isDay,
  isWeekend,
  lastDays,
  previousPeriod,
  addMonths,
  comparisonLabel,
  comparisonWords,
  monthEnd,
  monthStart,
  quarterStart,
  weekStart,
  yesterdayUtc,
} from './dates';

describe('isDay', () => {
  it.each([
    ['2026-01-14', true],
    ['2024-02-29', true],
    ['2026-02-29', false],
    ['2026-13-01', false],
    ['2026-1-14', false],
    ['2026-01-14T00:00:00Z', false],
    ['', false],
    [null, false],
    [20260114, false],
  ])('%s → %s', (s, ok) => expect(isDay(s)).toBe(ok));
});

describe('day arithmetic is UTC whatever the zone', () => {
  it.each([
    ['2026-01-31', 1, '2026-02-01'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2024-02-28', 1, '2024-02-29'],
    ['2026-03-29', 1, '2026-03-30'], // a European DST change
    ['2026-11-01', 1, '2026-11-02'], // an American DST change
    ['2026-03-01', -1, '2026-02-28'],
  ])('%s + %i = %s', (d, n, want) => expect(addDays(d, n)).toBe(want));

  it('counts days across a DST change', () => {
    expect(daysBetween('2026-03-01', '2026-04-01')).toBe(31);
    expect(eachDay('2026-10-30', '2026-11-02')).toEqual(['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02']);
  });

  it('yesterday is taken in UTC', () => {
    expect(yesterdayUtc(Date.parse('2026-03-01T00:30:00Z'))).toBe('2026-02-28');
    expect(yesterdayUtc(Date.parse('2026-02-28T23:59:59Z'))).toBe('2026-02-27');
    expect(yesterdayUtc(Date.parse('2027-01-01T00:00:00Z'))).toBe('2026-12-31');
  });

  it.each([
    ['2026-01-14', '2026-01-12'], // Wednesday
    ['2026-01-12', '2026-01-12'], // Monday
    ['2026-01-18', '2026-01-12'], // Sunday
    ['2027-01-01', '2026-12-28'], // across a year end
  ])('week of %s starts %s', (d, want) => expect(weekStart(d)).toBe(want));

  it('weekends', () => {
    expect(isWeekend('2026-11-21')).toBe(true);
    expect(isWeekend('2026-11-22')).toBe(true);
    expect(isWeekend('2026-11-23')).toBe(false);
  });

  it('formats days in UTC', () => {
    expect(formatDayShort('2026-01-14')).toBe('Jan 14');
    expect(formatDayLong('2026-12-31')).toBe('Dec 31, 2026');
  });
});

describe('ranges', () => {
  it('clamps to history start and the latest day, and swaps reversed ends', () => {
    expect(clampRange({ start: '2025-12-01', end: '2026-12-01' }, '2026-11-21')).toEqual({
      start: '2026-01-14',
      end: '2026-11-21',
    });
    expect(clampRange({ start: '2026-05-10', end: '2026-05-01' }, '2026-11-21')).toEqual({
      start: '2026-05-01',
      end: '2026-05-10',
    });
  });
  it('last N days end on the latest day', () => {
    expect(lastDays(30, '2026-11-21')).toEqual({ start: '2026-10-23', end: '2026-11-21' });
    expect(lastDays(90, '2026-02-01')).toEqual({ start: '2026-01-14', end: '2026-02-01' });
  });
  it('the previous period has the same length, or is null before history', () => {
    expect(previousPeriod({ start: '2026-03-02', end: '2026-03-08' })).toEqual({
      start: '2026-02-23',
      end: '2026-03-01',
    });
    expect(previousPeriod({ start: '2026-01-20', end: '2026-01-30' })).toBeNull();
    expect(previousPeriod({ start: '2026-01-25', end: '2026-02-04' })).toEqual({
      start: '2026-01-14',
      end: '2026-01-24',
    });
  });
});

describe('calendar months', () => {
  it('compares a calendar month, or its first days, with the previous calendar month, and says so', () => {
    // A whole month against the whole month before, whatever their lengths.
    expect(previousPeriod({ start: '2026-03-01', end: '2026-03-31' })).toEqual({
      start: '2026-02-01',
      end: '2026-02-28',
    });
    expect(comparisonLabel({ start: '2026-03-01', end: '2026-03-31' })).toBe('vs February');
    // A month to date against the same days of the month before, cut at its end.
    expect(previousPeriod({ start: '2026-11-01', end: '2026-11-26' })).toEqual({
      start: '2026-10-01',
      end: '2026-10-26',
    });
    expect(comparisonLabel({ start: '2026-11-01', end: '2026-11-26' })).toBe('vs Oct 1–26');
    expect(previousPeriod({ start: '2026-03-01', end: '2026-03-30' })).toEqual({
      start: '2026-02-01',
      end: '2026-02-28',
    });
    expect(previousPeriod({ start: '2026-03-01', end: '2026-03-07' })).toEqual({
      start: '2026-02-01',
      end: '2026-02-07',
    });
    // Across the new year.
    expect(previousPeriod({ start: '2027-01-01', end: '2027-01-31' })).toEqual({
      start: '2026-12-01',
      end: '2026-12-31',
    });
    // February's previous month begins before history: no comparison.
    expect(previousPeriod({ start: '2026-02-01', end: '2026-02-28' })).toBeNull();
    // Anything else: the same length before, as always.
    expect(comparisonLabel({ start: '2026-03-02', end: '2026-03-31' })).toBe('vs previous period');
    expect(comparisonLabel({ start: '2026-03-01', end: '2026-04-30' })).toBe('vs previous period');
    // A quarter's first two months are a quarter's range (below): against Jan 1 – Feb 28, before the history.
    expect(previousPeriod({ start: '2026-04-01', end: '2026-05-31' })).toBeNull();
  });

  it('finds month and quarter bounds as UTC days', () => {
    expect(monthStart('2026-11-27')).toBe('2026-11-01');
    expect(monthEnd('2026-02-10')).toBe('2026-02-28');
    expect(monthEnd('2028-02-10')).toBe('2028-02-29');
    expect(addMonths('2026-11-27', 2)).toBe('2027-01-01');
    expect(addMonths('2026-01-15', -1)).toBe('2025-12-01');
    expect(quarterStart('2026-11-27')).toBe('2026-10-01');
    expect(quarterStart('2026-03-31')).toBe('2026-01-01');
    expect(quarterStart('2026-04-01')).toBe('2026-04-01');
  });
});

describe('day labels match Intl en-US in UTC', () => {
  it('for every day of the year and any viewer time zone', () => {
    const short = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
    const long = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
    for (const d of eachDay('2026-01-01', '2027-12-31')) {
      expect(formatDayShort(d)).toBe(short.format(dayToMs(d)));
      expect(formatDayLong(d)).toBe(long.format(dayToMs(d)));
    }
  });
});

describe('calendar quarters', () => {
  it('compares a quarter, or its first months, with the same days of the previous quarter, and says so', () => {
    // "This quarter" on Nov 22: Oct 1 – Nov 21 against Jul 1 – Aug 21, not the 52 days before it.
    expect(previousPeriod({ start: '2026-10-01', end: '2026-11-21' })).toEqual({
      start: '2026-07-01',
      end: '2026-08-21',
    });
    expect(comparisonLabel({ start: '2026-10-01', end: '2026-11-21' })).toBe('vs Jul 1 – Aug 21');
    // A whole quarter against the whole quarter before.
    expect(previousPeriod({ start: '2026-07-01', end: '2026-09-30' })).toEqual({
      start: '2026-04-01',
      end: '2026-06-30',
    });
    expect(comparisonLabel({ start: '2026-07-01', end: '2026-09-30' })).toBe('vs Q2 2026');
    // The same day of the month, or its last: May 31 has no June 31.
    expect(previousPeriod({ start: '2026-07-01', end: '2026-08-31' })).toEqual({
      start: '2026-04-01',
      end: '2026-05-31',
    });
    expect(previousPeriod({ start: '2026-10-01', end: '2026-12-31' })).toEqual({
      start: '2026-07-01',
      end: '2026-09-30',
    });
    // Q1 2026 starts before the history: no comparison for Q2.
    expect(previousPeriod({ start: '2026-04-01', end: '2026-06-30' })).toBeNull();
    // Within the quarter's first month it is a month's range.
    expect(previousPeriod({ start: '2026-10-01', end: '2026-10-20' })).toEqual({
      start: '2026-09-01',
      end: '2026-09-20',
    });
    // Not starting on the quarter's first day: the days just before.
    expect(previousPeriod({ start: '2026-10-02', end: '2026-11-21' })).toEqual({
      start: '2026-08-12',
      end: '2026-10-01',
    });
  });
});

describe('what a range is compared with, in words', () => {
  it('names the days, the month or the quarter before', () => {
    const words = (start: string, end: string) => {
      const r = { start, end };
      return comparisonWords(r, previousPeriod(r)!);
    };
    expect(words('2026-10-23', '2026-11-21')).toBe('the 30 days before');
    expect(words('2026-11-01', '2026-11-21')).toBe('the same days of the month before');
    expect(words('2026-08-01', '2026-08-31')).toBe('the month before');
    expect(words('2026-10-01', '2026-11-21')).toBe('the same days of the quarter before');
    expect(words('2026-07-01', '2026-09-30')).toBe('the quarter before');
  });
});
