/**
 * A random organization for the team figures' property tests (analytics/teams.test.ts, figures.test.ts): people
 * with active days over 40 days, a mapping of up to eight teams (some people unassigned, some named but never
 * active), written into a store as the sync writes it.
 */
import fc from 'fast-check';
import type { UserRow } from '../api/schemas';
import { addDays, eachDay } from '../lib/dates';
import { silentLogger } from '../server/core/log';
import { parsePrices } from '../server/spend/prices';
import { openStore } from '../server/store/db';
import type { Mapping } from '../server/teams/mapping';
import { parentOf, UNASSIGNED, withAncestors } from '../server/teams/tree';
import { openAnalytics } from '../server/analytics/engine';
import { createSpend } from '../server/analytics/spend';
import { createTeamFigures } from '../server/analytics/teams';
import { putTokensDay, putUsersDay } from './store-days';

const parsed = parsePrices('{"currency": "EUR", "prices": [{"from": "2026-01-14", "perMillionCredits": 8}]}');
if (!parsed.ok) throw new Error('the test prices are refused');
export const PRICES = parsed.prices;

export const FIRST = '2026-02-01';
export const DAYS = 40;
export const days = eachDay(FIRST, addDays(FIRST, DAYS - 1));

const teamPath = fc
  .array(fc.constantFrom('Eng', 'Data', 'Ops', 'ML'), { minLength: 1, maxLength: 3 })
  .map((p) => p.join('/'));

export const scenario = fc.record({
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

export type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/** The primary modes a person-day is given, in turn. */
export const LEVELS = ['manual', 'auto-low', 'auto-medium', 'auto-high', ''] as const;

export const idOf = (i: number) => `usr_${String(i).padStart(2, '0')}`;

/**
 * The scenario's organization in a fresh store (the embedded one in memory, or PostgreSQL's database at `databaseUrl`),
 * read through a fresh engine.
 */
export async function build(s: Scenario, databaseUrl?: string) {
  const store = await openStore(databaseUrl ? { databaseUrl } : { dataDir: ':memory:' });
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
        // Every mode, and a day without one (a row the service gave without it).
        delegation_level: LEVELS[(u.seed + d) % LEVELS.length]!,
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
    analytics,
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
