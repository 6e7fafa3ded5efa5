import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEARCH_DEFAULTS, linkTo, parseSearch, writeSearch } from './search';

describe('search parameters', () => {
  it('parse with defaults; a malformed value falls back to its default', () => {
    expect(parseSearch(new URLSearchParams(''))).toEqual(SEARCH_DEFAULTS);
    const s = parseSearch(new URLSearchParams('interval=week&servers=bogus&start=2026-02-30&end=2026-03-01&q=ann'));
    expect(s.interval).toBe('week');
    expect(s.servers).toBe('merged');
    expect(s.start).toBeUndefined();
    expect(s.end).toBe('2026-03-01');
    expect(s.q).toBe('ann');
  });
  it('write a patch, leaving defaults and empty text out of the URL and other parameters alone', () => {
    const p = writeSearch(new URLSearchParams('usersSort=credits:desc&interval=week&q=x'), {
      interval: 'day',
      q: '',
      group: 'pillar',
    });
    expect(p.toString()).toBe('usersSort=credits%3Adesc&group=pillar');
  });
  it('links carry the range and nothing page-specific', () => {
    const cur = new URLSearchParams('start=2026-02-01&end=2026-02-28&q=ann&usersSort=credits:desc&interval=week');
    expect(linkTo('/users/u1', cur)).toBe('/users/u1?start=2026-02-01&end=2026-02-28');
    expect(linkTo('/tools', new URLSearchParams('q=x'))).toBe('/tools');
    expect(linkTo('/tools', cur, { servers: 'split' })).toBe('/tools?start=2026-02-01&end=2026-02-28&servers=split');
  });
  it('any string in any parameter parses to a valid state (property-based)', () => {
    const keys = Object.keys(SEARCH_DEFAULTS);
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...keys), fc.string()), (raw) => {
        const s = parseSearch(new URLSearchParams(raw));
        expect(Object.keys(s).sort()).toEqual([...keys].sort());
        expect(['day', 'week']).toContain(s.interval);
        expect(parseSearch(writeSearch(new URLSearchParams(), s))).toEqual(s);
      }),
    );
  });
});
