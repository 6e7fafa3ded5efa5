import { describe, expect, it } from 'vitest';
import {
  criterionState,
  fixesForSet,
  levelFor,
  levelRule,
  levelSpread,
  liftsAlone,
  nextLevelPlan,
  planCandidates,
  passRate,
  progressToNext,
  safeHref,
  scoreReport,
  targetSentence,
  type CriterionScore,
} from './readiness';
import { normalizeRepoUrl } from './repos';

const c = (numerator: number | null, denominator = 1): CriterionScore => ({ numerator, denominator });

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

const report = (over: { report: Record<string, CriterionScore> }) => over;
const LEVELS: Record<string, number> = { lint_config: 1, strict_typing: 2 };
const levelOf = (id: string) => LEVELS[id];

describe('scoreReport', () => {
  it('counts unknown criteria in the pass rate but in no level section', () => {
    const s = scoreReport(report({ report: { lint_config: c(1), made_up_id: c(0), strict_typing: c(null) } }), levelOf);
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

  it('links only http and https URLs', () => {
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref('git@github.com:a/b.git')).toBeUndefined();
    expect(safeHref('https://github.com/a/b')).toBe('https://github.com/a/b');
  });
});

/** A report from criteria written as `id: [numerator, denominator]` (numerator null: skipped). */
const made = (criteria: Record<string, [number | null, number]>) => ({
  report: Object.fromEntries(Object.entries(criteria).map(([id, [n, d]]) => [id, c(n, d)])),
});
const passing = (k: number, prefix = 'p') =>
  Object.fromEntries(Array.from({ length: k }, (_, i) => [`${prefix}${i + 1}`, [1, 1] as [number, number]]));

describe('nextLevelPlan: the failing criteria that take a repository to its next level soonest', () => {
  it('one criterion from 50 % (level 3) to 60 % (level 4); among equals, by id', () => {
    const plan = nextLevelPlan(
      made({ ...passing(5), f_b: [0, 1], f_a: [0, 1], f_c: [0, 1], f_d: [0, 1], f_e: [0, 1] }),
    );
    expect(plan).toMatchObject({ level: 3, passRate: 0.5, reaches: 4 });
    expect(plan!.steps.map((s) => s.id)).toEqual(['f_a']);
    expect(plan!.passRateAfter).toBeCloseTo(0.6);
  });

  it('among plans of one criterion, the one failing in the fewest applications (a monorepo app before a repository)', () => {
    // 2 passes, a: 0/4, b: 3/4, c: 0/1 → 2.75 / 5 = 55 % (level 3); 60 % needs 0.25 more: b alone (1 app) gets exactly there.
    const plan = nextLevelPlan(made({ ...passing(2), a: [0, 4], b: [3, 4], c: [0, 1] }))!;
    expect(plan.steps.map((s) => [s.id, s.failingApps])).toEqual([['b', 1]]);
    expect(plan).toMatchObject({ level: 3, reaches: 4 });
    expect(plan.passRateAfter).toBeCloseTo(0.6);
  });

  it('fewest criteria first, even when the one criterion fails in more applications', () => {
    // 3 passes, a: 0/4, b: 3/4, c: 2/4 → 4.25 / 6 ≈ 70.8 % (level 4); 80 % needs 0.55: only a does it alone.
    const plan = nextLevelPlan(made({ ...passing(3), a: [0, 4], b: [3, 4], c: [2, 4] }))!;
    expect(plan.steps.map((s) => s.id)).toEqual(['a']);
    expect(plan).toMatchObject({ level: 4, reaches: 5 });
    expect(plan.passRateAfter).toBeCloseTo(5.25 / 6);
  });

  it('an easier criterion is left out when taking it would need a longer plan', () => {
    // 2 passes, z 3/4 and q 1/4 of 11 criteria: 3 / 11 ≈ 27 % (level 2); 40 % needs 1.4 more: two whole
    // criteria. z fails in one application only, but z and any other fall short (1.25): a third would be needed.
    const plan = nextLevelPlan(
      made({
        ...passing(2),
        z: [3, 4],
        q: [1, 4],
        y: [0, 1],
        x: [0, 1],
        w: [0, 3],
        v1: [0, 5],
        v2: [0, 5],
        v3: [0, 5],
        v4: [0, 5],
      }),
    )!;
    expect(plan.steps.map((s) => s.id)).toEqual(['x', 'y']);
    expect(plan).toMatchObject({ level: 2, reaches: 3 });
    expect(plan.passRateAfter).toBeCloseTo(5 / 11);
  });

  it('skipped criteria count for nothing; no plan at level 5 or with every criterion skipped', () => {
    const plan = nextLevelPlan(made({ ...passing(1), s1: [null, 1], s2: [null, 3], f: [0, 1] }))!;
    // 1 of 2 counted: 50 % (level 3); fixing f gives 100 %, level 5 (the plan may overshoot).
    expect(plan).toMatchObject({ level: 3, reaches: 5, passRateAfter: 1 });
    expect(nextLevelPlan(made({ ...passing(4), f: [0, 1] }))).toBeNull();
    expect(nextLevelPlan(made({ s: [null, 1] }))).toBeNull();
  });

  it('every plan reaches the next level, and no plan of fewer criteria would (random reports)', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let t = 0; t < 300; t++) {
      const criteria: Record<string, [number | null, number]> = {};
      const k = 1 + Math.floor(rnd() * 14);
      for (let i = 0; i < k; i++) {
        const d = 1 + Math.floor(rnd() * 4);
        criteria[`c${i}`] = [rnd() < 0.1 ? null : Math.floor(rnd() * (d + 1)), d];
      }
      const r = made(criteria);
      const plan = nextLevelPlan(r);
      const rate = passRate(Object.values(r.report));
      if (rate === null || levelFor(rate) === 5) {
        expect(plan).toBeNull();
        continue;
      }
      expect(plan!.reaches).toBeGreaterThan(plan!.level);
      const fixed = { ...r.report };
      for (const s of plan!.steps) fixed[s.id] = c(s.denominator, s.denominator);
      expect(levelFor(passRate(Object.values(fixed)))).toBe(plan!.reaches);
      // The largest gains but one fall short: no shorter plan exists.
      const gains = Object.values(r.report)
        .filter((x) => criterionState(x) === 'failed')
        .map((x) => 1 - x.numerator! / x.denominator)
        .sort((a, b) => b - a);
      const counted = Object.values(r.report).filter((x) => x.numerator !== null).length;
      const shorter = gains.slice(0, plan!.steps.length - 1).reduce((a, g) => a + g, 0);
      expect(levelFor(rate + shorter / counted)).toBe(plan!.level);
    }
  });
});

