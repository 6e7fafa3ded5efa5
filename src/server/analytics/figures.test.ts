/**
 * The figures runner against brute force, on random organizations and mappings, on both stores: each team's
 * figures are its people's and its sub-teams' (members, active people, sums, ratios, spend and the daily line), the
 * previous period and the change are the same figures over the days before, the organization's total is everyone's,
 * and the people grouping is each person's own. In privacy mode no team whose figures would describe, alone or by
 * difference with others shown, a group of 1 to k−1 people is a row.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, eachDay, previousPeriod, type Day, type DayRange } from '../../lib/dates';
import { userRow } from '../../test/fixtures';
import { putUsersDay } from '../../test/store-days';
import { silentLogger } from '../core/log';
import { openStore } from '../store/db';
import { openAnalytics } from './engine';
import { changeOf, valueOf, type MeasureId } from '../../lib/measures';
import { freshDatabase, pgAvailable, type FreshDatabase } from '../../test/postgres';
import { build, days, idOf, PRICES, scenario, type Scenario } from '../../test/team-scenario';
import { isWithin, parentOf, UNASSIGNED, withAncestors } from '../teams/tree';
import { createFigures } from './figures';

const range = { start: days[29]!, end: days.at(-1)! };
const MEASURES = [
  'members',
  'active',
  'adoption',
  'credits',
  'creditsPerActive',
  'toolCalls',
  'toolCallsPerTurn',
  'manualShare',
  'lowAutonomyShare',
  'highAutonomyShare',
  'commits',
  'prs',
  'creditsPerCommit',
  'creditsPerPr',
  'billedCredits',
  'spend',
  'spendPerActive',
  'spendPerCommit',
  'spendPerPr',
] as const satisfies readonly MeasureId[];

type Built = Awaited<ReturnType<typeof build>>;

/** The brute-force figures of the people `inGroup` keeps, over a range, from the rows written. */
function oracle(b: Built, s: Scenario, r: DayRange, inGroup: (team: string) => boolean) {
  const teamOf = (id: string) => b.mapping.members.find((m) => m.key.userId === id)?.team ?? UNASSIGNED;
  const sums: Record<string, number> = { credits: 0, toolCalls: 0, userMessages: 0, commits: 0, prs: 0 };
  // Each person-day's tool calls counted in its primary mode.
  const modes = { manualToolCalls: ['manual'], lowAutonomyToolCalls: ['manual', 'auto-low'] };
  const high = ['auto-high', 'auto-medium'];
  Object.assign(sums, { manualToolCalls: 0, lowAutonomyToolCalls: 0, highAutonomyToolCalls: 0 });
  const active = new Set<string>();
  for (const d of eachDay(r.start, r.end))
    for (const x of b.usersDays.get(d) ?? []) {
      if (!inGroup(teamOf(x.user_id))) continue;
      active.add(x.user_id);
      sums.credits! += x.billable_tokens;
      sums.toolCalls! += x.tool_calls;
      sums.userMessages! += x.user_messages;
      for (const [m, levels] of Object.entries(modes))
        if (levels.includes(x.delegation_level)) sums[m]! += x.tool_calls;
      if (high.includes(x.delegation_level)) sums.highAutonomyToolCalls! += x.tool_calls;
      sums.commits! += x.git_commits;
      sums.prs! += x.git_prs_created;
    }
  // Members: the people the mapping names (seen or not), and the people seen whom it names nowhere.
  const members = s.users.filter((u, i) => (u.team >= 0 || u.active.length > 0) && inGroup(teamOf(idOf(i)))).length;
  const of = (m: MeasureId): number =>
    m === 'members'
      ? members
      : m === 'active'
        ? active.size
        : m === 'billedCredits'
          ? sums.credits!
          : m === 'spend'
            ? (sums.credits! * 8) / 1e6
            : sums[m]!;
  return Object.fromEntries(MEASURES.map((m) => [m, valueOf(m, of)])) as Record<MeasureId, number | null>;
}

function expectClose(got: Record<string, number | null>, want: Record<string, number | null>, what: string) {
  for (const [k, v] of Object.entries(want)) {
    if (v === null) expect(got[k], `${what} ${k}`).toBeNull();
    else expect(got[k], `${what} ${k}`).toBeCloseTo(v, 6);
  }
}

