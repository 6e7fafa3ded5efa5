import { describe, expect, it } from 'vitest';
import type { CriterionResult, ReadinessReport } from '../../api/schemas';
import {
  criterionName,
  criterionRows,
  diffReports,
  failingCriteria,
  groupByRepo,
  latestSpread,
  pillarPassRates,
  spreadSeries,
  summarize,
} from './history';

const c = (numerator: number | null, denominator = 1): CriterionResult => ({ numerator, denominator, rationale: '' });
const at = (day: string) => Date.parse(`${day}T12:00:00Z`);
const rep = (id: string, url: string, day: string, report: Record<string, CriterionResult>): ReadinessReport => ({
  reportId: id,
  createdAt: at(day),
  repoUrl: url,
  apps: {},
  report,
});

// lint_config, formatter: Style & Validation L1; unit_tests_exist: Testing L1 (from the known list)
const A = 'https://github.com/acme/a';
const B = 'git@github.com:acme/b.git';
const reports = [
  rep('a1', A, '2026-03-01', { lint_config: c(0), formatter: c(0) }), // 0 % → 1
  rep('a2', A, '2026-03-03', { lint_config: c(1), formatter: c(0), unknown_x: c(1) }), // 2/3 → 4
  rep('b1', B, '2026-03-02', { lint_config: c(1), formatter: c(1), unit_tests_exist: c(null) }), // 100 % → 5
];

describe('organization views', () => {
  const repos = groupByRepo(reports);
  it('the spread over time counts each repository by its latest report as of each day', () => {
    expect(
      spreadSeries(repos, '2026-02-28', '2026-03-04').map((p) => [p.date, p.spread.counts, p.spread.atTarget]),
    ).toEqual([
      ['2026-03-01', [1, 0, 0, 0, 0], 0],
      ['2026-03-02', [1, 0, 0, 0, 1], 1], // a at 1, b at 5
      ['2026-03-03', [0, 0, 0, 1, 1], 2], // a's second report: level 4
      ['2026-03-04', [0, 0, 0, 1, 1], 2],
    ]);
    // Shares per level, for the 100 % stacked chart: they add up to 1 on each day.
    const day = spreadSeries(repos, '2026-03-02', '2026-03-02')[0]!;
    expect([day.level1, day.level2, day.level3, day.level4, day.level5]).toEqual([0.5, 0, 0, 0, 0.5]);
  });
  it('a window that starts after the first reports still counts them', () => {
    expect(spreadSeries(repos, '2026-03-04', '2026-03-04').map((p) => p.spread.counts)).toEqual([[0, 0, 0, 1, 1]]);
  });
  it('the latest spread: repositories per level and at the target', () => {
    expect(latestSpread(repos)).toMatchObject({ counts: [0, 0, 0, 1, 1], total: 2, atTarget: 2, met: true });
  });
  it('pass rate per pillar, unknown criteria under Other, skipped left out', () => {
    expect(pillarPassRates(repos.map((r) => r.latest.report))).toEqual([
      { pillar: 'Style & Validation', passRate: 0.75, passed: 3, evaluated: 4 },
      { pillar: 'Other', passRate: 1, passed: 1, evaluated: 1 },
    ]);
  });
  it('criteria failing in the most repositories; skipped ones do not count', () => {
    expect(failingCriteria(repos).map((f) => [f.id, f.failing, f.evaluated])).toEqual([['formatter', 1, 2]]);
  });
  it('summaries carry the change against the previous report', () => {
    const a = summarize(repos.find((r) => r.key.endsWith('/a'))!);
    expect(a.change).toBeCloseTo(2 / 3);
    expect(a.levelChange).toBe(3);
    expect(summarize(repos.find((r) => r.key.endsWith('/b'))!).change).toBeNull();
  });
});

describe('diffReports', () => {
  it('lists criteria that started or stopped passing, score changes, and added or removed ids', () => {
    const before = rep('x', A, '2026-03-01', { a: c(1), b: c(0), d: c(1, 4), e: c(null), gone: c(0) });
    const after = rep('y', A, '2026-03-02', { a: c(0), b: c(1), d: c(2, 4), e: c(1), fresh: c(0) });
    expect(diffReports(before, after)).toEqual({
      started: ['b', 'e'],
      stopped: ['a'],
      changed: [{ id: 'd', before: c(1, 4), after: c(2, 4) }],
      added: ['fresh'],
      removed: ['gone'],
    });
  });
});

describe('criterionRows', () => {
  it('orders known criteria as the list does and puts unknown ids last under Other', () => {
    const rows = criterionRows(rep('x', A, '2026-03-01', { zzz: c(1), formatter: c(1), lint_config: c(0) }));
    expect(rows.map((r) => [r.id, r.pillar, r.level])).toEqual([
      ['lint_config', 'Style & Validation', 1],
      ['formatter', 'Style & Validation', 1],
      ['zzz', 'Other', null],
    ]);
  });

  it('names a known criterion by the list, and one outside it by its id made readable', () => {
    const rows = criterionRows(rep('x', A, '2026-03-01', { agents_md_freshness: c(0), lint_config: c(1) }));
    expect(rows.map((r) => r.name)).toEqual(['Linter Configuration', 'Agents md freshness']);
    expect(criterionName('ai-review_bot')).toBe('Ai review bot');
    expect(criterionName('_')).toBe('_');
  });
});

describe('groupByRepo', () => {
  it('groups reports by repository, oldest first, whatever the input order', () => {
    const g = groupByRepo([
      rep('b', 'git@github.com:acme/x.git', '2026-03-02', { a: c(1) }),
      rep('a', 'https://github.com/acme/x', '2026-03-01', { a: c(0) }),
      rep('c', 'https://github.com/acme/y', '2026-03-05', { a: c(0) }),
    ]);
    expect(g).toHaveLength(2);
    const x = g.find((r) => r.key.endsWith('/x'))!;
    expect(x.reports.map((r) => r.report.reportId)).toEqual(['a', 'b']);
    expect(x.latest.report.reportId).toBe('b');
    // x's latest passes its one criterion (level 5), y's fails it (level 1).
    expect(latestSpread(g).counts).toEqual([1, 0, 0, 0, 1]);
  });
});
