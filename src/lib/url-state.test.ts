import { describe, expect, it } from 'vitest';
import { parseRange, presetOf, rangeParams } from './url-state';

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
});
