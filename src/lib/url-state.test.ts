import { describe, expect, it } from 'vitest';
import { PRESETS, parseRange, presetOf, rangeParams } from './url-state';

const latest = '2026-11-21';

describe('range in the URL', () => {
  it('defaults to the last 30 complete days', () => {
    expect(parseRange(new URLSearchParams(''), latest)).toEqual({ start: '2026-10-23', end: '2026-11-21' });
    expect(parseRange(new URLSearchParams('start=bad&end=2026-11-01'), latest)).toEqual({
      start: '2026-10-23',
      end: latest,
    });
  });
  it('clamps what the URL asks for', () => {
    expect(parseRange(new URLSearchParams('start=2025-01-01&end=2026-11-22'), latest)).toEqual({
      start: '2026-01-14',
      end: latest,
    });
  });
  it('round-trips through the parameters', () => {
    const r = { start: '2026-02-01', end: '2026-02-28' };
    const p = new URLSearchParams(rangeParams(r, latest) as Record<string, string>);
    expect(parseRange(p, latest)).toEqual(r);
  });
  it('leaves the URL clean for the default range', () => {
    expect(rangeParams({ start: '2026-10-23', end: latest }, latest)).toEqual({ start: undefined, end: undefined });
  });
  it('recognises presets', () => {
    expect(presetOf({ start: '2026-11-15', end: latest }, latest)).toBe('7d');
    expect(presetOf({ start: '2026-01-14', end: latest }, latest)).toBe('all');
    expect(presetOf({ start: '2026-11-14', end: latest }, latest)).toBeUndefined();
  });

  it('recognises the calendar presets', () => {
    expect(presetOf({ start: '2026-11-01', end: latest }, latest)).toBe('mtd');
    expect(presetOf({ start: '2026-10-01', end: '2026-10-31' }, latest)).toBe('lastMonth');
  });
});

describe('calendar presets', () => {
  const ranges = (l: string) => Object.fromEntries(PRESETS.map((p) => [p.id, p.range(l)]));

  it('give this month and quarter to date, and the last whole month and quarter', () => {
    expect(ranges('2026-11-26')).toMatchObject({
      mtd: { start: '2026-11-01', end: '2026-11-26' },
      lastMonth: { start: '2026-10-01', end: '2026-10-31' },
      qtd: { start: '2026-10-01', end: '2026-11-26' },
      lastQuarter: { start: '2026-07-01', end: '2026-09-30' },
    });
  });

  it("take today's month and quarter (the day after the latest complete day): none of it complete yet on their first day", () => {
    // Today is 2026-10-01: October has no complete day, September is last month, Q3 last quarter.
    expect(ranges('2026-09-30')).toMatchObject({
      mtd: null,
      lastMonth: { start: '2026-09-01', end: '2026-09-30' },
      qtd: null,
      lastQuarter: { start: '2026-07-01', end: '2026-09-30' },
    });
    // Across the new year.
    expect(ranges('2027-01-05')).toMatchObject({
      mtd: { start: '2027-01-01', end: '2027-01-05' },
      lastMonth: { start: '2026-12-01', end: '2026-12-31' },
      qtd: { start: '2027-01-01', end: '2027-01-05' },
      lastQuarter: { start: '2026-10-01', end: '2026-12-31' },
    });
  });

  it('are clamped to history, and missing where all of it lies before', () => {
    expect(ranges('2026-02-10')).toMatchObject({
      mtd: { start: '2026-02-01', end: '2026-02-10' },
      lastMonth: { start: '2026-01-14', end: '2026-01-31' },
      qtd: { start: '2026-01-14', end: '2026-02-10' },
      lastQuarter: null,
    });
    expect(ranges('2026-01-20')).toMatchObject({
      mtd: { start: '2026-01-14', end: '2026-01-20' },
      lastMonth: null,
    });
  });
});