describe('fixesForSet: the criteria whose fix lifts the most repositories', () => {
  const r1 = made({ ...passing(5), f_a: [0, 1], f_b: [0, 1], f_c: [0, 1], f_d: [0, 1], f_e: [0, 1] }); // 50 %: any one lifts
  const r2 = made({ ...passing(2), f_a: [0, 1], f_b: [3, 4] }); // 68.75 %: f_a lifts, f_b does not
  const r3 = made({ ...passing(5) }); // level 5: no next level
  const r4 = made({ ...passing(2), f_a: [0, 1], f_c: [0, 1], g1: [0, 1], g2: [0, 1], g3: [0, 1], g4: [0, 1] }); // 25 %: two needed
  const repos = [
    { key: 'github.com/acme/r1', report: r1 },
    { key: 'github.com/acme/r2', report: r2 },
    { key: 'github.com/acme/r3', report: r3 },
    { key: 'github.com/acme/r4', report: r4 },
  ];

  it('counts a repository for each criterion that can be one of its fewest fixes, and those it lifts alone', () => {
    expect(liftsAlone(r2, 'f_a')).toBe(true);
    expect(liftsAlone(r2, 'f_b')).toBe(false);
    expect(liftsAlone(r4, 'f_a')).toBe(false);
    // r4 (25 %) needs two whole criteria: any two of its six; the plan shows the first two by id.
    expect(nextLevelPlan(r4)!.steps.map((s) => s.id)).toEqual(['f_a', 'f_c']);
    expect(planCandidates(r4)).toEqual({ ids: ['f_a', 'f_c', 'g1', 'g2', 'g3', 'g4'], alone: false });
    expect(planCandidates(r2)).toEqual({ ids: ['f_a'], alone: true });
    const [r1k, r2k, , r4k] = repos.map((r) => r.key);
    expect(fixesForSet(repos)).toEqual([
      { id: 'f_a', helps: [r1k, r2k, r4k], lifts: [r1k, r2k] },
      { id: 'f_c', helps: [r1k, r4k], lifts: [r1k] },
      { id: 'f_b', helps: [r1k], lifts: [r1k] },
      { id: 'f_d', helps: [r1k], lifts: [r1k] },
      { id: 'f_e', helps: [r1k], lifts: [r1k] },
      { id: 'g1', helps: [r4k], lifts: [] },
      { id: 'g2', helps: [r4k], lifts: [] },
      { id: 'g3', helps: [r4k], lifts: [] },
      { id: 'g4', helps: [r4k], lifts: [] },
    ]);
  });

  it('a plan’s steps are always among its candidates; a criterion lifts alone exactly when the set says so', () => {
    for (const r of repos) {
      const plan = nextLevelPlan(r.report);
      const { ids, alone } = planCandidates(r.report);
      for (const s of plan?.steps ?? []) expect(ids).toContain(s.id);
      for (const id of Object.keys(r.report.report)) {
        const lifted = fixesForSet([r]).find((f) => f.id === id)?.lifts.length === 1;
        expect(lifted, `${r.key} ${id}`).toBe(liftsAlone(r.report, id));
        if (alone && ids.includes(id)) expect(liftsAlone(r.report, id)).toBe(true);
      }
    }
  });

  it('is empty when no repository has a next level', () => {
    expect(fixesForSet([{ key: 'x', report: r3 }])).toEqual([]);
    expect(fixesForSet([])).toEqual([]);
  });
});