/** Every subset of a list (the lists here are small). */
const subsets = <T>(xs: readonly T[]): T[][] =>
  xs.reduce<T[][]>((all, x) => [...all, ...all.map((s) => [...s, x])], [[]]);

function suite(store: () => string | undefined) {
  it('each team is its people and its sub-teams, with the period before and the change; the total is everyone', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const b = await build(s, store());
        try {
          const runner = createFigures(b.analytics);
          const ask = { mapping: b.mapping, measures: MEASURES, range, compare: true, prices: PRICES } as const;
          const teams = await runner.ask({ ...ask, by: 'team', scope: { people: null }, line: 'credits' });
          const groups = withAncestors([...b.mapping.teams, UNASSIGNED]);
          expect(teams.rows.map((r) => r.key)).toEqual(groups);
          const prev = previousPeriod(range)!;
          expect(teams.previous).toEqual(prev);
          for (const row of teams.rows) {
            const within = (t: string) => isWithin(t, row.key);
            const now = oracle(b, s, range, within);
            const before = oracle(b, s, prev, within);
            expectClose(row.current, now, row.key);
            expectClose(row.previous!, before, `${row.key} before`);
            expectClose(
              row.change!,
              Object.fromEntries(MEASURES.map((m) => [m, changeOf(now[m], before[m])])),
              `${row.key} change`,
            );
            const line = eachDay(range.start, range.end).map((d) =>
              (b.usersDays.get(d) ?? [])
                .filter((x) => within(b.mapping.members.find((m) => m.key.userId === x.user_id)?.team ?? UNASSIGNED))
                .reduce((n, x) => n + x.billable_tokens, 0),
            );
            expect(row.line).toEqual(line);
          }
          const [total] = (await runner.ask({ ...ask, by: 'total', scope: { people: null } })).rows;
          expectClose(
            total!.current,
            oracle(b, s, range, () => true),
            'total',
          );
          // A team chosen: its total is its row.
          const chosen = groups[0]!;
          const [one] = (await runner.ask({ ...ask, by: 'total', scope: { people: [chosen] } })).rows;
          expectClose(one!.current, teams.rows[0]!.current, `total of ${chosen}`);
          // By day: each day's credits and active people; by person: each one's credits.
          const byDay = await runner.ask({
            ...ask,
            measures: ['active', 'credits'],
            by: 'day',
            scope: { people: null },
          });
          expect(byDay.rows.map((r) => r.key)).toEqual(eachDay(range.start, range.end));
          for (const r of byDay.rows) {
            const rows = b.usersDays.get(r.key as Day) ?? [];
            expect(r.current).toEqual({
              active: rows.length,
              credits: rows.reduce((n, x) => n + x.billable_tokens, 0),
            });
          }
          const people = await runner.ask({ ...ask, measures: ['credits'], by: 'person', scope: { people: null } });
          const credits = new Map<string, number>();
          for (const d of eachDay(range.start, range.end))
            for (const x of b.usersDays.get(d) ?? [])
              credits.set(x.user_id, (credits.get(x.user_id) ?? 0) + x.billable_tokens);
          expect(new Map(people.rows.map((r) => [r.key, r.current.credits]))).toEqual(credits);
          const values = people.rows.map((r) => r.current.credits!);
          expect(values).toEqual([...values].sort((x, y) => y - x));
        } finally {
          await b.close();
        }
      }),
      { numRuns: store() ? 4 : 10 },
    );
  }, 180_000);
}

describe('the figures runner against brute force (embedded store)', () => suite(() => undefined));

describe.skipIf(!pgAvailable())('the figures runner against brute force (PostgreSQL)', () => {
  let db: FreshDatabase;
  beforeAll(async () => {
    db = (await freshDatabase())!;
  });
  afterAll(() => db?.drop());
  suite(() => db.url);
});

