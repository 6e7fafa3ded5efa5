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
  type RepoReport,
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

/** No criterion of these reports is in the known list: among equal fixes, none comes first by its level. */
const noLevels = () => undefined;

describe('nextLevelPlan: the failing criteria that take a repository to its next level soonest', () => {
  it('among plans as short, the lowest levels: a 2 → 3 plan takes no level-4 criterion when lower ones do as well', () => {
    // 2 of 6 pass (33 %, level 2): one whole criterion reaches 50 %.
    const levels: Record<string, number> = { a_l4: 4, b_l1: 1, c_l5: 5, d_l2: 2, e_l3: 3 };
    const levelOf = (id: string) => levels[id];
    const one = nextLevelPlan(made({ ...passing(2), a_l4: [0, 1], c_l5: [0, 1], d_l2: [0, 1], zz: [0, 1] }), levelOf)!;
    expect(one.steps.map((s) => s.id)).toEqual(['d_l2']);
    // 3 of 15 (20 %) needs three more for 40 %: the level 1, 2 and 3 ones, in that order; those outside the list last.
    const three = nextLevelPlan(
      made({
        ...passing(3),
        ...Object.fromEntries(
          ['a_l4', 'b_l1', 'c_l5', 'd_l2', 'e_l3', 'f', 'g', 'h', 'i', 'j', 'k', 'l'].map((id) => [id, [0, 1]]),
        ),
      }),
      levelOf,
    )!;
    expect(three).toMatchObject({ level: 2, reaches: 3 });
    expect(three.steps.map((s) => s.id)).toEqual(['b_l1', 'd_l2', 'e_l3']);
    // A higher level only when no plan as short does without it: 3 of 10 (30 %) needs one whole criterion, or
    // two halves; the whole level-4 one before the two halves of levels 1 and 2.
    const half = nextLevelPlan(
      made({ ...passing(2), a_l4: [0, 1], b_l1: [1, 2], d_l2: [1, 2], z1: [0, 1], z2: [0, 1], z3: [0, 1], z4: [0, 1] }),
      levelOf,
    )!;
    expect(half.steps.map((s) => s.id)).toEqual(['a_l4']);
  });

  it('one criterion from 50 % (level 3) to 60 % (level 4); among equals, by id', () => {
    const plan = nextLevelPlan(
      made({ ...passing(5), f_b: [0, 1], f_a: [0, 1], f_c: [0, 1], f_d: [0, 1], f_e: [0, 1] }),
      noLevels,
    );
    expect(plan).toMatchObject({ level: 3, passRate: 0.5, reaches: 4 });
    expect(plan!.steps.map((s) => s.id)).toEqual(['f_a']);
    expect(plan!.passRateAfter).toBeCloseTo(0.6);
  });

  it('among plans of one criterion, the one failing in the fewest applications (a monorepo app before a repository)', () => {
    // 2 passes, a: 0/4, b: 3/4, c: 0/1 → 2.75 / 5 = 55 % (level 3); 60 % needs 0.25 more: b alone (1 app) gets exactly there.
    const plan = nextLevelPlan(made({ ...passing(2), a: [0, 4], b: [3, 4], c: [0, 1] }), noLevels)!;
    expect(plan.steps.map((s) => [s.id, s.failingApps])).toEqual([['b', 1]]);
    expect(plan).toMatchObject({ level: 3, reaches: 4 });
    expect(plan.passRateAfter).toBeCloseTo(0.6);
  });

  it('fewest criteria first, even when the one criterion fails in more applications', () => {
    // 3 passes, a: 0/4, b: 3/4, c: 2/4 → 4.25 / 6 ≈ 70.8 % (level 4); 80 % needs 0.55: only a does it alone.
    const plan = nextLevelPlan(made({ ...passing(3), a: [0, 4], b: [3, 4], c: [2, 4] }), noLevels)!;
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
      noLevels,
    )!;
    expect(plan.steps.map((s) => s.id)).toEqual(['x', 'y']);
    expect(plan).toMatchObject({ level: 2, reaches: 3 });
    expect(plan.passRateAfter).toBeCloseTo(5 / 11);
  });

  it('skipped criteria count for nothing; no plan at level 5 or with every criterion skipped', () => {
    const plan = nextLevelPlan(made({ ...passing(1), s1: [null, 1], s2: [null, 3], f: [0, 1] }), noLevels)!;
    // 1 of 2 counted: 50 % (level 3); fixing f gives 100 %, level 5 (the plan may overshoot).
    expect(plan).toMatchObject({ level: 3, reaches: 5, passRateAfter: 1 });
    expect(nextLevelPlan(made({ ...passing(4), f: [0, 1] }), noLevels)).toBeNull();
    expect(nextLevelPlan(made({ s: [null, 1] }), noLevels)).toBeNull();
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
      const plan = nextLevelPlan(r, noLevels);
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

describe('fixesForSet: what brings the most repositories below level 3 up to it', () => {
  // Levels of the criteria below; one outside the list (`x_*`) has none.
  const LEVEL: Record<string, number> = { f_a: 2, f_b: 1, f_c: 3, f_d: 4, f_e: 5, g1: 1, g2: 2, g3: 4, g4: 5, h: 4 };
  const lv = (id: string) => LEVEL[id];
  const r1 = made({ ...passing(3), f_a: [0, 1], f_b: [0, 1], f_d: [0, 1], f_e: [0, 1] }); // 3 of 7, 43 %: level 3 already
  const r2 = made({ ...passing(2), f_a: [0, 1], f_b: [0, 1], f_d: [0, 1], h: [0, 1] }); // 2 of 6, 33 %: any one of four
  const r3 = made({ ...passing(5) }); // level 5
  const r4 = made({ ...passing(2), f_a: [0, 1], f_c: [0, 1], g1: [0, 1], g2: [0, 1], g3: [0, 1], g4: [0, 1] }); // 25 %: two needed
  const r5 = made({ ...passing(6), f_d: [0, 1], f_e: [0, 1], h: [0, 1] }); // 6 of 9, level 4: nothing to bring up
  const repos = [
    { key: 'github.com/acme/r1', report: r1 },
    { key: 'github.com/acme/r2', report: r2 },
    { key: 'github.com/acme/r3', report: r3 },
    { key: 'github.com/acme/r4', report: r4 },
    { key: 'github.com/acme/r5', report: r5 },
  ];

  it('counts only the repositories below level 3, each for the criteria among its fewest fixes to level 3; ties by level', () => {
    expect(liftsAlone(r2, 'f_a', 3)).toBe(true);
    expect(liftsAlone(r4, 'f_a', 3)).toBe(false);
    expect(liftsAlone(r5, 'f_d', 3)).toBe(false);
    // r4 (25 %) needs two whole criteria: any two of its six.
    expect(planCandidates(r4, 3)).toEqual({ ids: ['f_a', 'f_c', 'g1', 'g2', 'g3', 'g4'], alone: false });
    expect(planCandidates(r2, 3)).toEqual({ ids: ['f_a', 'f_b', 'f_d', 'h'], alone: true });
    // r1 at level 3 and r5 at level 4 have their next level, but are at the target already.
    expect(planCandidates(r1, 3)).toEqual({ ids: [], alone: false });
    expect(planCandidates(r5).ids).toEqual(['f_d', 'f_e', 'h']);
    const [, r2k, , r4k] = repos.map((r) => r.key);
    expect(fixesForSet(repos, lv)).toEqual([
      { id: 'f_a', level: 2, helps: [r2k, r4k], lifts: [r2k] },
      { id: 'f_b', level: 1, helps: [r2k], lifts: [r2k] },
      { id: 'g1', level: 1, helps: [r4k], lifts: [] },
      { id: 'g2', level: 2, helps: [r4k], lifts: [] },
      { id: 'f_c', level: 3, helps: [r4k], lifts: [] },
      { id: 'f_d', level: 4, helps: [r2k], lifts: [r2k] },
      { id: 'h', level: 4, helps: [r2k], lifts: [r2k] },
      { id: 'g3', level: 4, helps: [r4k], lifts: [] },
      { id: 'g4', level: 5, helps: [r4k], lifts: [] },
    ]);
  });

  it('a plan’s steps are always among its candidates; a criterion lifts alone exactly when the set says so', () => {
    for (const r of repos) {
      const plan = nextLevelPlan(r.report, lv);
      const { ids, alone } = planCandidates(r.report);
      for (const s of plan?.steps ?? []) expect(ids).toContain(s.id);
      for (const id of Object.keys(r.report.report)) {
        const lifted = fixesForSet([r], lv).find((f) => f.id === id)?.lifts.length === 1;
        expect(lifted, `${r.key} ${id}`).toBe(liftsAlone(r.report, id, 3));
        if (alone && ids.includes(id)) expect(liftsAlone(r.report, id)).toBe(true);
      }
    }
  });

  it('is empty when every repository is at level 3 or above', () => {
    expect(
      fixesForSet(
        [
          { key: 'x', report: r3 },
          { key: 'y', report: r5 },
          { key: 'z', report: r1 },
        ],
        lv,
      ),
    ).toEqual([]);
    expect(fixesForSet([], lv)).toEqual([]);
  });

  it('the top fix brings the most repositories below level 3 there with the fewest other fixes (brute force, random repositories)', () => {
    let seed = 11;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const ids = Array.from({ length: 9 }, (_, i) => `k${i}`);
    // Seven criteria with levels, two outside the known list.
    const levels = new Map(ids.slice(0, 7).map((id) => [id, 1 + Math.floor(rnd() * 5)]));
    const levelOf = (id: string) => levels.get(id);
    const rank = (id: string) => levelOf(id) ?? 6;
    let checked = 0;
    for (let t = 0; t < 60; t++) {
      const set: RepoReport[] = [];
      for (let k = 0; k < 2 + Math.floor(rnd() * 6); k++) {
        const criteria: Record<string, [number | null, number]> = {};
        for (const id of ids) {
          if (rnd() < 0.15) continue;
          const d = rnd() < 0.7 ? 1 : 2 + Math.floor(rnd() * 3);
          criteria[id] = [rnd() < 0.1 ? null : Math.floor(rnd() * (d + 1)), d];
        }
        set.push({ key: `r${k}`, report: made(criteria) });
      }
      // Every subset of each repository's failing criteria: the fewest that reach level 3, and every criterion in a
      // subset that few.
      const want = new Map<string, { helps: string[]; lifts: string[] }>();
      for (const r of set) {
        const rate = passRate(Object.values(r.report.report));
        if (rate === null || levelFor(rate) >= 3) continue;
        const failing = Object.keys(r.report.report).filter((id) => criterionState(r.report.report[id]!) === 'failed');
        let fewest = Infinity;
        const among = new Set<string>();
        for (let mask = 1; mask < 1 << failing.length; mask++) {
          const chosen = failing.filter((_, i) => mask & (1 << i));
          if (chosen.length > fewest) continue;
          const fixed = { ...r.report.report };
          for (const id of chosen) fixed[id] = c(fixed[id]!.denominator, fixed[id]!.denominator);
          if (levelFor(passRate(Object.values(fixed))) < 3) continue;
          if (chosen.length < fewest) among.clear();
          fewest = chosen.length;
          for (const id of chosen) among.add(id);
        }
        for (const id of among) {
          const e = want.get(id) ?? { helps: [], lifts: [] };
          e.helps.push(r.key);
          if (fewest === 1) e.lifts.push(r.key);
          want.set(id, e);
        }
      }
      const got = fixesForSet(set, levelOf);
      expect(new Map(got.map((f) => [f.id, { helps: f.helps, lifts: f.lifts }]))).toEqual(want);
      if (got.length === 0) continue;
      checked++;
      expect(got[0]!.helps.length).toBe(Math.max(...[...want.values()].map((e) => e.helps.length)));
      for (let i = 1; i < got.length; i++) {
        const [a, b] = [got[i - 1]!, got[i]!];
        const order = b.helps.length - a.helps.length || rank(a.id) - rank(b.id);
        expect(order, `${a.id} before ${b.id}`).toBeLessThanOrEqual(0);
      }
    }
    expect(checked).toBeGreaterThan(30);
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
