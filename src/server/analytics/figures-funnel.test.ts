/**
 * From access to a first pull request as measures of the figures runner, against brute force on constructed histories,
 * on both stores: each person's access (the mapping's since, else the earlier of the first day named and the first day
 * seen), the starters of each group (by team, ISO week and day), those whose windows have ended, those reaching each
 * step within them and the median days, the starters in grace; and privacy mode withholding every group of fewer
 * than k starters, any group whose withheld siblings would be told by difference, and every day.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../api/schemas';
import { addDays, daysBetween, eachDay, HISTORY_START, weekStart, type Day, type DayRange } from '../../lib/dates';
import type { MeasureId } from '../../lib/measures';
import { userRow } from '../../test/fixtures';
import { freshDatabase, pgAvailable, type FreshDatabase } from '../../test/postgres';
import { putUsersDay } from '../../test/store-days';
import { silentLogger } from '../core/log';
import { openStore } from '../store/db';
import { storedMembership } from '../store/membership-queries';
import type { Mapping } from '../teams/mapping';
import { isWithin, parentOf, UNASSIGNED, withAncestors } from '../teams/tree';
import { openAnalytics } from './engine';
import { createFigures } from './figures';
import { createMemberHistory } from './member-history';
import { suppressed, teamsWithheld } from './funnel-privacy';

const DAYS = eachDay(HISTORY_START, '2026-04-12');
/** The day members not named before are first named on. */
const TODAY = '2026-03-20';
const TEAMS = ['Eng', 'Eng/Web', 'Data'];
const COUNTS = [
  'funnelStarters',
  'funnelGrace',
  'funnelDue',
  'funnelRetainedDue',
  'funnelSession',
  'funnelCommit',
  'funnelPr',
  'funnelRetained',
] as const;
const ALL = [
  ...COUNTS,
  'funnelSessionShare',
  'funnelCommitShare',
  'funnelPrShare',
  'funnelRetainedShare',
  'funnelSessionDays',
  'funnelCommitDays',
  'funnelPrDays',
] as MeasureId[];

const person = fc.record({
  // -1: named in no team (Unassigned once seen; no one until then).
  team: fc.integer({ min: -1, max: 2 }),
  since: fc.option(fc.nat(DAYS.length - 1), { nil: undefined }),
  named: fc.option(fc.nat(DAYS.length - 1), { nil: undefined }),
  days: fc.uniqueArray(
    fc.record({
      d: fc.nat(DAYS.length - 1),
      s: fc.constantFrom(0, 1),
      c: fc.constantFrom(0, 0, 1),
      p: fc.constantFrom(0, 0, 1),
    }),
    { selector: (x) => x.d, maxLength: 12 },
  ),
});
const history = fc.array(person, { minLength: 1, maxLength: 30 });
type History = (typeof history extends fc.Arbitrary<infer T> ? T : never)[number][];

const idOf = (i: number) => `usr_${String(i).padStart(2, '0')}`;

/** A person of a team (its index in TEAMS) whose access is the day of index `d`, active that day. */
const starter = (team: number, d: number): History[number] => ({
  team,
  since: d,
  named: undefined,
  days: [{ d, s: 1, c: 0, p: 0 }],
});

// ---- the oracle ---------------------------------------------------------------------------------------------

/** Each person's funnel as of a day, person by person. */
function people(h: History, asOf: Day, grace: number) {
  return h.flatMap((p, i) => {
    const days = p.days.filter((x) => DAYS[x.d]! <= asOf).sort((a, b) => a.d - b.d);
    const seen = days[0] && DAYS[days[0].d]!;
    const named = p.team < 0 ? undefined : p.named !== undefined ? DAYS[p.named]! : TODAY;
    const since = p.team < 0 || p.since === undefined ? undefined : DAYS[p.since]!;
    const earlier = [named, seen].filter((d) => d !== undefined).sort()[0];
    const access = since ?? earlier;
    if (access === undefined) return [];
    const first = (k: 's' | 'c' | 'p') => {
      const d = days.find((x) => x[k] > 0);
      if (!d || DAYS[d.d]! > addDays(access, 27)) return null;
      return Math.max(0, daysBetween(access, DAYS[d.d]!));
    };
    const retained = days.some(
      (x) => x.s > 0 && DAYS[x.d]! >= addDays(access, 28) && DAYS[x.d]! <= addDays(access, 34),
    );
    return [
      {
        id: idOf(i),
        team: p.team < 0 ? UNASSIGNED : TEAMS[p.team]!,
        access,
        grace: addDays(access, grace) > asOf,
        due: addDays(access, 27) <= asOf,
        retainedDue: addDays(access, 34) <= asOf,
        ds: first('s'),
        dc: first('c'),
        dp: first('p'),
        retained,
      },
    ];
  });
}
type Person = ReturnType<typeof people>[number];

