import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEARCH_DEFAULTS, linkTo, parseSearch, parseTeams, teamsFileTag, writeSearch } from './search';

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
  it('read every team of the URL, sorted, each once, blanks dropped; none is the whole organization', () => {
    expect(parseSearch(new URLSearchParams('')).team).toEqual([]);
    const s = parseSearch(
      new URLSearchParams('team=Sales/EMEA&team=Engineering&team=Sales/EMEA&team=%20&team=Unassigned'),
    );
    expect(s.team).toEqual(['Engineering', 'Sales/EMEA', 'Unassigned']);
    expect(parseSearch(new URLSearchParams('team=+Engineering/Platform+')).team).toEqual(['Engineering/Platform']);
  });
  it('write teams as one parameter each, and an empty list as none', () => {
    const p = writeSearch(new URLSearchParams('team=Old&interval=week'), { team: ['Engineering', 'Sales/EMEA'] });
    expect(p.getAll('team')).toEqual(['Engineering', 'Sales/EMEA']);
    expect(p.get('interval')).toBe('week');
    expect(writeSearch(p, { team: [] }).toString()).toBe('interval=week');
  });
  it('links carry every team, not only the first', () => {
    const cur = new URLSearchParams('team=Engineering&start=2026-02-01&end=2026-02-28&team=Sales%2FEMEA&q=ann');
    const link = linkTo('/tools', cur);
    expect(link.split('?')[0]).toBe('/tools');
    const carried = new URLSearchParams(link.split('?')[1]);
    expect(carried.getAll('team')).toEqual(['Engineering', 'Sales/EMEA']);
    expect([carried.get('start'), carried.get('end'), carried.get('q')]).toEqual(['2026-02-01', '2026-02-28', null]);
    expect(new URLSearchParams(linkTo('/users/u1', cur, { team: ['Sales'] }).split('?')[1]).getAll('team')).toEqual([
      'Sales',
    ]);
  });
  it('teams for prefetching: as the pages read them, and none when the server has no teams', () => {
    const p = new URLSearchParams('team=Sales&team=Engineering&team=Sales');
    expect(parseTeams(p, { teams: true })).toEqual(['Engineering', 'Sales']);
    expect(parseTeams(p, { teams: false })).toEqual([]);
  });
  it("name a download after its teams, so a team's file is not taken for the organization's", () => {
    expect(teamsFileTag([])).toBe('');
    expect(teamsFileTag(['Engineering/Platform'])).toBe('-engineering-platform');
    expect(teamsFileTag(['Ventes/Île-de-France'])).toBe('-ventes-île-de-france');
    expect(teamsFileTag(['A', 'B', 'C'])).toBe('-3-teams');
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