describe('the spread of levels and the target', () => {
  it('says what puts a repository at each level', () => {
    expect([1, 2, 3, 4, 5].map(levelRule)).toEqual([
      'pass rate below 20\u00a0%',
      'pass rate from 20\u00a0% to under 40\u00a0%',
      'pass rate from 40\u00a0% to under 60\u00a0%',
      'pass rate from 60\u00a0% to under 80\u00a0%',
      'pass rate 80\u00a0% or more',
    ]);
  });

  it('counts repositories per level, with shares, and those at level 3 or above', () => {
    const s = levelSpread([1, 2, 2, 3, 5, 4, 2, 3]);
    expect(s.counts).toEqual([1, 3, 2, 1, 1]);
    expect(s.total).toBe(8);
    expect(s.shares).toEqual([0.125, 0.375, 0.25, 0.125, 0.125]);
    expect(s.atTarget).toBe(4);
    expect(s.atTargetShare).toBe(0.5);
    expect(s.met).toBe(false);
  });

  it('a mean of 2.9 is no level: nine repositories at 3 and one at 2 miss the target by one repository', () => {
    const s = levelSpread([...Array<number>(9).fill(3), 2]);
    expect(s).toMatchObject({ atTarget: 9, atTargetShare: 0.9, met: false });
    expect(targetSentence(s, 'Standardized')).toBe(
      'Target not met: 1 of 10 repositories is below level 3 · Standardized.',
    );
  });

  it('says plainly when the target is met, and when there is nothing to judge', () => {
    expect(targetSentence(levelSpread([3, 4, 5]), 'Standardized')).toBe(
      'Target met: all 3 repositories are at level 3 · Standardized or above.',
    );
    expect(targetSentence(levelSpread([4]), 'Standardized')).toBe(
      'Target met: the repository is at level 3 · Standardized or above.',
    );
    expect(targetSentence(levelSpread([1, 2]), 'Standardized')).toBe(
      'Target not met: 2 of 2 repositories are below level 3 · Standardized.',
    );
    const none = levelSpread([]);
    expect(none).toMatchObject({ total: 0, shares: [0, 0, 0, 0, 0], atTargetShare: null, met: null });
    expect(targetSentence(none, 'Standardized')).toBe('Target level 3 · Standardized: no repository evaluated yet.');
  });
});
