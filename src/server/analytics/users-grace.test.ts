/**
 * The users table's lists of people not using the agent (not active, inactive 7 and 30 days, never used) and their
 * counts without the new starters in grace, against brute force on constructed histories, on both stores: each
 * person's access day as the funnel's (the mapping's since, else the earlier of the first day named and the first day
 * seen), in grace by lib/funnel.ts `inGrace` on the range's end; how many each list leaves out.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../api/schemas';
import { addDays, eachDay, type Day, type DayRange } from '../../lib/dates';
import { inGrace } from '../../lib/funnel';
import type { Who } from '../../lib/user-columns';
import { userRow } from '../../test/fixtures';
import { freshDatabase, pgAvailable, type FreshDatabase } from '../../test/postgres';
import { putUsersDay } from '../../test/store-days';
import { silentLogger } from '../core/log';
import { openStore, type StoreDb } from '../store/db';
import { storedMembership } from '../store/membership-queries';
import type { Mapping } from '../teams/mapping';
import { isWithin, UNASSIGNED, withAncestors } from '../teams/tree';
import { openAnalytics, type Analytics } from './engine';
import { createFigures } from './figures';
import { createMemberHistory } from './member-history';
import { createUsersTables } from './users';
import type { UsersQuestion } from './users-question';

const DAYS = eachDay('2026-01-14', '2026-04-12');
/** The day members not named before are first named on. */
const TODAY = '2026-04-13';
const TEAMS = ['Eng', 'Eng/Web', 'Data'];

const person = fc.record({
  // -1: named in no team (Unassigned once seen; no one until then).
  team: fc.integer({ min: -1, max: 2 }),
  since: fc.option(fc.nat(DAYS.length - 1), { nil: undefined }),
  named: fc.option(fc.nat(DAYS.length - 1), { nil: undefined }),
  days: fc.uniqueArray(fc.nat(DAYS.length - 1), { maxLength: 8 }),
});
const history = fc.array(person, { minLength: 1, maxLength: 24 });
type History = (typeof history extends fc.Arbitrary<infer T> ? T : never)[number][];

const idOf = (i: number) => `usr_${String(i).padStart(2, '0')}`;

// ---- the oracle ---------------------------------------------------------------------------------------------

/** Each person as of a range's end: their team, days up to it, and whether they are in grace then. */
function people(h: History, r: DayRange, grace: number, mapped: boolean) {
  return h.map((p, i) => {
    const days = p.days.map((d) => DAYS[d]!).filter((d) => d <= r.end);
    const seen = days.length ? days.reduce((x, y) => (x < y ? x : y)) : undefined;
    const member = mapped && p.team >= 0;
    const named = member ? (p.named !== undefined ? DAYS[p.named]! : TODAY) : undefined;
    const since = member && p.since !== undefined ? DAYS[p.since]! : undefined;
    const access = since ?? [named, seen].filter((d) => d !== undefined).sort()[0];
    const last = days.length ? days.reduce((x, y) => (x > y ? x : y)) : undefined;
    return {
      id: idOf(i),
      access,
      team: member ? TEAMS[p.team]! : UNASSIGNED,
      member,
      known: seen !== undefined,
      active: days.some((d) => d >= r.start),
      idle: (n: number) => seen !== undefined && last! < addDays(r.end, -(n - 1)),
      grace: access !== undefined && inGrace(access, r.end, grace),
    };
  });
}
type Person = ReturnType<typeof people>[number];

/** The people of each unused list, and those in grace it leaves out. */
function lists(ps: Person[]) {
  const kinds: Record<'inactive' | 'idle-7' | 'idle-30' | 'never', (p: Person) => boolean> = {
    inactive: (p) => p.known && !p.active,
    'idle-7': (p) => p.member && p.idle(7),
    'idle-30': (p) => p.member && p.idle(30),
    never: (p) => p.member && !p.known,
  };
  return Object.fromEntries(
    Object.entries(kinds).map(([k, is]) => [
      k,
      {
        listed: ps.filter((p) => is(p) && !p.grace).map((p) => p.id),
        grace: ps.filter((p) => is(p) && p.grace).length,
      },
    ]),
  ) as Record<keyof typeof kinds, { listed: string[]; grace: number }>;
}

// ---- the engine's ---------------------------------------------------------------------------------------------

async function write(store: StoreDb, h: History) {
  const byDay = new Map<Day, UserRow[]>();
  h.forEach((p, i) => {
    for (const d of p.days)
      byDay.set(DAYS[d]!, [
        ...(byDay.get(DAYS[d]!) ?? []),
        userRow({ user_id: idOf(i), user_email: null, date: DAYS[d]! }),
      ]);
  });
  for (const day of DAYS) await putUsersDay(store, day, byDay.get(day) ?? [], 'v1');
}

const mappingOf = (h: History): Mapping =>
  ({
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
  }) as unknown as Mapping;

