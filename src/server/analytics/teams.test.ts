/**
 * Team answers reconcile for any organization and any mapping: the top-level teams plus Unassigned add up to
 * everyone, day by day, for every sum and every count of active people of the four endpoints' team rows and of
 * people active; and active people per day, week and month are the distinct people a brute-force
 * count finds. Each organization is written into a store as the sync writes it and read through the engine.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, type Day } from '../../lib/dates';
import { build, days, scenario } from '../../test/team-scenario';
import { inSelection, UNASSIGNED } from '../teams/tree';

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
  }, 120_000);

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
  }, 120_000);
});

describe('top users', () => {
  it('breaks ties by the name the reader sees, never by the real id', async () => {
    // Three people with the same credits (same seed, same day); the reader's names sort them in reverse.
    const same = { team: 0, active: [35], seed: 7 };
    const b = await build({ teams: ['Eng'], users: [same, same, same] });
    try {
      const name = (id: string) => `Person ${99 - Number(id.slice(4))}`;
      const top = await b.t.topUsers(b.mapping, null, range, 2, name);
      expect(new Set(top.users.map((u) => u.credits)).size).toBe(1);
      // By real id the first two would be usr_00 and usr_01; by the names seen, usr_02 (97) and usr_01 (98).
      expect(top.users.map((u) => u.userId)).toEqual(['usr_02', 'usr_01']);
    } finally {
      await b.close();
    }
  });
});
