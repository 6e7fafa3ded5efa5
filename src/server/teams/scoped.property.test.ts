/**
 * Team answers reconcile for any organization and any mapping: the top-level teams plus Unassigned
 * add up to everyone, day by day, for every sum and every count of active users of the four
 * endpoints' team rows and of the teams page's figures; and active users per day, week and month
 * are the distinct users a brute-force count finds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, eachDay } from '../../lib/dates';
import { TEAM_FACT_COLUMNS, type TeamFactRow } from '../store/teams-queries';
import { buildFacts } from './facts';
import {
  activityDays,
  addSums,
  productivityDays,
  sumsByGroup,
  tokenDays,
  toolDays,
  zeroSums,
  type Mask,
} from './scoped';
import { inSelection, parentOf, rollUp, teamResolver, UNASSIGNED, withAncestors } from './tree';

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

function build(s: Scenario) {
  const rows: TeamFactRow[] = [];
  const tokenRows = new Map<string, { by_user: unknown[] }>();
  s.users.forEach((u, i) => {
    for (const d of [...u.active].sort((a, b) => a - b)) {
      const v = (k: number) => ((u.seed * 31 + d * 7 + k * 13) % 50) + (k === 4 ? 1 : 0);
      const row = { user_id: `usr_${String(i).padStart(2, '0')}`, user_email: null, day: days[d]! } as TeamFactRow;
      TEAM_FACT_COLUMNS.forEach((c, k) => (row[c] = v(k)));
      rows.push(row);
      const day = tokenRows.get(days[d]!) ?? { by_user: [] };
      day.by_user.push({
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
      });
      tokenRows.set(days[d]!, day);
    }
  });
  rows.sort((a, b) => (a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : a.day < b.day ? -1 : 1));
  const bodies = days.map((day) => ({ day, body: JSON.stringify(tokenRows.has(day) ? [tokenRows.get(day)] : []) }));
  const f = buildFacts(days[0]!, days.at(-1)!, rows, bodies);
  const members = s.users.flatMap((u, i) =>
    u.team < 0
      ? []
      : [{ key: { userId: `usr_${String(i).padStart(2, '0')}` }, team: s.teams[u.team % s.teams.length]! }],
  );
  const resolve = teamResolver({ members });
  const teamOf = f.userIds.map((id) => resolve(id, null));
  const tops = [...new Set([...withAncestors(s.teams).filter((t) => parentOf(t) === null), UNASSIGNED])];
  const mask = (sel: string[]): Mask => Uint8Array.from(teamOf, (t) => (inSelection(t, sel) ? 1 : 0));
  return { f, rows, teamOf, tops, mask, paths: [...s.teams, UNASSIGNED] };
}

const start = days[29]!;
const end = days.at(-1)!;

describe('team answers reconcile for any mapping', () => {
  it('top-level teams and Unassigned add up to everyone, for each endpoint and day', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { f, tops, mask } = build(s);
        const everyone = new Uint8Array(f.userIds.length).fill(1);
        for (const fn of [tokenDays, toolDays, activityDays, productivityDays] as const) {
          const all = fn(f, everyone, start, end) as unknown as Record<string, unknown>[];
          const parts = tops.map((t) => fn(f, mask([t]), start, end) as unknown as Record<string, unknown>[]);
          all.forEach((day, i) => {
            for (const [k, v] of Object.entries(day)) {
              if (typeof v !== 'number' || /avg|p50|p90/.test(k)) continue;
              expect(parts.reduce((x, p) => x + (p[i]![k] as number), 0)).toBe(v);
            }
          });
        }
      }),
      { numRuns: 60 },
    );
  });

  it('active users per day, week and month are distinct users, as a brute-force count finds them', () => {
    fc.assert(
      fc.property(scenario, fc.nat(7), (s, pick) => {
        const { f, rows, tops, mask } = build(s);
        const sel = [tops[pick % tops.length]!];
        const m = mask(sel);
        const inSel = new Set(f.userIds.filter((_, u) => m[u]));
        const activity = activityDays(f, m, start, end);
        activity.forEach((a) => {
          const distinct = (from: string) =>
            new Set(rows.filter((r) => inSel.has(r.user_id) && r.day >= from && r.day <= a.date).map((r) => r.user_id))
              .size;
          expect([a.daily_active_users, a.weekly_active_users, a.monthly_active_users]).toEqual([
            distinct(a.date),
            distinct(addDays(a.date, -6)),
            distinct(addDays(a.date, -29)),
          ]);
        });
      }),
      { numRuns: 60 },
    );
  });

  it('the teams page: every team is its people plus its sub-teams, and the top level adds up to everyone', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { f, paths, teamOf, tops } = build(s);
        const index = new Map(paths.map((t, i) => [t, i]));
        const groupOf = Int32Array.from(teamOf, (t) => index.get(t)!);
        const sums = sumsByGroup(f, groupOf, paths.length, start, end);
        const n = sums[0]!.trend.length;
        const rolled = rollUp(new Map(paths.map((t, i) => [t, sums[i]!])), addSums, zeroSums(n));
        const all = sumsByGroup(f, new Int32Array(f.userIds.length), 1, start, end)[0]!;
        const top = tops.reduce((x, t) => addSums(x, rolled.get(t)!), zeroSums(n));
        expect(top).toEqual(all);
        for (const t of rolled.keys()) {
          const m = Uint8Array.from(teamOf, (x) => (inSelection(x, [t]) ? 1 : 0));
          const days = tokenDays(f, m, start, end);
          expect(rolled.get(t)!.credits).toBe(days.reduce((x, d) => x + d.billable_tokens, 0));
        }
      }),
      { numRuns: 60 },
    );
  });
});