/** The figures runner (whose funnel judges grace) and the users tables, on one engine. */
async function engineOf(store: StoreDb, h: History, grace: number) {
  const analytics = await openAnalytics(store, { file: ':memory:', logger: silentLogger });
  // Some members were named before today, each in a mapping recorded on its day: their first day named is the store's.
  const keeper = storedMembership(store.db);
  const before = [...h.entries()].filter(([, p]) => p.team >= 0 && p.named !== undefined);
  for (const d of [...new Set(before.map(([, p]) => p.named!))].sort((x, y) => x - y))
    await keeper.record(
      new Map(before.filter(([, p]) => p.named! <= d).map(([i, p]) => [`id:${idOf(i)}`, TEAMS[p.team]!])),
      DAYS[d]!,
    );
  const history = createMemberHistory(analytics, { keeper, latestDay: () => addDays(TODAY, -1) });
  createFigures(analytics, { funnel: { history, graceDays: grace } });
  return { analytics, tables: createUsersTables(analytics) };
}

let version = 0;
async function ask(
  e: { analytics: Analytics; tables: ReturnType<typeof createUsersTables> },
  r: DayRange,
  who: Who,
  mapping: Mapping | null,
  teams: string[] = [],
) {
  const t = await e.tables.get(r, String(++version), { prices: null });
  const q: UsersQuestion = {
    sort: 'credits',
    dir: 'desc',
    filter: { search: '', delegation: '', tier: '', language: '', who },
    teams,
    mapping,
  };
  const page = await t.page(q, 0, 10_000);
  const csv = [];
  for await (const part of e.tables.csv(r, 'not made', { prices: null }, q, ['credits'])) csv.push(...part);
  return { ...page, ids: page.users.map((u) => u.userId).sort(), csv: csv.map((u) => u.userId).sort() };
}

// ---- the properties -----------------------------------------------------------------------------------------