describe('privacy inside the runner', () => {
  it('no two teams shown differ by 1 to k−1 members, and people come by pseudonym in its order', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, fc.integer({ min: 2, max: 5 }), async (s, k) => {
        const b = await build(s);
        try {
          // The whole history copied first: asked at once, the second of two would count the people copied so far.
          await b.analytics.catchUp();
          const runner = createFigures(b.analytics);
          const name = (id: string) => `P${[...id].reverse().join('')}`;
          const privacy = { minGroup: k, name };
          const [shown, all] = await Promise.all(
            [{ privacy }, {}].map((extra) =>
              runner.ask({
                mapping: b.mapping,
                measures: ['members', 'credits'],
                range,
                by: 'team',
                scope: { people: null, ...extra },
              }),
            ),
          );
          const members = new Map(all!.rows.map((r) => [r.key, r.current.members!]));
          const everyone = [...members].filter(([t]) => parentOf(t) === null).reduce((n, [, m]) => n + m, 0);
          const rows = shown!.rows.map((r) => r.key);
          const small = (n: number) => n > 0 && n < k;
          // A team shown, or the organization, less any of its shown sub-teams (nearest shown below it).
          for (const top of ['', ...rows]) {
            const below = rows.filter(
              (t) =>
                t !== top &&
                (top === '' || isWithin(t, top)) &&
                !rows.some((o) => o !== t && o !== top && (top === '' || isWithin(o, top)) && isWithin(t, o)),
            );
            const m = top === '' ? everyone : members.get(top)!;
            // The organization's total is exact, whatever its size; a team shown names k people or none.
            if (top !== '') expect(small(m), `${top} has ${m}`).toBe(false);
            // (Less teams of no one, a figure is itself: the organization's is exact.)
            for (const some of subsets(below.slice(0, 6))) {
              const less = some.reduce((n, t) => n + members.get(t)!, 0);
              if (less > 0 || top !== '') expect(small(m - less), `${top} less ${some.join(', ')}`).toBe(false);
            }
          }
          // People: named as the reader sees them, ties ordered by that name.
          const people = await runner.ask({
            mapping: b.mapping,
            measures: ['credits'],
            range,
            by: 'person',
            scope: { people: null, privacy },
          });
          for (const r of people.rows) expect(r.key.startsWith('P')).toBe(true);
          // The first three: the first three of everyone, in the same order.
          const top = await runner.ask({
            mapping: b.mapping,
            measures: ['credits'],
            range,
            by: 'person',
            scope: { people: null, privacy },
            top: 3,
          });
          expect(top.rows).toEqual(people.rows.slice(0, 3));
          for (let i = 1; i < people.rows.length; i++) {
            const [x, y] = [people.rows[i - 1]!, people.rows[i]!];
            if (x.current.credits === y.current.credits) expect(x.key < y.key).toBe(true);
          }
        } finally {
          await b.close();
        }
      }),
      { numRuns: 10 },
    );
  }, 180_000);
});

describe('a reader during the copy of the history', () => {
  it('is answered from the range’s days while the whole history is still being copied', async () => {
    // 200 days of 60 people: the whole copy takes many of the loader's turns; a reader's range goes first.
    const store = await openStore({ dataDir: ':memory:' });
    const all = eachDay('2026-02-01', addDays('2026-02-01', 199));
    for (const day of all) {
      const rows = Array.from({ length: 60 }, (_, i) =>
        userRow({ user_id: `usr_${i}`, user_email: `p${i}@x`, date: day, billable_tokens: i + 1 }),
      );
      await putUsersDay(store, day, rows, 'v1');
    }
    // Readers of everyone known take the days copied so far at once (3 s by default: the copy here is small).
    const analytics = await openAnalytics(store, { file: ':memory:', logger: silentLogger, wholeWaitMs: 0 });
    try {
      let whole = false;
      const copying = analytics.catchUp().then(() => (whole = true));
      const runner = createFigures(analytics);
      const week = { start: addDays(all.at(-1)!, -6), end: all.at(-1)! };
      const [row] = (
        await runner.ask({
          mapping: null,
          measures: ['members', 'active', 'credits'],
          range: week,
          by: 'total',
          scope: { people: null },
        })
      ).rows;
      expect(whole).toBe(false);
      // Members are everyone known so far: the week's copy holds all 60.
      expect(row!.current).toEqual({ members: 60, active: 60, credits: 7 * ((60 * 61) / 2) });
      await copying;
    } finally {
      await analytics.close();
      await store.close();
    }
  }, 120_000);
});
