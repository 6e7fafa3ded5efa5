import { describe, expect, it } from 'vitest';
import { KNOWN_CRITERIA } from '../../api/criteria';
import type { ReadinessReport } from '../../api/schemas';
import { teamRepos } from './team-repos';

/** A report passing `share` of the known criteria (the rest failing), on `day` at noon UTC. */
function report(repoUrl: string, day: string, share: number): ReadinessReport {
  const ids = KNOWN_CRITERIA.map((c) => c.id);
  const passing = Math.round(ids.length * share);
  return {
    reportId: `${repoUrl}-${day}`,
    createdAt: Date.parse(`${day}T12:00:00Z`),
    repoUrl,
    apps: {},
    report: Object.fromEntries(
      ids.map((id, i) => [id, { numerator: i < passing ? 1 : 0, denominator: 1, rationale: '' }]),
    ),
  } as unknown as ReadinessReport;
}

describe('a team’s repositories by their latest report up to a day', () => {
  const answer = {
    repos: [
      { key: 'github.com/acme/api', team: 'Eng' },
      { key: 'github.com/acme/web', team: 'Eng/Web' },
      { key: 'github.com/acme/new', team: 'Eng' },
    ],
    reports: [
      report('https://github.com/acme/api', '2026-03-01', 0.3),
      // Spelled another way, later and better: the same repository.
      report('git@github.com:Acme/API.git', '2026-03-20', 0.7),
      report('https://github.com/acme/web', '2026-03-05', 0.5),
      // After the day asked about: not yet known then.
      report('https://github.com/acme/new', '2026-04-02', 0.9),
    ],
  };

  it('takes each repository’s latest report by then, in any spelling, highest level first', () => {
    const rows = teamRepos(answer, '2026-03-31');
    expect(rows.map((r) => [r.key, r.team, r.level, r.reported])).toEqual([
      ['github.com/acme/api', 'Eng', 4, '2026-03-20'],
      ['github.com/acme/web', 'Eng/Web', 3, '2026-03-05'],
      ['github.com/acme/new', 'Eng', null, null],
    ]);
    expect(rows[0]!.passRate).toBeCloseTo(0.7, 1);
  });

  it('reads an earlier day’s levels from the reports of then', () => {
    expect(teamRepos(answer, '2026-03-10').map((r) => [r.key, r.level])).toEqual([
      ['github.com/acme/web', 3],
      ['github.com/acme/api', 2],
      ['github.com/acme/new', null],
    ]);
  });
});
