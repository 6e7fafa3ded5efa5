import { describe, expect, it } from 'vitest';
import type { ReadinessReport } from '../../api/schemas';
import { levelPoints } from './level-points';
import { summaryRow } from './fixtures';
import { crossTeamPayoff, markerLabel, shortRepo, teamPayoff } from './payoff-shaping';

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
      [{ x: '2026-03-09', label: '↑ #1' }],
    ]);
    expect(shortRepo('github.com/acme/api')).toBe('acme/api');
  });
});

describe('crossTeamPayoff', () => {
  it('names teams that share a name with their parent, and reads each owning team’s figures over the range', () => {
    const rows = ['A/Auth/API', 'A/Platform/API', 'B/Web'].map((t) =>
      summaryRow(t, { current: { credits: 1_000, commits: 4, prs: 0, active: 3 } }),
    );
    const got = crossTeamPayoff(
      {
        ownership: true,
        repos: [
          { key: 'h/o/a', team: 'A/Auth/API' },
          { key: 'h/o/b', team: 'A/Platform/API' },
          { key: 'h/o/c', team: 'B/Web' },
        ],
        points: [
          { repo: 'h/o/a', day: '2026-03-01', level: 2 },
          { repo: 'h/o/b', day: '2026-03-01', level: 3 },
          { repo: 'h/o/c', day: '2026-03-01', level: 4 },
        ],
      },
      rows,
      { start: '2026-03-01', end: '2026-03-31' },
    );
    expect(got.reason).toBeNull();
    expect(got.points.map((p) => [p.name, p.meanLevel])).toEqual([
      ['Auth/API', 2],
      ['Platform/API', 3],
      ['Web', 4],
    ]);
    expect(got.points[0]!.figures).toEqual({
      toolCallsPerTurn: 3,
      creditsPerCommit: 250,
      creditsPerPr: null,
      activePeople: 3,
    });
  });
});