const median = (xs: number[]) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The brute-force funnel of a group's starters. */
function oracle(group: Person[], k = 1): Record<string, number | null> {
  const due = group.filter((p) => p.due);
  const rdue = group.filter((p) => p.retainedDue);
  const reached = (k: 'ds' | 'dc' | 'dp') => due.filter((p) => p[k] !== null);
  const share = (n: number, d: number) => (d === 0 ? null : n / d);
  const out: Record<string, number | null> = {
    funnelStarters: group.length,
    funnelGrace: group.filter((p) => p.grace).length,
    funnelDue: due.length,
    funnelRetainedDue: rdue.length,
    funnelSession: reached('ds').length,
    funnelCommit: reached('dc').length,
    funnelPr: reached('dp').length,
    funnelRetained: rdue.filter((p) => p.retained).length,
    funnelSessionDays: median(reached('ds').map((p) => p.ds!)),
    funnelCommitDays: median(reached('dc').map((p) => p.dc!)),
    funnelPrDays: median(reached('dp').map((p) => p.dp!)),
  };
  out.funnelSessionShare = share(out.funnelSession!, due.length);
  out.funnelCommitShare = share(out.funnelCommit!, due.length);
  out.funnelPrShare = share(out.funnelPr!, due.length);
  out.funnelRetainedShare = share(out.funnelRetained!, rdue.length);
  // Privacy mode (k): a group's grace, steps (of those due) and still active (of those due for it) are each figures of
  // a group of their own, none for 1 to k−1 people.
  const few = (n: number) => n > 0 && n < k;
  const none = (ms: string[]) => ms.forEach((m) => (out[m] = null));
  if (few(out.funnelGrace!)) none(['funnelGrace']);
  if (few(due.length))
    none(
      ['funnelDue', 'funnelSession', 'funnelCommit', 'funnelPr', 'funnelSessionDays', 'funnelCommitDays'].concat([
        'funnelPrDays',
        'funnelSessionShare',
        'funnelCommitShare',
        'funnelPrShare',
      ]),
    );
  if (few(rdue.length)) none(['funnelRetainedDue', 'funnelRetained', 'funnelRetainedShare']);
  return out;
}

/** How many of a week's starters of the range are `days` past their access by its end: all, none or some. */
function past(week: string, r: DayRange, days: number): 'all' | 'none' | 'part' {
  const [first, last] = [week < r.start ? r.start : week, addDays(week, 6) > r.end ? r.end : addDays(week, 6)];
  return addDays(last, days) <= r.end ? 'all' : addDays(first, days) > r.end ? 'none' : 'part';
}

/** Privacy mode: a week's figures with those of a part of its starters (due, due for still active, in grace) none. */
function heldWeek(want: Record<string, number | null>, week: string, r: DayRange, grace: number) {
  const out = { ...want };
  const none = (ms: string[]) => ms.forEach((m) => (out[m] = null));
  if (past(week, r, 27) === 'part')
    none(
      ['funnelDue', 'funnelSession', 'funnelCommit', 'funnelPr', 'funnelSessionShare', 'funnelCommitShare'].concat([
        'funnelPrShare',
        'funnelSessionDays',
        'funnelCommitDays',
        'funnelPrDays',
      ]),
    );
  if (past(week, r, 34) === 'part') none(['funnelRetainedDue', 'funnelRetained', 'funnelRetainedShare']);
  if (past(week, r, grace) === 'part') none(['funnelGrace']);
  return out;
}

/**
 * Privacy mode: a group's steps, still active and grace as the sums of its weeks given (`weeks`, as asked) wholly past
 * their day, and no median.
 */
