/**
 * Team answers reconcile for any organization and any mapping: the top-level teams plus Unassigned add up to
 * everyone, day by day, for every sum and every count of active people of the four endpoints' team rows and of
 * the teams page's figures; and active people per day, week and month are the distinct people a brute-force
 * count finds. Each organization is written into a store as the sync writes it and read through the engine.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UserRow } from '../../api/schemas';
import { addDays, eachDay, type Day } from '../../lib/dates';
import { putTokensDay, putUsersDay } from '../../test/store-days';
import { silentLogger } from '../core/log';
import { parsePrices } from '../spend/prices';
import { openStore } from '../store/db';
import type { Mapping } from '../teams/mapping';
import { inSelection, parentOf, rollUp, UNASSIGNED, withAncestors } from '../teams/tree';
import { openAnalytics } from './engine';
import { createSpend } from './spend';
import { addSums, createTeamFigures, zeroSums, type GroupSums } from './teams';

const parsed = parsePrices('{"currency": "EUR", "prices": [{"from": "2026-01-14", "perMillionCredits": 8}]}');
if (!parsed.ok) throw new Error('the test prices are refused');
const PRICES = parsed.prices;

const FIRST = '2026-02-01';
const DAYS = 40;
const days = eachDay(FIRST, addDays(FIRST, DAYS - 1));

const teamPath = fc
  .array(fc.constantFrom('Eng', 'Data', 'Ops', 'ML'), { minLength: 1, maxLength: 3 })
  .map((p) => p.join('/'));

const scenario = fc.record({
  teams: fc.uniqueArray(teamPath, { minLength: 1, maxLength: 8 }),
  users: fc.array(
    fc.record({
      team: fc.integer({ min: -1, max: 10 }),
      active: fc.uniqueArray(fc.nat(DAYS - 1), { maxLength: 12 }),
      seed: fc.nat(1000),
    }),
    { minLength: 1, maxLength: 30 },
  ),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

const idOf = (i: number) => `usr_${String(i).padStart(2, '0')}`;

/** The scenario's organization in a fresh store, read through a fresh engine. */
async function build(s: Scenario) {
  const store = await openStore({ dataDir: ':memory:' });
  const analytics = await openAnalytics(store, { file: ':memory:', logger: silentLogger });
  const usersDays = new Map<string, UserRow[]>();
  const tokenDays = new Map<string, unknown[]>();
  s.users.forEach((u, i) => {
    for (const d of u.active) {
      const v = (k: number) => ((u.seed * 31 + d * 7 + k * 13) % 50) + (k === 4 ? 1 : 0);
      const row: UserRow = {
        user_id: idOf(i),
        user_email: null,
        date: days[d]!,
        billable_tokens: v(0),
        tool_calls: v(1),
        sessions: v(2),
        messages: v(3),
        user_messages: v(4),
        assistant_messages: v(5),
        files_created: v(6),
        files_edited: v(7),
        git_commits: v(8),
        git_prs_created: v(9),
        mcp_calls: v(10) % 3,
        skill_calls: v(11),
        slash_commands: v(12),
        hooks: v(13),
        autonomy_ratio: v(14) / 10,
        primary_model: 'opus',
        primary_model_tier: 'standard',
        delegation_level: 'manual',
        languages: [],
      };
      usersDays.set(days[d]!, [...(usersDays.get(days[d]!) ?? []), row]);
      tokenDays.set(days[d]!, [
        ...(tokenDays.get(days[d]!) ?? []),
        {
          user_id: row.user_id,
          billable_tokens: row.billable_tokens,
          by_model: [
            {
              model_id: `m${d % 3}`,
              model_tier: 'standard',
              billable_tokens: row.billable_tokens,
              input_tokens: v(20),
              output_tokens: v(21),
            },
          ],
        },
      ]);
    }
  });
  for (const day of days) {
    await putUsersDay(store, day, usersDays.get(day) ?? [], 'v1');
    const split = tokenDays.get(day);
    await putTokensDay(
      store,
      day,
      JSON.stringify(split ? [{ date: day, billable_tokens: 0, by_user: split }] : []),
      'v1',
    );
  }
  const mapping = {
    teams: withAncestors(s.teams),
    members: s.users.flatMap((u, i) =>
      u.team < 0 ? [] : [{ key: { userId: idOf(i) }, team: s.teams[u.team % s.teams.length]! }],
    ),
    managers: new Map(),
  } as unknown as Mapping;
  const tops = [...new Set([...withAncestors(s.teams).filter((t) => parentOf(t) === null), UNASSIGNED])];
  return {
    t: createTeamFigures(analytics),
    spend: createSpend(analytics),
    mapping,
    tops,
    usersDays,
    close: async () => {
      await analytics.close();
      await store.close();
    },
  };
}

const range = { start: days[29]!, end: days.at(-1)! };

