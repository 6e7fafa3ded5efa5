/**
 * The cohorts' active weeks, the first days and who is in which team read the week tables (engine.ts): against
 * a brute-force walk of every stored day, for a latest day mid-week, an origin that is not a Monday, and after
 * a day of a whole week is written again and another dropped.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../api/schemas';
import { daysBetween, eachDay, type Day } from '../../lib/dates';
import { putTokensDay, putUsersDay } from '../../test/store-days';
import { silentLogger } from '../core/log';
import { rng, type Rng } from '../demo/rng';
import { openStore } from '../store/db';
import type { Mapping } from '../teams/mapping';
import { UNASSIGNED } from '../teams/tree';
import { openAnalytics } from './engine';
import { activeWeeks, firstDays } from './person-days';
import { membershipOf } from './teams';

const pick = <T>(r: Rng, xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;

const row = (r: Rng, userId: string, date: string) =>
  ({
    user_id: userId,
    user_email: pick(r, [null, '', `${userId}@acme.example`, `${userId}.${date}@acme.example`]),
    date,
    billable_tokens: Math.floor(r() * 1000),
  }) as unknown as UserRow;

const closing: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of closing.reverse()) await c();
});

/** What the cohorts want, walking every stored day up to `latest`. */
function bruteWeeks(stored: Map<string, UserRow[]>, origin: Day, latest: Day) {
  const by = new Map<string, { weeks: Set<number>; email: string | null; day: string }>();
  for (const [day, rows] of stored)
    for (const x of rows) {
      if (day > latest) continue;
      const p = by.get(x.user_id) ?? { weeks: new Set<number>(), email: null, day: '' };
      p.weeks.add(Math.floor(daysBetween(origin, day) / 7));
      if (x.user_email && day > p.day) [p.email, p.day] = [x.user_email, day];
      by.set(x.user_id, p);
    }
  return [...by]
    .sort(([x], [y]) => (x < y ? -1 : 1))
    .map(([id, p]) => ({ id, email: p.email, weeks: [...p.weeks].sort((a, b) => a - b) }));
}

describe('the week tables behind the cohorts, the first days and the teams', () => {
  it('give what every day gives: mid-week latest days, any origin, days written again or dropped', async () => {
    const store = await openStore({ dataDir: ':memory:' });
    const analytics = await openAnalytics(store, { file: ':memory:', logger: silentLogger });
    closing.push(
      () => store.close(),
      () => analytics.close(),
    );
    const r = rng(3);
    const people = Array.from({ length: 12 }, (_, i) => `u${i}`);
    const stored = new Map<string, UserRow[]>();
    // Wednesday 4 February to Thursday 19 March 2026.
    for (const d of eachDay('2026-02-04', '2026-03-19')) {
      const rows = people.filter((_, i) => i > 0 && r() < 0.4).map((u) => row(r, u, d));
      stored.set(d, rows);
      await putUsersDay(store, d, rows, 'v1');
    }
    // u0 has credits in the /tokens split only, with an email there.
    await putTokensDay(
      store,
      '2026-03-11',
      JSON.stringify([
        { date: '2026-03-11', billable_tokens: 5, by_user: [{ user_id: 'u0', user_email: 'u0@acme.example' }] },
      ]),
      'v1',
    );
    const check = async () => {
      for (const [origin, latest] of [
        ['2026-02-02', '2026-03-18'],
        ['2026-02-02', '2026-03-15'],
        ['2026-02-02', '2026-02-10'],
        ['2026-02-04', '2026-03-12'],
      ] as const) {
        const got = await activeWeeks(analytics, origin, latest);
        expect(
          got.userIds.map((id, i) => ({ id, email: got.emails[i], weeks: [...got.weeks[i]!].sort((a, b) => a - b) })),
          `${origin} to ${latest}`,
        ).toEqual(bruteWeeks(stored, origin, latest));
      }
      const firsts = new Map<string, string>();
      for (const [day, rows] of [...stored].sort(([a], [b]) => (a < b ? -1 : 1)))
        for (const x of rows) if (!firsts.has(x.user_id)) firsts.set(x.user_id, day);
      expect(await firstDays(analytics, '2026-03-19')).toEqual(firsts);
      // Everyone of the copy is in `member`, under the latest email given on either side.
      const mapping: Mapping = {
        teams: ['T'],
        members: people.map((id, i) => ({ key: { email: `${id}@acme.example` }, team: 'T', line: i + 2 })),
        managers: new Map(),
        repos: [],
      };
      await membershipOf(analytics).current(mapping);
      const latestEmail = new Map(bruteWeeks(stored, '2026-02-02', '2026-03-19').map((p) => [p.id, p.email]));
      latestEmail.set('u0', 'u0@acme.example');
      const members = await analytics.rows<{ user_id: string; team: string }>(
        'SELECT user_id, team FROM member ORDER BY user_id',
      );
      expect(members).toEqual(
        [...latestEmail]
          .sort(([x], [y]) => (x < y ? -1 : 1))
          .map(([id, email]) => ({ user_id: id, team: email === `${id}@acme.example` ? 'T' : UNASSIGNED })),
      );
    };
    await check();
    // A day of a whole week written again (other people, other emails), and a first day dropped.
    stored.set(
      '2026-02-25',
      ['u1', 'u2', 'u3'].map((u) => row(r, u, '2026-02-25')),
    );
    await putUsersDay(store, '2026-02-25', stored.get('2026-02-25')!, 'v2');
    stored.delete('2026-02-04');
    await store.db.deleteFrom('users_day').where('day', '=', '2026-02-04').execute();
    await store.db.deleteFrom('user_day').where('day', '=', '2026-02-04').execute();
    await check();
  });
});
