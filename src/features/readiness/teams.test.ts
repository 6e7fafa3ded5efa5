import { describe, expect, it } from 'vitest';
import type { CriterionResult, ReadinessReport } from '../../api/schemas';
import { groupByRepo } from './history';
import { fixesOf, ownerOf, teamReadiness } from './teams';

const c = (numerator: number | null, denominator = 1): CriterionResult => ({ numerator, denominator, rationale: '' });
/** A report passing `pass` of 10 single-app criteria (pass × 10 %). */
const rep = (id: string, url: string, at: number, pass: number): ReadinessReport => ({
  reportId: id,
  createdAt: at,
  repoUrl: url,
  apps: {},
  report: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`c${i}`, c(i < pass ? 1 : 0)])),
});

const list = groupByRepo([
  rep('a1', 'https://github.com/acme/a', 1, 1), // level 1, then
  rep('a2', 'git@github.com:Acme/a.git', 2, 5), // 50 % → level 3 (latest)
  rep('b1', 'https://github.com/acme/b', 1, 7), // 70 % → level 4
  rep('c1', 'https://github.com/acme/c', 1, 2), // 20 % → level 2
  rep('d1', 'https://github.com/acme/d', 1, 9), // 90 % → level 5
]);
const owners = new Map<string, string | null>([
  ['github.com/acme/a', 'Eng/Platform'],
  ['github.com/acme/b', 'Eng/Platform'],
  ['github.com/acme/c', 'Data'],
  ['github.com/acme/d', null],
]);

describe('teamReadiness', () => {
  it('one row per owning team by latest levels, then Unowned; a repository the owners miss is Unowned', () => {
    const rows = teamReadiness([...list, ...groupByRepo([rep('e1', 'https://github.com/acme/e', 1, 0)])], owners);
    expect(rows.map((r) => [r.name, r.repositories, r.spread.counts])).toEqual([
      ['Data', 1, [0, 1, 0, 0, 0]],
      ['Eng/Platform', 2, [0, 0, 1, 1, 0]],
      ['Unowned', 2, [1, 0, 0, 0, 1]],
    ]);
    const platform = rows[1]!;
    // Both of Eng/Platform's repositories are at level 3 or above; Data's one is not.
    expect(platform.spread).toMatchObject({ atTarget: 2, atTargetShare: 1, met: true });
    expect(rows[0]!.spread).toMatchObject({ atTarget: 0, atTargetShare: 0, met: false });
    expect(rows[2]!.spread).toMatchObject({ atTarget: 1, atTargetShare: 0.5, met: false });
    expect(platform.meanPassRate).toBeCloseTo(0.6);
  });

  it('keeps an empty Unowned row, and names no owner when owners are unknown', () => {
    const rows = teamReadiness(list.slice(0, 1), owners);
    expect(rows.at(-1)).toMatchObject({ team: null, repositories: 0, meanPassRate: null });
    expect(rows.at(-1)!.spread).toMatchObject({ counts: [0, 0, 0, 0, 0], atTargetShare: null, met: null });
    expect(ownerOf(undefined, list[0]!.key)).toBeUndefined();
    expect(ownerOf(owners, 'https://github.com/acme/a')).toBe('Eng/Platform');
  });

  it('what to fix next brings the repositories below level 3 up to it: those at 3 and above count for nothing', () => {
    // Eng/Platform's a (50 %) and b (70 %) are at the target: nothing to fix there, though each has a next level.
    expect(fixesOf(list.filter((r) => ownerOf(owners, r.key) === 'Eng/Platform'))).toEqual([]);
    // Over all of them only c (20 %) counts: any two of c2…c9 take it to 40 %.
    const fixes = fixesOf(list);
    expect(fixes.map((f) => f.id)).toEqual(['c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9']);
    for (const f of fixes) expect(f).toMatchObject({ level: null, helps: ['https://github.com/acme/c'], lifts: [] });
  });
});