function heldRow(
  want: Record<string, number | null>,
  weeks: readonly { key: string; current: Record<string, number | null> }[],
  r: DayRange,
  grace: number,
) {
  const given = weeks.filter((w) => w.current.funnelStarters !== null);
  const sum = (m: string, days: number) =>
    given.reduce((s, w) => s + (past(w.key, r, days) === 'all' ? (w.current[m] ?? 0) : 0), 0);
  const out: Record<string, number | null> = { ...want };
  for (const m of ['funnelDue', 'funnelSession', 'funnelCommit', 'funnelPr']) out[m] = sum(m, 27);
  for (const m of ['funnelRetainedDue', 'funnelRetained']) out[m] = sum(m, 34);
  out.funnelGrace = given.reduce((s, w) => s + (past(w.key, r, grace) === 'none' ? w.current.funnelStarters! : 0), 0);
  const share = (n: number | null, d: number | null) => (d ? n! / d : null);
  out.funnelSessionShare = share(out.funnelSession!, out.funnelDue!);
  out.funnelCommitShare = share(out.funnelCommit!, out.funnelDue!);
  out.funnelPrShare = share(out.funnelPr!, out.funnelDue!);
  out.funnelRetainedShare = share(out.funnelRetained!, out.funnelRetainedDue!);
  out.funnelSessionDays = out.funnelCommitDays = out.funnelPrDays = null;
  // A level none of whose weeks given is wholly past its day has no figure (a group of no starters gives its zeros).
  if (!want.funnelStarters) return out;
  const none = (ms: string[]) => ms.forEach((m) => (out[m] = null));
  if (!given.some((w) => past(w.key, r, 27) === 'all'))
    none(
      ['funnelDue', 'funnelSession', 'funnelCommit', 'funnelPr', 'funnelSessionShare', 'funnelCommitShare'].concat([
        'funnelPrShare',
      ]),
    );
  if (!given.some((w) => past(w.key, r, 34) === 'all'))
    none(['funnelRetainedDue', 'funnelRetained', 'funnelRetainedShare']);
  if (!given.some((w) => past(w.key, r, grace) !== 'part')) none(['funnelGrace']);
  return out;
}

const starters = (ps: Person[], r: DayRange) =>
  ps.filter((p) => p.access > HISTORY_START && p.access >= r.start && p.access <= r.end);

function expectClose(got: Record<string, number | null>, want: Record<string, number | null>, what: string) {
  for (const [k, v] of Object.entries(want)) {
    if (v === null) expect(got[k], `${what} ${k}`).toBeNull();
    else expect(got[k], `${what} ${k}`).toBeCloseTo(v, 9);
  }
}

// ---- the properties -----------------------------------------------------------------------------------------

