import { describe, expect, it } from 'vitest';
import type { ReadinessReport } from '../../api/schemas';
import { levelPoints } from './level-points';
import { markerLabel, shortRepo, teamPayoff } from './payoff-shaping';

const report = (repoUrl: string, iso: string, passing: number): ReadinessReport => ({
  reportId: `${repoUrl}${iso}`,
  createdAt: Date.parse(iso),
  repoUrl,
  apps: {},
  report: Object.fromEntries(
    Array.from({ length: 10 }, (_, i) => [`c${i}`, { numerator: i < passing ? 1 : 0, denominator: 1, rationale: '' }]),
  ),
});

describe('levelPoints', () => {
  it('reads each report’s repository in any spelling as one key, its UTC day and its level, oldest first', () => {
    expect(
      levelPoints([
        // 23:30 UTC on Mar 4 is Mar 5 in Chatham: the day is the UTC one.
        report('git@github.com:Acme/API.git', '2026-03-04T23:30:00Z', 4),
        report('https://github.com/acme/api', '2026-03-01T08:00:00Z', 2),
      ]),
    ).toEqual([
      { repo: 'github.com/acme/api', day: '2026-03-01', level: 2 },
      { repo: 'github.com/acme/api', day: '2026-03-04', level: 3 },
    ]);
  });
});

describe('markerLabel and teamPayoff', () => {
  it.each([
    { direction: 'rise' as const, repos: 1, want: '↑ acme/api' },
    { direction: 'fall' as const, repos: 1, want: '↓ acme/api' },
    { direction: 'rise' as const, repos: 3, want: '↑ 3 repositories' },
  ])('labels a $direction of $repos repositories "$want"', ({ direction, repos, want }) => {
    const changes = [{ repo: 'github.com/acme/api', day: '2026-03-04', from: 2, to: 3, direction }];
    expect(markerLabel({ direction, repos, changes })).toBe(want);
  });

  it('reads only the team’s repositories, and counts those with a report', () => {
    const owned = {
      ownership: true,
      repos: [
        { key: 'github.com/acme/api', team: 'Eng' },
        { key: 'github.com/acme/new', team: 'Eng' },
      ],
      points: [
        { repo: 'github.com/acme/api', day: '2026-03-01', level: 2 },
        { repo: 'github.com/acme/api', day: '2026-03-10', level: 3 },
        { repo: 'github.com/other/x', day: '2026-03-10', level: 5 },
      ],
    };
    const p = teamPayoff(owned, [], { start: '2026-03-01', end: '2026-03-31' });
    expect([p.repos, p.reported, p.changes.map((c) => c.repo), p.markers]).toEqual([
      2,
      1,
      ['github.com/acme/api'],
      [{ x: '2026-03-09', label: '↑ acme/api' }],
    ]);
    expect(shortRepo('github.com/acme/api')).toBe('acme/api');
  });
});
