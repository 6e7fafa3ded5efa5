import { describe, expect, it } from 'vitest';
import { isFinal, newestFirst, spansToFetch } from './spans';

describe('days to ask for', () => {
  it('keeps the refresh window open: the latest day and the one before it are not final', () => {
    expect(isFinal('2026-05-31', '2026-05-31', 2)).toBe(false);
    expect(isFinal('2026-05-30', '2026-05-31', 2)).toBe(false);
    expect(isFinal('2026-05-29', '2026-05-31', 2)).toBe(true);
    expect(isFinal('2026-05-31', '2026-05-31', 0)).toBe(true);
  });
  it('groups missing days into contiguous spans, one request each', () => {
    const stored = new Map([
      ['2026-02-03', true],
      ['2026-02-04', true],
      ['2026-02-07', false],
    ]);
    const range = { start: '2026-02-01', end: '2026-02-08' };
    expect(spansToFetch(range, stored, { refresh: false, maxDays: 31 })).toEqual([
      { start: '2026-02-01', end: '2026-02-02' },
      { start: '2026-02-05', end: '2026-02-06' },
      { start: '2026-02-08', end: '2026-02-08' },
    ]);
    // A sync asks again for what was stored before it was final.
    expect(spansToFetch(range, stored, { refresh: true, maxDays: 31 })).toEqual([
      { start: '2026-02-01', end: '2026-02-02' },
      { start: '2026-02-05', end: '2026-02-08' },
    ]);
  });
  it('asks for nothing when every day is stored, and cuts long spans', () => {
    const all = new Map([['2026-02-01', true]]);
    expect(spansToFetch({ start: '2026-02-01', end: '2026-02-01' }, all, { refresh: true, maxDays: 31 })).toEqual([]);
    expect(spansToFetch({ start: '2026-02-01', end: '2026-02-05' }, new Map(), { refresh: false, maxDays: 2 })).toEqual(
      [
        { start: '2026-02-01', end: '2026-02-02' },
        { start: '2026-02-03', end: '2026-02-04' },
        { start: '2026-02-05', end: '2026-02-05' },
      ],
    );
  });
  it('cuts a backfill newest first', () => {
    expect(newestFirst({ start: '2026-01-14', end: '2026-02-20' }, 14)).toEqual([
      { start: '2026-02-07', end: '2026-02-20' },
      { start: '2026-01-24', end: '2026-02-06' },
      { start: '2026-01-14', end: '2026-01-23' },
    ]);
  });
});