function suite(databaseUrl: () => string | undefined) {
  const open = async () => {
    const store = await openStore(databaseUrl() ? { databaseUrl: databaseUrl()! } : { dataDir: ':memory:' });
    await store.db.deleteFrom('member_team').execute();
    return store;
  };

  it('gives each group’s starters and steps, by team, week and day, with grace', async () => {
    await fc.assert(
      fc.asyncProperty(
        history,
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 6 }),
        async (h, grace, k) => {
          const store = await open();
          const analytics = await openAnalytics(store, { file: ':memory:', logger: silentLogger });
          try {
            const byDay = new Map<Day, UserRow[]>();
            h.forEach((p, i) => {
              for (const { d, s, c, p: pr } of p.days)
                byDay.set(DAYS[d]!, [
                  ...(byDay.get(DAYS[d]!) ?? []),
                  userRow({
                    user_id: idOf(i),
                    user_email: null,
                    date: DAYS[d]!,
                    sessions: s,
                    git_commits: c,
                    git_prs_created: pr,
                  }),
                ]);
            });
            for (const day of DAYS) await putUsersDay(store, day, byDay.get(day) ?? [], 'v1');
            const mapping = {
              teams: withAncestors(TEAMS),
              members: h.flatMap((p, i) =>
                p.team < 0
                  ? []
                  : [
                      {
                        key: { userId: idOf(i) },
                        team: TEAMS[p.team]!,
                        ...(p.since !== undefined && { since: DAYS[p.since]! }),
                      },
                    ],
              ),
              managers: new Map(),
              repos: [],
            } as unknown as Mapping;
            // Some members were named before today, each in a mapping recorded on its day: their first day named is
            // the store's.
            const keeper = storedMembership(store.db);
            const namedBefore = [...h.entries()].filter(([, p]) => p.team >= 0 && p.named !== undefined);
            for (const d of [...new Set(namedBefore.map(([, p]) => p.named!))].sort((x, y) => x - y))
              await keeper.record(
                new Map(
                  namedBefore.filter(([, p]) => p.named! <= d).map(([i, p]) => [`id:${idOf(i)}`, TEAMS[p.team]!]),
                ),
                DAYS[d]!,
              );
            const history = createMemberHistory(analytics, { keeper, latestDay: () => addDays(TODAY, -1) });
            const runner = createFigures(analytics, { funnel: { history, graceDays: grace } });
            const privacy = k > 1 ? { minGroup: k, name: (id: string) => `P-${id}` } : undefined;

            const range: DayRange = { start: '2026-03-02', end: '2026-03-29' };
            const all = people(h, range.end, grace);
            const teams = await runner.ask({
              mapping,
              measures: ALL,
              range,
              by: 'team',
              compare: true,
              scope: { people: null, ...(privacy && { privacy }) },
            });
            expect(teams.funnel).toEqual({ graceDays: grace, minStarters: privacy ? k : 1 });
            const prev = teams.previous!;
            const before = people(h, prev.end, grace);
            const groups = withAncestors([...TEAMS, UNASSIGNED]);
            if (!privacy) expect(teams.rows.map((r) => r.key)).toEqual(groups);
            for (const row of teams.rows) {
              const within = (p: Person) => isWithin(p.team, row.key);
              const want = oracle(starters(all.filter(within), range), privacy ? k : 1);
              if (!privacy) {
                expectClose(row.current, want, row.key);
                expectClose(row.previous!, oracle(starters(before.filter(within), prev)), `${row.key} before`);
              } else if (row.current.funnelStarters === null) {
                for (const m of ALL) expect(row.current[m], `${row.key} ${m} withheld`).toBeNull();
              } else {
                const weeks = await runner.ask({
                  mapping,
                  measures: ALL,
                  range,
                  by: 'week',
                  scope: { people: [row.key], privacy },
                });
                expectClose(row.current, heldRow(want, weeks.rows, range, grace), row.key);
                // No starters tell nothing of anyone.
                if (want.funnelStarters! > 0) expect(want.funnelStarters).toBeGreaterThanOrEqual(k);
              }
            }
            if (privacy) {
              // What is withheld under each parent (its own people included) is none or at least k starters: no
              // withheld group is the difference of groups shown (nor of the organization's total, itself withheld
              // under k).
              const n = (t: string | null) =>
                starters(
                  all.filter((p) => t === null || isWithin(p.team, t)),
                  range,
                ).length;
              const shown = new Map(teams.rows.map((r) => [r.key, r.current.funnelStarters]));
              for (const parent of [null, ...groups]) {
                const kids = groups.filter((t) => parentOf(t) === parent);
                const told = n(parent) - kids.reduce((s, t) => s + (shown.get(t) ?? 0), 0);
                if (
                  kids.some((t) => shown.get(t) != null) &&
                  (parent === null ? n(null) >= k : shown.get(parent) != null)
                )
                  expect(told === 0 || told >= k, `under ${parent ?? 'the organization'}: ${told}`).toBe(true);
              }
            }

            // One person's own funnel is a group of one: withheld in privacy mode.
            if (privacy && h.length > 0) {
              const own = await runner.ask({
                mapping,
                measures: ALL,
                range,
                by: 'total',
                scope: { people: { user: idOf(0) }, privacy },
              });
              expect(own.rows[0]?.current.funnelStarters ?? null).toBeNull();
            }

            // A team's weekly cohorts of starters, each week's windows judged on the range's end.
            const eng = await runner.ask({
              mapping,
              measures: ALL,
              range,
              by: 'week',
              scope: { people: ['Eng'], ...(privacy && { privacy }) },
            });
            const weeks = eachDay(weekStart(range.start), range.end).filter((d) => d === weekStart(d));
            expect(eng.rows.map((r) => r.key)).toEqual(weeks);
            const engs = starters(
              all.filter((p) => isWithin(p.team, 'Eng')),
              range,
            );
            for (const row of eng.rows) {
              const cohort = oracle(
                engs.filter((p) => weekStart(p.access) === row.key),
                privacy ? k : 1,
              );
              // A week of no starters splits no one.
              const want = privacy && cohort.funnelStarters! > 0 ? heldWeek(cohort, row.key, range, grace) : cohort;
              if (row.current.funnelStarters === null) {
                expect(privacy, `Eng, week of ${row.key} withheld`).toBeDefined();
              } else expectClose(row.current, want, `Eng, week of ${row.key}`);
            }
            // Eng's total of fewer than k is withheld too: then nothing is told by difference.
            if (privacy && engs.length >= k) {
              const told = engs.length - eng.rows.reduce((s, r) => s + (r.current.funnelStarters ?? 0), 0);
              expect(told === 0 || told >= k, `Eng's withheld weeks: ${told}`).toBe(true);
            }

            // Across scopes of teams, as a manager may ask them: a scope's figure less a scope within it (a team within
            // its parent, one of the teams chosen together) tells none or at least k starters, for the range's total
            // and for each week.
            if (privacy) {
              const scopes = [['Eng'], ['Eng/Web'], ['Data'], ['Eng/Web', 'Data'], ['Eng', 'Data']];
              const asked = await Promise.all(
                scopes.flatMap((people) =>
                  (['total', 'week'] as const).map(async (by) => {
                    const got = await runner.ask({ mapping, measures: ALL, range, by, scope: { people, privacy } });
                    return { people, by, shown: new Map(got.rows.map((r) => [r.key, r.current.funnelStarters])) };
                  }),
                ),
              );
              const within = (inner: string[], outer: string[]) =>
                inner.every((t) => outer.some((o) => isWithin(t, o))) && inner.join() !== outer.join();
              for (const outer of asked)
                for (const inner of asked)
                  if (inner.by === outer.by && within(inner.people, outer.people))
                    for (const [key, big] of outer.shown) {
                      const small = inner.shown.get(key);
                      if (big == null || small == null) continue;
                      const told = big - small;
                      expect(
                        told === 0 || told >= k,
                        `${outer.people.join('+')} less ${inner.people.join('+')}, ${inner.by} ${key}: ${told}`,
                      ).toBe(true);
                    }
            }

            // Everyone, day by day.
            const daily = { start: '2026-03-02', end: '2026-03-15' };
            const on = people(h, daily.end, grace);
            const days = await runner.ask({ mapping, measures: ALL, range: daily, by: 'day', scope: { people: null } });
            for (const row of days.rows)
              expectClose(row.current, oracle(starters(on, daily).filter((p) => p.access === row.key)), row.key);

            // In privacy mode no day is given (a day within its week and its teams would be a third side of the
            // grid); the weeks withheld tell none or at least k starters.
            if (privacy)
              for (const scope of [null, ['Eng']]) {
                const askBy = (by: 'day' | 'week') =>
                  runner.ask({ mapping, measures: ALL, range: daily, by, scope: { people: scope, privacy } });
                const [byDay, byWeek] = await Promise.all([askBy('day'), askBy('week')]);
                expect(byDay.rows.map((d) => d.key)).toEqual(eachDay(daily.start, daily.end));
                for (const d of byDay.rows) expect(d.current.funnelStarters, `${d.key} given`).toBeNull();
                const inScope = starters(on, daily).filter((p) => scope === null || isWithin(p.team, 'Eng'));
                const unshown = byWeek.rows
                  .filter((w) => w.current.funnelStarters === null)
                  .reduce((s, w) => s + inScope.filter((p) => weekStart(p.access) === w.key).length, 0);
                // A total of fewer than k is withheld too: then nothing is told by difference.
                if (inScope.length >= k)
                  expect(unshown === 0 || unshown >= k, `${scope ?? 'all'}, weeks withheld: ${unshown}`).toBe(true);
              }
          } finally {
            await analytics.close();
            await store.close();
          }
        },
      ),
      {
        numRuns: databaseUrl() ? 3 : 8,
        // Four starters of Eng/Web and one of Data in one week: the two teams' cohort less Eng/Web's would tell Data's.
        // Four starters of Eng on a Monday and one the next day, three the week after: asked by day, the one and the
        // three were withheld together, and the first week less its Monday told the one.
        examples: [
          // Two starters of Data, none of Eng: Eng's weeks, all empty, give their zeros (one is only partly past).
          [
            [
              { team: 2, since: 47, named: undefined, days: [] },
              { team: 2, since: undefined, named: undefined, days: [] },
            ],
            0,
            2,
          ],
          // Three starters of Eng, one of them four weeks in by the range's end: Eng's steps are that one's.
          [['2026-03-02', '2026-03-10', '2026-03-10'].map((day) => starter(0, DAYS.indexOf(day))), 0, 3],
          [[...Array(4).fill(1), 2].map((team) => starter(team, DAYS.indexOf('2026-03-04'))), 0, 3],
          [
            [...Array<string>(4).fill('2026-03-02'), '2026-03-03', ...Array<string>(3).fill('2026-03-10')].map((day) =>
              starter(0, DAYS.indexOf(day)),
            ),
            0,
            3,
          ],
        ],
      },
    );
  }, 240_000);
}

