import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HISTORY_START, addDays, clampRange, dayToMs, daysBetween, isDay, msToDay } from './dates';
import { parseRange, rangeParams } from './url-state';

const day = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

describe('codecs round-trip (property-based)', () => {
  it('day ↔ milliseconds', () => {
    fc.assert(fc.property(day, (d) => isDay(d) && msToDay(dayToMs(d)) === d));
  });
  it('adding n days then counting them gives n back', () => {
    fc.assert(fc.property(day, fc.integer({ min: -5000, max: 5000 }), (d, n) => daysBetween(d, addDays(d, n)) === n));
  });
  it('a range written to the URL reads back the same, clamped once', () => {
    const latest = '2026-11-21';
    fc.assert(
      fc.property(day, day, (a, b) => {
        const r = clampRange({ start: a, end: b }, latest);
        const { start, end } = rangeParams(r, latest);
        const params = new URLSearchParams(start && end ? { start, end } : {});
        expect(parseRange(params, latest)).toEqual(r);
        expect(r.start >= HISTORY_START && r.end <= latest && r.start <= r.end).toBe(true);
      }),
    );
  });
  it('any string in the URL parses to a valid range', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (s, e) => {
        const r = parseRange(new URLSearchParams({ start: s, end: e }), '2026-11-21');
        expect(isDay(r.start) && isDay(r.end) && r.start <= r.end).toBe(true);
      }),
    );
  });
});