describe('team answers reconcile for any mapping', () => {
  it('top-level teams and Unassigned add up to everyone, for each endpoint and day', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { t, mapping, tops, close } = await build(s);
        try {
          for (const fn of [t.tokenDays, t.toolDays, t.activityDays, t.productivityDays] as const) {
            const all = (await fn(mapping, null, range)) as unknown as Record<string, unknown>[];
            const parts: Record<string, unknown>[][] = [];
            for (const top of tops)
              parts.push((await fn(mapping, [top], range)) as unknown as Record<string, unknown>[]);
            all.forEach((day, i) => {
              for (const [k, v] of Object.entries(day)) {
                if (typeof v !== 'number' || /avg|p50|p90/.test(k)) continue;
                expect(
                  parts.reduce((x, p) => x + (p[i]![k] as number), 0),
                  k,
                ).toBe(v);
              }
            });
          }
          const everyone = await t.activeIn(mapping, null, range);
          let sum = 0;
          for (const top of tops) sum += await t.activeIn(mapping, [top], range);
          expect(sum).toBe(everyone);
        } finally {
          await close();
        }
      }),
      { numRuns: 10 },
    );
  });

  it('active people per day, week and month are distinct people, as a brute-force count finds them', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, fc.nat(7), async (s, pick) => {
        const { t, mapping, tops, usersDays, close } = await build(s);
        try {
          const sel = [tops[pick % tops.length]!];
          const teamOf = (id: string) => mapping.members.find((m) => m.key.userId === id)?.team ?? UNASSIGNED;
          const rows = [...usersDays.values()].flat().filter((r) => inSelection(teamOf(r.user_id), sel));
          for (const a of await t.activityDays(mapping, sel, range)) {
            const distinct = (from: string) =>
              new Set(rows.filter((r) => r.date >= from && r.date <= a.date).map((r) => r.user_id)).size;
            expect([a.daily_active_users, a.weekly_active_users, a.monthly_active_users]).toEqual([
              distinct(a.date),
              distinct(addDays(a.date as Day, -6)),
              distinct(addDays(a.date as Day, -29)),
            ]);
          }
        } finally {
          await close();
        }
      }),
      { numRuns: 10 },
    );
  });

  it('the teams page: every team is its people plus its sub-teams, and the top level adds up to everyone', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { t, spend, mapping, tops, usersDays, close } = await build(s);
        try {
          const n = eachDay(range.start, range.end).length;
          const direct = await t.sumsByTeam(mapping, range);
          // Each team's own sums against its people's rows (the range: a whole week, then four days of the next).
          const teamOf = (id: string) => mapping.members.find((m) => m.key.userId === id)?.team ?? UNASSIGNED;
          const brute = new Map<string, GroupSums & { people: Set<string> }>();
          for (const d of eachDay(range.start, range.end))
            for (const x of usersDays.get(d) ?? []) {
              const team = teamOf(x.user_id);
              const b = brute.get(team) ?? { ...zeroSums(0), people: new Set<string>() };
              b.people.add(x.user_id);
              b.credits += x.billable_tokens;
              b.toolCalls += x.tool_calls;
              b.userMessages += x.user_messages;
              b.sessions += x.sessions;
              b.commits += x.git_commits;
              b.prs += x.git_prs_created;
              brute.set(team, b);
            }
          // Each team's credits and spend on the spend page, from the `/tokens` split (the same credits here).
          const byTeam = await spend.byTeam(mapping, range, PRICES);
          expect(byTeam.credits).toEqual(new Map([...brute].map(([team, b]) => [team, b.credits])));
          for (const [team, b] of brute) expect(byTeam.spend.get(team)!).toBeCloseTo((b.credits * 8) / 1e6, 9);
          const daily = await spend.dailyByTeam(mapping, range, PRICES);
          for (const team of brute.keys()) {
            const days = eachDay(range.start, range.end).map(
              (d) =>
                ((usersDays.get(d) ?? [])
                  .filter((x) => teamOf(x.user_id) === team)
                  .reduce((sum, x) => sum + x.billable_tokens, 0) *
                  8) /
                1e6,
            );
            expect(daily.get(team)!.length).toBe(days.length);
            daily.get(team)!.forEach((v, i) => expect(v).toBeCloseTo(days[i]!, 9));
          }
          expect(new Map([...direct].map(([team, sums]) => [team, { ...sums, trend: [] }]))).toEqual(
            new Map([...brute].map(([team, { people, ...sums }]) => [team, { ...sums, active: people.size }])),
          );
          const paths = [...mapping.teams, UNASSIGNED];
          const rolled = rollUp(new Map(paths.map((p) => [p, direct.get(p) ?? zeroSums(n)])), addSums, zeroSums(n));
          const everyone = await t.sumsByTeam(null, range);
          const top = tops.reduce((x, p) => addSums(x, rolled.get(p)!), zeroSums(n));
          expect(top).toEqual(everyone.get(UNASSIGNED) ?? zeroSums(n));
          for (const p of rolled.keys()) {
            const tokens = await t.tokenDays(mapping, [p], range);
            expect(rolled.get(p)!.credits).toBe(tokens.reduce((x, d) => x + d.billable_tokens, 0));
          }
        } finally {
          await close();
        }
      }),
      { numRuns: 10 },
    );
  });
});