describe('the funnel against brute force (embedded store)', () => suite(() => undefined));

describe.skipIf(!pgAvailable())('the funnel against brute force (PostgreSQL)', () => {
  let db: FreshDatabase;
  beforeAll(async () => {
    db = (await freshDatabase())!;
  });
  afterAll(() => db?.drop());
  suite(() => db.url);
});

describe('the funnel is never a list of people', () => {
  it('refuses a question by person', async () => {
    const store = await openStore({ dataDir: ':memory:' });
    const analytics = await openAnalytics(store, { file: ':memory:', logger: silentLogger });
    try {
      await expect(
        createFigures(analytics).ask({
          mapping: null,
          measures: ['funnelPrShare'],
          range: { start: '2026-03-01', end: '2026-03-31' },
          by: 'person',
          scope: { people: null },
        }),
      ).rejects.toThrow('the funnel is given per group, never as a list of people');
    } finally {
      await analytics.close();
      await store.close();
    }
  });
});

describe('privacy mode withholds no group its siblings would tell by difference', () => {
  const hidden = (total: number, kids: [string, number][]) => [...suppressed(total, kids, 3)].sort();
  it('withholds a group under k, then the smallest shown until what is withheld is none or at least k', () => {
    expect(hidden(9, [['A', 9]])).toEqual([]);
    expect(
      hidden(10, [
        ['A', 5],
        ['B', 5],
      ]),
    ).toEqual([]);
    // B alone would be the total less A.
    expect(
      hidden(10, [
        ['A', 8],
        ['B', 2],
      ]),
    ).toEqual(['A', 'B']);
    // B and the smallest shown, C: five withheld together.
    expect(
      hidden(10, [
        ['A', 5],
        ['B', 2],
        ['C', 3],
      ]),
    ).toEqual(['B', 'C']);
    // The parent's own two people are told by difference unless a child goes with them.
    expect(hidden(10, [['A', 8]])).toEqual(['A']);
    // A group of none tells nothing.
    expect(
      hidden(6, [
        ['A', 3],
        ['B', 3],
        ['C', 0],
      ]),
    ).toEqual([]);
  });

  it('leaves none or at least k of the members the children are among untold', () => {
    const outer = (total: number, kids: [string, number][], members: number) =>
      [...suppressed(total, kids, 3, new Set(), members)].sort();
    // All nine starters shown as their cohorts would leave the group's eleven members less them: two people.
    expect(
      outer(
        9,
        [
          ['A', 4],
          ['B', 5],
        ],
        11,
      ),
    ).toEqual(['A']);
    // Three members who are not starters are k: nothing more is withheld.
    expect(
      outer(
        9,
        [
          ['A', 4],
          ['B', 5],
        ],
        12,
      ),
    ).toEqual([]);
  });

  it('withholds a team whose members less its starters are under k, and what would tell it by difference', () => {
    const withheld = (teams: Record<string, [starters: number, members: number]>, also: string[] = []) => {
      const all = Object.keys(teams);
      const tops = all.filter((t) => !t.includes('/'));
      const count = (t: string) => teams[t]![0];
      const members = (t: string | null) => (t === null ? tops.reduce((s, x) => s + teams[x]![1], 0) : teams[t]![1]);
      const total = tops.reduce((s, t) => s + count(t), 0);
      return [...teamsWithheld(all, total, count, 5, new Set(also), members)].sort();
    };
    // R1's two members who are not starters would be its 12 members less its starters, which the organization's
    // 60 less R2's and R3's would tell: R3 goes with it.
    expect(withheld({ R1: [10, 12], R2: [30, 30], R3: [20, 40] }, ['R1'])).toEqual(['R1', 'R3']);
    // P's own 10 people, 8 of them starters: its 20 members and 13 starters less C's 10 and 5 would tell the two.
    expect(withheld({ P: [13, 20], 'P/C': [5, 10] })).toEqual(['P/C']);
    // With five of P's own people not starters, both are shown.
    expect(withheld({ P: [13, 23], 'P/C': [5, 10] })).toEqual([]);
  });
});
