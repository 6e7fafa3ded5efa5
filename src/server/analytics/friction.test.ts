/**
 * Readiness priced in friction and delegation headroom against brute force: the split of each criterion's teams
 * (more than half of a team's repositories evaluated on it failing, or passing), the sides' ratios of sums shown only
 * with three teams on each, and the headroom lists by each team's lower median level, on constructed teams; and each
 * team's sums of the range, from the runner, against the people's rows of random organizations on both stores, with
 * privacy mode's hidden teams on no side.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachDay, type DayRange } from '../../lib/dates';
import { FRICTION_MIN_TEAMS } from '../../lib/definitions';
import type { CriterionScore } from '../../lib/readiness';
import { freshDatabase, pgAvailable, type FreshDatabase } from '../../test/postgres';
import { build, days, PRICES, scenario } from '../../test/team-scenario';
import { isWithin, shownTeams, teamTree, UNASSIGNED, type CountedTeam } from '../teams/tree';
import { createFigures } from './figures';
import { askFriction, frictionOf, lowerMedian, unitsOf, unitsWithSums, type OwnedRepo, type Unit } from './friction';

const IDS = ['readme', 'lint_config', 'unit_tests', 'ci', 'codeowners'] as const;
const range: DayRange = { start: days[10]!, end: days.at(-1)! };

/** A criterion's result: passed (n = d), failed (n < d) or skipped (n null). */
const result = fc.constantFrom<CriterionScore>(
  { numerator: 1, denominator: 1 },
  { numerator: 0, denominator: 1 },
  { numerator: null, denominator: 1 },
);
const report = fc
  .record(Object.fromEntries(IDS.map((id) => [id, result])) as Record<string, typeof result>, { requiredKeys: [] })
  .map((r) => r as Record<string, CriterionScore>);

/** The level a report is at by the pass rate of its criteria (lib/readiness.ts's rule, written out). */
function levelOf(r: Record<string, CriterionScore>): number {
  const scored = Object.values(r).filter((c) => c.numerator !== null);
  const rate = scored.length === 0 ? null : scored.filter((c) => c.numerator === c.denominator).length / scored.length;
  if (rate === null) return 1;
  return rate >= 0.8 ? 5 : rate >= 0.6 ? 4 : rate >= 0.4 ? 3 : rate >= 0.2 ? 2 : 1;
}

const sumsArb = fc.record({
  active: fc.nat(20),
  toolCalls: fc.nat(500),
  userMessages: fc.nat(100),
  credits: fc.nat(10_000),
  prs: fc.nat(10),
  manualToolCalls: fc.nat(200),
  lowAutonomyToolCalls: fc.nat(200),
  highAutonomyToolCalls: fc.nat(200),
  spend: fc.nat(1000),
});

const unitsArb = fc
  .array(fc.record({ reports: fc.array(report, { minLength: 1, maxLength: 4 }), sums: sumsArb }), {
    minLength: 0,
    maxLength: 9,
  })
  .map((us) =>
    us.map((u, i): Unit => ({
      team: `T${i}`,
      repos: u.reports.map((r, j) => ({ key: `h/o/t${i}r${j}`, team: `T${i}`, report: { report: r } })),
      level: lowerMedian(u.reports.map(levelOf)),
      sums: u.sums,
    })),
  );

const ratio = (n: number, d: number) => (d > 0 ? n / d : null);

function expectNear(got: number | null, want: number | null, what: string) {
  if (want === null) expect(got, what).toBeNull();
  else expect(got, what).toBeCloseTo(want, 9);
}

