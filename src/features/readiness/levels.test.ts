import { describe, expect, it } from 'vitest';
import type { CriterionResult, ReadinessReport } from '../../api/schemas';
import { groupByRepo, organizationScore } from './history';
import { criterionState, levelFor, normalizeRepoUrl, passRate, progressToNext, safeHref, scoreReport } from './levels';

const c = (numerator: number | null, denominator = 1): CriterionResult => ({ numerator, denominator, rationale: '' });

/** n criteria passing out of total, single-app. */
const results = (pass: number, total: number) => Array.from({ length: total }, (_, i) => c(i < pass ? 1 : 0));

describe('level rule', () => {
  it.each([
    [0.74, 4],
    [0.53, 3],
    [0.28, 2],
    [0.19999, 1],
    [0.2, 2],
    [0.4, 3],
    [0.6, 4],
    [0.8, 5],
    [1, 5],
    [0, 1],
  ])('pass rate %f → level %i', (rate, level) => expect(levelFor(rate)).toBe(level));

  it('reproduces the published results from criteria', () => {
    expect(levelFor(passRate(results(74, 100)))).toBe(4);
    expect(levelFor(passRate(results(53, 100)))).toBe(3);
    expect(levelFor(passRate(results(28, 100)))).toBe(2);
    // 3 of 5 is exactly 60 % even in floating point
    expect(levelFor(passRate(results(3, 5)))).toBe(4);
  });

  it('leaves skipped criteria out of the denominator', () => {
    expect(passRate([c(1), c(0), c(null), c(null)])).toBe(0.5);
    expect(passRate([c(null)])).toBeNull();
    expect(criterionState(c(null))).toBe('skipped');
  });

  it('weighs monorepo criteria by their share of apps, each criterion equally', () => {
    // 2 of 4 apps (0.5) and a repo-scope pass (1) → 0.75
    expect(passRate([c(2, 4), c(1, 1)])).toBe(0.75);
    expect(criterionState(c(3, 4))).toBe('failed');
    expect(criterionState(c(4, 4))).toBe('passed');
  });

  it('progress to the next level', () => {
    expect(progressToNext(0.5)).toBeCloseTo(0.5);
    expect(progressToNext(0.9)).toBe(1);
    expect(progressToNext(0.1)).toBeCloseTo(0.5);
  });
});

const report = (over: Partial<ReadinessReport>): ReadinessReport => ({
  reportId: 'r',
  createdAt: 0,
  repoUrl: 'https://github.com/acme/x',
  apps: {},
  report: {},
  ...over,
});

describe('scoreReport', () => {
  it('counts unknown criteria in the pass rate but in no level section', () => {
    const s = scoreReport(report({ report: { lint_config: c(1), made_up_id: c(0), strict_typing: c(null) } }));
    expect(s.passRate).toBe(0.5);
    expect(s).toMatchObject({ passed: 1, failed: 1, skipped: 1, level: 3 });
    expect(s.perLevel[1]).toBe(1);
    expect(s.perLevel[2]).toBeNull();
  });
});

describe('repositories', () => {
  it.each([
    ['https://github.com/Acme/Repo.git', 'https://github.com/acme/repo'],
    ['git@github.com:acme/repo.git', 'https://github.com/acme/repo'],
    ['https://GitHub.com/acme/repo/', 'https://github.com/acme/repo'],
    ['http://github.com/acme/repo', 'https://github.com/acme/repo'],
    ['ssh://git@github.com/acme/repo.git', 'https://github.com/acme/repo'],
  ])('%s → %s', (u, want) => expect(normalizeRepoUrl(u)).toBe(want));

  it('groups reports by repository, oldest first, whatever the input order', () => {
    const g = groupByRepo([
      report({ reportId: 'b', createdAt: 2, repoUrl: 'git@github.com:acme/x.git', report: { a: c(1) } }),
      report({ reportId: 'a', createdAt: 1, repoUrl: 'https://github.com/acme/x', report: { a: c(0) } }),
      report({ reportId: 'c', createdAt: 5, repoUrl: 'https://github.com/acme/y', report: { a: c(0) } }),
    ]);
    expect(g).toHaveLength(2);
    const x = g.find((r) => r.key.endsWith('/x'))!;
    expect(x.reports.map((r) => r.report.reportId)).toEqual(['a', 'b']);
    expect(x.latest.report.reportId).toBe('b');
    expect(organizationScore(g)).toBe(3); // (5 + 1) / 2
  });

  it('links only http and https URLs', () => {
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref('git@github.com:a/b.git')).toBeUndefined();
    expect(safeHref('https://github.com/a/b')).toBe('https://github.com/a/b');
  });
});