function suite(databaseUrl: () => string | undefined) {
  const open = async () => {
    const store = await openStore(databaseUrl() ? { databaseUrl: databaseUrl()! } : { dataDir: ':memory:' });
    await store.db.deleteFrom('member_team').execute();
    return store;
  };

  it('keeps a starter given access or named inside the grace out of the unused lists and counts, until it ends', async () => {
    const store = await open();
    // Ann: since 2026-03-25, never seen; Bo: first named and seen on 2026-03-26; Cy: there from the history's first
    // day (no starter), idle since.
    const h: History = [
      { team: 0, since: DAYS.indexOf('2026-03-25'), named: undefined, days: [] },
      { team: 1, since: undefined, named: DAYS.indexOf('2026-03-26'), days: [DAYS.indexOf('2026-03-26')] },
      { team: 2, since: undefined, named: 0, days: [0] },
    ];
    await write(store, h);
    const e = await engineOf(store, h, 14);
    const mapping = mappingOf(h);
    try {
      // On 2026-04-05 both are in their first 14 days: in no unused list, counted apart.
      const early = { start: '2026-03-30', end: '2026-04-05' };
      const never = await ask(e, early, 'never', mapping);
      expect(never.ids).toEqual([]);
      expect(never.csv).toEqual([]);
      expect(never.seats).toEqual({ named: 3, active: 0, idle7: 1, idle30: 1, never: 0 });
      expect(never.grace).toEqual({ days: 14, inactive: 1, seats: { idle7: 1, idle30: 0, never: 1 } });
      expect((await ask(e, early, 'idle-7', mapping)).ids).toEqual(['usr_02']);
      expect((await ask(e, early, 'idle-30', mapping)).ids).toEqual(['usr_02']);
      const inactive = await ask(e, early, 'inactive', mapping);
      expect([inactive.ids, inactive.inactive, inactive.grace.inactive]).toEqual([['usr_02'], 1, 1]);
      // Everyone known is still in the whole list, and everyone named in the seats' first.
      expect((await ask(e, early, 'all', mapping)).ids).toEqual(['usr_01', 'usr_02']);
      expect((await ask(e, early, 'named', mapping)).ids).toEqual(['usr_00', 'usr_01', 'usr_02']);
      // Fourteen days after her access Ann's grace has ended, not yet Bo's (a day later than hers).
      const ann = await ask(e, { start: '2026-04-08', end: '2026-04-08' }, 'never', mapping);
      expect([ann.ids, ann.grace.seats]).toEqual([['usr_00'], { idle7: 1, idle30: 0, never: 0 }]);
      expect((await ask(e, { start: '2026-04-08', end: '2026-04-08' }, 'idle-7', mapping)).ids).toEqual(['usr_02']);
      const bo = await ask(e, { start: '2026-04-09', end: '2026-04-09' }, 'idle-7', mapping);
      expect([bo.ids, bo.grace]).toEqual([
        ['usr_01', 'usr_02'],
        { days: 14, inactive: 0, seats: { idle7: 0, idle30: 0, never: 0 } },
      ]);
      // Days copied since, and another mapping, are judged again: Dee, seen once on 2026-03-29, is new too; a mapping
      // giving Cy access on 2026-04-01 makes him a new starter.
      await putUsersDay(
        store,
        '2026-03-29',
        [userRow({ user_id: 'usr_dee', user_email: null, date: '2026-03-29' })],
        'v2',
      );
      await e.analytics.catchUp();
      const dee = await ask(e, early, 'inactive', mapping);
      expect([dee.ids, dee.inactive, dee.grace.inactive]).toEqual([['usr_02'], 1, 2]);
      const cy = await ask(
        e,
        early,
        'idle-7',
        mappingOf(h.map((p, i) => (i === 2 ? { ...p, since: DAYS.indexOf('2026-04-01') } : p))),
      );
      expect([cy.ids, cy.grace.seats]).toEqual([[], { idle7: 2, idle30: 1, never: 1 }]);
    } finally {
      await e.analytics.close();
      await store.close();
    }
  }, 60_000);

  it('makes ahead what every table reads beside its days: the firsts and the new starters on a day', async () => {
    const store = await open();
    const h: History = [
      { team: 0, since: DAYS.indexOf('2026-03-25'), named: undefined, days: [] },
      { team: 1, since: undefined, named: 0, days: [0] },
    ];
    await write(store, h);
    const e = await engineOf(store, h, 14);
    const mapping = mappingOf(h);
    const made = async () =>
      (
        await e.analytics.rows<{ name: string }>(
          "SELECT table_name AS name FROM duckdb_tables() WHERE database_name = 'scratch' AND table_name NOT LIKE 'users_table%' ORDER BY name",
        )
      ).map((t) => t.name.replace(/_\d+$/, ''));
    try {
      expect(await made()).toEqual([]);
      await e.tables.ahead('2026-04-05', mapping);
      const ahead = await made();
      expect(ahead).toEqual(['grace', 'person_first']);
      // A table of a range to that day reads them: nothing more is made for it but the table.
      const page = await ask(e, { start: '2026-03-30', end: '2026-04-05' }, 'never', mapping);
      expect(page.grace).toEqual({ days: 14, inactive: 0, seats: { idle7: 0, idle30: 0, never: 1 } });
      expect(await made()).toEqual(ahead);
    } finally {
      await e.analytics.close();
      await store.close();
    }
  });

  it('lists and counts the unused people without those in grace, for random histories', async () => {
    await fc.assert(
      fc.asyncProperty(
        history,
        fc.integer({ min: 0, max: 20 }),
        fc.boolean(),
        fc.nat(DAYS.length - 1),
        fc.nat(DAYS.length - 1),
        fc.constantFrom<string[]>([], ['Eng'], ['Data', UNASSIGNED]),
        fc.option(fc.tuple(fc.nat(), fc.constantFrom(-1, 0)), { nil: undefined }),
        async (h, grace, mapped, a, b, teams, edge) => {
          const store = await open();
          await write(store, h);
          const e = await engineOf(store, h, grace);
          try {
            let range = { start: DAYS[Math.min(a, b)]!, end: DAYS[Math.max(a, b)]! };
            if (edge) {
              // A day's range ending on the last day of someone's grace, or on the first after it.
              const { access } = people(h, { start: DAYS[0]!, end: DAYS.at(-1)! }, grace, mapped)[edge[0] % h.length]!;
              const end = access && addDays(access, grace + edge[1]);
              if (end && end >= DAYS[0]! && end <= DAYS.at(-1)!) range = { start: end, end };
            }
            const mapping = mapped ? mappingOf(h) : null;
            const within = (p: Person) => teams.length === 0 || teams.some((t) => isWithin(p.team, t));
            const want = lists(people(h, range, grace, mapped).filter(within));
            for (const who of mapped
              ? (['inactive', 'idle-7', 'idle-30', 'never'] as const)
              : (['inactive'] as const)) {
              const got = await ask(e, range, who, mapping, teams);
              expect(got.ids, who).toEqual(want[who].listed);
              expect(got.csv, `${who} CSV`).toEqual(want[who].listed);
              expect(got.total, who).toBe(want[who].listed.length);
              expect(got.inactive, 'not active').toBe(want.inactive.listed.length);
              expect(got.grace.inactive, 'not active, in grace').toBe(want.inactive.grace);
              expect(got.grace.days).toBe(grace);
              if (!mapped) expect(got.seats).toBeNull();
              else {
                expect(got.seats, who).toMatchObject({
                  idle7: want['idle-7'].listed.length,
                  idle30: want['idle-30'].listed.length,
                  never: want.never.listed.length,
                });
                expect(got.grace.seats, who).toEqual({
                  idle7: want['idle-7'].grace,
                  idle30: want['idle-30'].grace,
                  never: want.never.grace,
                });
              }
            }
          } finally {
            await e.analytics.close();
            await store.close();
          }
        },
      ),
      { numRuns: databaseUrl() ? 3 : 10 },
    );
  }, 240_000);
}

describe('the unused lists without the new starters in grace (embedded store)', () => suite(() => undefined));

describe.skipIf(!pgAvailable())('the unused lists without the new starters in grace (PostgreSQL)', () => {
  let db: FreshDatabase;
  beforeAll(async () => {
    db = (await freshDatabase())!;
  });
  afterAll(() => db?.drop());
  suite(() => db.url);
});