describe('the friction split', () => {
  it('puts each team on a criterion’s side by most of its repositories evaluated, sides shown with three teams each', () => {
    fc.assert(
      fc.property(unitsArb, fc.boolean(), (units, spend) => {
        const got = frictionOf(units, { range, spend });
        const days = eachDay(range.start, range.end).length;
        // Every criterion some repository fails, once.
        const failing = new Set(
          units.flatMap((u) =>
            u.repos.flatMap((r) =>
              Object.entries(r.report.report)
                .filter(([, c]) => c.numerator !== null && c.numerator < c.denominator)
                .map(([id]) => id),
            ),
          ),
        );
        expect(new Set(got.criteria.map((c) => c.id))).toEqual(failing);
        for (const c of got.criteria) {
          const states = (u: Unit) =>
            u.repos.map((r) => r.report.report[c.id]).filter((x) => x && x.numerator !== null);
          const fails = (u: Unit) => states(u).filter((x) => x!.numerator! < x!.denominator).length;
          const passes = (u: Unit) => states(u).length - fails(u);
          const sides = {
            failing: units.filter((u) => fails(u) * 2 > states(u).length),
            passing: units.filter((u) => passes(u) * 2 > states(u).length),
          };
          const shown = sides.failing.length >= 3 && sides.passing.length >= 3;
          expect(c.shown, c.id).toBe(shown);
          for (const k of ['failing', 'passing'] as const) {
            const us = sides[k];
            const side = c[k];
            const sum = (f: keyof Unit['sums']) => us.reduce((n, u) => n + u.sums[f], 0);
            expect(side.names).toEqual(us.map((u) => u.team));
            expect(side.teams).toBe(us.length);
            expect(side.repositories).toBe(us.reduce((n, u) => n + states(u).length, 0));
            const what = `${c.id} ${k}`;
            expectNear(side.toolCallsPerTurn, shown ? ratio(sum('toolCalls'), sum('userMessages')) : null, what);
            expectNear(side.creditsPerPr, shown ? ratio(sum('credits'), sum('prs')) : null, what);
            expectNear(side.manualShare, shown ? ratio(sum('manualToolCalls'), sum('toolCalls')) : null, what);
            const perActive = ratio(sum('spend'), sum('active'));
            expectNear(
              side.spendPerActiveMonth,
              shown && spend && perActive !== null ? (perActive * 30) / days : null,
              what,
            );
            expect(side.activePeople).toBe(shown ? sum('active') : null);
          }
          const f = c.failing.spendPerActiveMonth;
          const p = c.passing.spendPerActiveMonth;
          expectNear(c.spendDifference, f !== null && p !== null ? f - p : null, `${c.id} difference`);
        }
        // Shown criteria first.
        const shownFirst = got.criteria.map((c) => c.shown);
        expect(shownFirst).toEqual([...shownFirst].sort((a, b) => Number(b) - Number(a)));
        // Headroom: at level 3 or above, more than half manual or auto-low; at 1 or 2, more than half auto-high/medium.
        const room = units.filter(
          (u) => u.level >= 3 && u.sums.toolCalls > 0 && u.sums.lowAutonomyToolCalls * 2 > u.sums.toolCalls,
        );
        const risk = units.filter(
          (u) => u.level <= 2 && u.sums.toolCalls > 0 && u.sums.highAutonomyToolCalls * 2 > u.sums.toolCalls,
        );
        expect(new Set(got.headroom.room.map((r) => r.team))).toEqual(new Set(room.map((u) => u.team)));
        expect(new Set(got.headroom.risk.map((r) => r.team))).toEqual(new Set(risk.map((u) => u.team)));
        for (const r of [...got.headroom.room, ...got.headroom.risk]) {
          const u = units.find((x) => x.team === r.team)!;
          expect(r.level).toBe(u.level);
          expect(r.repositories).toBe(u.repos.length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('gives a criterion’s sides no figure below three teams on either, whatever they are', () => {
    expect(FRICTION_MIN_TEAMS).toBe(3);
    const unit = (i: number, passed: boolean): Unit => ({
      team: `T${i}`,
      repos: [
        { key: `r${i}`, team: `T${i}`, report: { report: { ci: { numerator: passed ? 1 : 0, denominator: 1 } } } },
      ],
      level: 1,
      sums: {
        active: 2,
        toolCalls: 10,
        userMessages: 5,
        credits: 100,
        prs: 1,
        manualToolCalls: 1,
        lowAutonomyToolCalls: 2,
        highAutonomyToolCalls: 3,
        spend: 4,
      },
    });
    const two = frictionOf([unit(0, false), unit(1, false), unit(2, true), unit(3, true), unit(4, true)], {
      range,
      spend: true,
    });
    expect(two.criteria[0]).toMatchObject({
      id: 'ci',
      shown: false,
      failing: { teams: 2, toolCallsPerTurn: null, spendPerActiveMonth: null },
      passing: { teams: 3, toolCallsPerTurn: null },
      spendDifference: null,
    });
    const three = frictionOf([0, 1, 2].map((i) => unit(i, false)).concat([3, 4, 5].map((i) => unit(i, true))), {
      range,
      spend: true,
    });
    expect(three.criteria[0]).toMatchObject({ shown: true, failing: { teams: 3, toolCallsPerTurn: 2 } });
  });

  it('compares the outermost owning teams, each with the repositories its sub-teams own; a median’s lower middle', () => {
    const repo = (key: string, team: string | null): OwnedRepo => ({ key, team, report: { report: {} } });
    const units = unitsOf([repo('a', 'Eng/Web'), repo('b', 'Eng'), repo('c', 'Data/ML'), repo('d', null)]);
    expect(units.map((u) => [u.team, u.repos.map((r) => r.key)])).toEqual([
      ['Data/ML', ['c']],
      ['Eng', ['a', 'b']],
    ]);
    expect(lowerMedian([4, 2])).toBe(2);
    expect(lowerMedian([1, 3, 5])).toBe(3);
    expect(lowerMedian([3, 3, 1, 5])).toBe(3);
  });
});

/** The scenario's repositories: some on leaf teams, some on teams above them, some owned by none. */
const ownership = fc.array(fc.record({ team: fc.integer({ min: -1, max: 8 }), report }), {
  minLength: 1,
  maxLength: 12,
});

function suite(store: () => string | undefined) {
  it('gives each owning team its people’s sums of the range, and privacy mode’s hidden teams on no side', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, ownership, fc.integer({ min: 2, max: 5 }), async (s, owned, k) => {
        const b = await build(s, store());
        try {
          await b.analytics.catchUp();
          const runner = createFigures(b.analytics);
          const teams = b.mapping.teams;
          const repos: OwnedRepo[] = owned.map((o, i) => ({
            key: `h/o/r${i}`,
            team: o.team < 0 ? null : teams[o.team % teams.length]!,
            report: { report: o.report },
          }));
          const teamOf = (id: string) => b.mapping.members.find((m) => m.key.userId === id)?.team ?? UNASSIGNED;
          // Brute force: the outermost owners, and their people's rows of the range.
          const owners = [...new Set(repos.flatMap((r) => (r.team ? [r.team] : [])))];
          const outer = owners.filter((t) => !owners.some((o) => o !== t && isWithin(t, o)));
          const sumsOf = (team: string) => {
            const out = { toolCalls: 0, userMessages: 0, manual: 0, low: 0, high: 0, credits: 0, prs: 0 };
            const active = new Set<string>();
            for (const d of eachDay(range.start, range.end))
              for (const x of b.usersDays.get(d) ?? []) {
                if (!isWithin(teamOf(x.user_id), team)) continue;
                active.add(x.user_id);
                out.toolCalls += x.tool_calls;
                out.userMessages += x.user_messages;
                out.credits += x.billable_tokens;
                out.prs += x.git_prs_created;
                if (x.delegation_level === 'manual') out.manual += x.tool_calls;
                if (['manual', 'auto-low'].includes(x.delegation_level)) out.low += x.tool_calls;
                if (['auto-high', 'auto-medium'].includes(x.delegation_level)) out.high += x.tool_calls;
              }
            return { ...out, active: active.size };
          };
          const plain = await askFriction(runner, { mapping: b.mapping, repos, range, prices: PRICES });
          expect(plain.teams).toBe(outer.length);
          expect(plain.currency).toBe('EUR');
          // Every team compared has its people's sums and its repositories' lower median level.
          const units = await unitsWithSums(runner, { mapping: b.mapping, repos, range, prices: PRICES });
          expect(units.map((u) => u.team)).toEqual([...outer].sort());
          for (const u of units) {
            const want = sumsOf(u.team);
            expect(u.sums, u.team).toMatchObject({
              active: want.active,
              toolCalls: want.toolCalls,
              userMessages: want.userMessages,
              credits: want.credits,
              prs: want.prs,
              manualToolCalls: want.manual,
              lowAutonomyToolCalls: want.low,
              highAutonomyToolCalls: want.high,
            });
            expect(u.sums.spend).toBeCloseTo((want.credits * 8) / 1e6, 9);
            expect(u.level).toBe(
              lowerMedian(repos.filter((r) => r.team && isWithin(r.team, u.team)).map((r) => levelOf(r.report.report))),
            );
          }
          for (const c of plain.criteria.filter((x) => x.shown)) {
            const sum = (names: string[]) => {
              const each = names.map(sumsOf);
              const of = (f: keyof ReturnType<typeof sumsOf>) => each.reduce((n, x) => n + x[f], 0);
              return { turn: ratio(of('toolCalls'), of('userMessages')), pr: ratio(of('credits'), of('prs')) };
            };
            for (const side of [c.failing, c.passing]) {
              const want = sum(side.names);
              expectNear(side.toolCallsPerTurn, want.turn, c.id);
              expectNear(side.creditsPerPr, want.pr, c.id);
            }
          }
          // Privacy mode: only teams the tree shows for k are compared or listed.
          const counts = new Map<string, number>();
          const memberOf = new Map(b.mapping.members.map((m) => [m.key.userId, m.team]));
          const people = new Set([...b.usersDays.values()].flat().map((x) => x.user_id));
          for (const m of b.mapping.members) people.add(m.key.userId!);
          for (const id of people) {
            const t = memberOf.get(id) ?? UNASSIGNED;
            for (const g of [...teams, UNASSIGNED]) if (isWithin(t, g)) counts.set(g, (counts.get(g) ?? 0) + 1);
          }
          const tree = (n: { path: string; children: readonly { path: string }[] }): CountedTeam => ({
            path: n.path,
            members: counts.get(n.path) ?? 0,
            children: (n.children as (typeof n)[]).map(tree),
          });
          const shown = shownTeams(
            [...teamTree(teams).map(tree), { path: UNASSIGNED, members: counts.get(UNASSIGNED) ?? 0, children: [] }],
            k,
          );
          const lens = await askFriction(runner, {
            mapping: b.mapping,
            repos,
            range,
            privacy: { minGroup: k, name: (id) => `P${id}` },
          });
          expect(lens.teams).toBe(outer.filter((t) => shown.has(t)).length);
          for (const c of lens.criteria)
            for (const t of [...c.failing.names, ...c.passing.names]) expect(shown.has(t), t).toBe(true);
          for (const r of [...lens.headroom.room, ...lens.headroom.risk]) expect(shown.has(r.team), r.team).toBe(true);
        } finally {
          await b.close();
        }
      }),
      { numRuns: store() ? 3 : 8 },
    );
  }, 180_000);
}

describe('friction’s teams and sums against brute force (embedded store)', () => suite(() => undefined));

describe.skipIf(!pgAvailable())('friction’s teams and sums against brute force (PostgreSQL)', () => {
  let db: FreshDatabase;
  beforeAll(async () => {
    db = (await freshDatabase())!;
  });
  afterAll(() => db?.drop());
  suite(() => db.url);
});
