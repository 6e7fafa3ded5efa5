/**
 * Intensity as measures of the figures runner, against brute force on constructed histories, on both stores: each
 * group's people in each band (by team, by week, by day, for one person) over the four whole weeks to each row's day,
 * against the thresholds of that window's quarter computed from its basis weeks; no bands for a group of fewer than 8
 * active people (or privacy mode's k); and the thresholds frozen: others' use changing within the quarter moves no
 * one else's band, an admin's refresh does.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../api/schemas';
import { addDays, eachDay, previousPeriod, weekStart, type Day, type DayRange } from '../../lib/dates';
import type { MeasureId } from '../../lib/measures';
import { userRow } from '../../test/fixtures';
import { freshDatabase, pgAvailable, type FreshDatabase } from '../../test/postgres';
import { putUsersDay } from '../../test/store-days';
import { silentLogger } from '../core/log';
import { openStore, type StoreDb } from '../store/db';
import { storedThresholds } from '../store/intensity-queries';
import type { Mapping } from '../teams/mapping';
import { isWithin, UNASSIGNED, withAncestors } from '../teams/tree';
import { openAnalytics } from './engine';
import { createFigures } from './figures';
import { keptAnswers } from './kept';

/** Twelve whole weeks, Monday 2 February to Sunday 26 April 2026: the end of one quarter and the start of the next. */
const FIRST = '2026-02-02';
const DAYS = eachDay(FIRST, '2026-04-26');
const LATEST = '2026-04-26';
const TEAMS = ['Eng', 'Eng/Web', 'Data'];
const BANDS = ['intensityHeavy', 'intensityModerate', 'intensityLight', 'intensityMinimal', 'intensityNone'] as const;
const SHARES = BANDS.map((b) => `${b}Share` as MeasureId);
const ALL = ['members', 'intensityActive', 'intensityCredits', ...BANDS, ...SHARES] as MeasureId[];

// Few credits per day, so that people tie with each other and with a threshold.
const person = fc.record({
  // -1: named in no team (Unassigned once seen; no one until then).
  team: fc.integer({ min: -1, max: 2 }),
  days: fc.uniqueArray(fc.record({ d: fc.nat(DAYS.length - 1), credits: fc.constantFrom(0, 10, 20) }), {
    selector: (x) => x.d,
    maxLength: 30,
  }),
});
const history = fc.array(person, { minLength: 1, maxLength: 36 });
type History = (typeof history extends fc.Arbitrary<infer T> ? T : never)[number][];

const idOf = (i: number) => `usr_${String(i).padStart(2, '0')}`;

async function build(h: History, store: StoreDb) {
  const byDay = new Map<Day, UserRow[]>();
  h.forEach((p, i) => {
    for (const { d, credits } of p.days)
      byDay.set(DAYS[d]!, [
        ...(byDay.get(DAYS[d]!) ?? []),
        userRow({ user_id: idOf(i), user_email: null, date: DAYS[d]!, billable_tokens: credits }),
      ]);
  });
  for (const day of DAYS) await putUsersDay(store, day, byDay.get(day) ?? [], 'v1');
  const mapping = {
    teams: withAncestors(TEAMS),
    members: h.flatMap((p, i) => (p.team < 0 ? [] : [{ key: { userId: idOf(i) }, team: TEAMS[p.team]! }])),
    managers: new Map(),
  } as unknown as Mapping;
  return { mapping };
}

// ---- the oracle ---------------------------------------------------------------------------------------------

/** The last Sunday on or before a day, by walking back. */
function lastSunday(day: Day): Day {
  let d = day;
  while (new Date(`${d}T00:00:00Z`).getUTCDay() !== 0) d = addDays(d, -1);
  return d;
}

/** Each person's credits over the 28 days to a Sunday, for those with a day in them. */
function usedBy(h: History, sunday: Day): Map<string, number> {
  const from = addDays(sunday, -27);
  const out = new Map<string, number>();
  h.forEach((p, i) => {
    for (const { d, credits } of p.days)
      if (DAYS[d]! >= from && DAYS[d]! <= sunday) out.set(idOf(i), (out.get(idOf(i)) ?? 0) + credits);
  });
  return out;
}

/** The q-th quantile with linear interpolation between the closest ranks. */
function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  return s[lo]! + (pos - lo) * ((s[lo + 1] ?? s[lo]!) - s[lo]!);
}

const quarterOfDay = (d: Day) => `${d.slice(0, 4)}-Q${Math.ceil(Number(d.slice(5, 7)) / 3)}`;
const quarterEnd: Record<string, Day> = { '2026-Q1': '2026-03-31', '2026-Q2': '2026-06-30' };

/** A quarter's thresholds: quartiles of everyone's use over the four weeks to the earlier of the latest day and its end. */
function thresholds(h: History, quarter: string, latest: Day) {
  const end = latest < quarterEnd[quarter]! ? latest : quarterEnd[quarter]!;
  const credits = [...usedBy(h, lastSunday(end)).values()];
  if (credits.length < 8) return null;
  return { p25: quantile(credits, 0.25), p50: quantile(credits, 0.5), p75: quantile(credits, 0.75), n: credits.length };
}

/** The brute-force figures of the people `inGroup` keeps (by id), as of a day. */
function oracle(
  h: History,
  asOf: Day,
  inGroup: (id: string) => boolean,
  frozen: Map<string, ReturnType<typeof thresholds>>,
  minActive: number,
) {
  const sunday = lastSunday(asOf);
  const t = frozen.get(quarterOfDay(sunday)) ?? null;
  const used = [...usedBy(h, sunday)].filter(([id]) => inGroup(id));
  const members = h.filter((p, i) => (p.team >= 0 || p.days.length > 0) && inGroup(idOf(i))).length;
  const count = (f: (c: number) => boolean) => used.filter(([, c]) => f(c)).length;
  const shown = t !== null && used.length >= minActive;
  const bands = t && {
    intensityHeavy: count((c) => c >= t.p75),
    intensityModerate: count((c) => c >= t.p50 && c < t.p75),
    intensityLight: count((c) => c >= t.p25 && c < t.p50),
    intensityMinimal: count((c) => c < t.p25),
    intensityNone: members - used.length,
  };
  const out: Record<string, number | null> = {
    members,
    intensityActive: used.length,
    intensityCredits: used.reduce((n, [, c]) => n + c, 0),
  };
  for (const b of BANDS) {
    out[b] = shown ? bands![b] : null;
    out[`${b}Share`] = shown && members > 0 ? bands![b] / members : null;
  }
  return out;
}

function expectClose(got: Record<string, number | null>, want: Record<string, number | null>, what: string) {
  for (const [k, v] of Object.entries(want)) {
    if (v === null) expect(got[k], `${what} ${k}`).toBeNull();
    else expect(got[k], `${what} ${k}`).toBeCloseTo(v, 9);
  }
}

// ---- the properties -----------------------------------------------------------------------------------------

function suite(databaseUrl: () => string | undefined) {
  /** A store of no thresholds (PostgreSQL's database is the same from run to run). */
  const open = async () => {
    const store = await openStore(databaseUrl() ? { databaseUrl: databaseUrl()! } : { dataDir: ':memory:' });
    await store.db.deleteFrom('intensity_threshold').execute();
    return store;
  };

  it('gives each group’s people in each band, by team, week and day and for one person', async () => {
    await fc.assert(
      fc.asyncProperty(history, fc.integer({ min: 0, max: 12 }), async (h, k) => {
        const store = await open();
        const analytics = await openAnalytics(store, { file: ':memory:', logger: silentLogger });
        try {
          const { mapping } = await build(h, store);
          const runner = createFigures(analytics, {
            thresholds: storedThresholds(store.db),
            latestDay: () => LATEST,
          });
          const teamOf = (id: string) => mapping.members.find((m) => m.key.userId === id)?.team ?? UNASSIGNED;
          const frozen = new Map(['2026-Q1', '2026-Q2'].map((q) => [q, thresholds(h, q, LATEST)]));
          const privacy = k > 1 ? { minGroup: k, name: (id: string) => `P-${id}` } : undefined;
          const minActive = Math.max(8, k > 1 ? k : 0);
          // Privacy mode's thresholds over fewer than k people are none.
          const seen = new Map([...frozen].map(([q, t]) => [q, t && (!privacy || t.n >= k) ? t : null]));
          // Mid-week (its band is of the four weeks to the Sunday before), its previous period in the quarter before.
          const range: DayRange = { start: '2026-03-16', end: '2026-04-22' };
          const teams = await runner.ask({
            mapping,
            measures: ALL,
            range,
            by: 'team',
            compare: true,
            scope: { people: null, ...(privacy && { privacy }) },
          });
          const prev = previousPeriod(range)!;
          for (const row of teams.rows) {
            const within = (id: string) => isWithin(teamOf(id), row.key);
            expectClose(row.current, oracle(h, range.end, within, seen, minActive), row.key);
            expectClose(row.previous!, oracle(h, prev.end, within, seen, minActive), `${row.key} before`);
          }
          if (!privacy) expect(teams.rows.map((r) => r.key)).toEqual(withAncestors([...TEAMS, UNASSIGNED]));
          const used = [...seen].filter(([, t]) => t !== null).map(([q]) => q);
          // The thresholds of the quarters its rows are of (privacy mode may show no team: then none).
          expect(teams.intensity?.thresholds.map((t) => t.quarter)).toEqual(teams.rows.length > 0 ? used : []);
          expect(teams.intensity?.minActive).toBe(minActive);
          for (const t of teams.intensity!.thresholds) {
            const want = seen.get(t.quarter)!;
            expect([t.p25, t.p50, t.p75, t.people]).toEqual([want.p25, want.p50, want.p75, want.n]);
          }
          // A team's weeks: each week's band is of the four weeks to its Sunday (to the range's end in its last).
          const weekly = { start: '2026-02-25', end: '2026-04-22' };
          const eng = await runner.ask({
            mapping,
            measures: ALL,
            range: weekly,
            by: 'week',
            scope: { people: ['Eng'] },
          });
          const weeks = eachDay(weekStart(weekly.start), weekly.end).filter((d) => d === weekStart(d));
          expect(eng.rows.map((r) => r.key)).toEqual(weeks);
          for (const row of eng.rows) {
            const asOf = addDays(row.key, 6) < weekly.end ? addDays(row.key, 6) : weekly.end;
            const want = oracle(h, asOf, (id) => isWithin(teamOf(id), 'Eng'), frozen, 8);
            expectClose(row.current, want, `Eng, week of ${row.key}`);
          }
          // Everyone, day by day across the quarters' turn.
          const daily = { start: '2026-03-27', end: '2026-04-07' };
          const days = await runner.ask({ mapping, measures: ALL, range: daily, by: 'day', scope: { people: null } });
          for (const row of days.rows)
            expectClose(
              row.current,
              oracle(h, row.key, () => true, frozen, 8),
              row.key,
            );
          // One person: their own band, whatever the size of a group.
          for (const i of [0, h.length - 1]) {
            if (h[i]!.days.length === 0) continue;
            const [one] = (
              await runner.ask({ mapping, measures: ALL, range, by: 'total', scope: { people: { user: idOf(i) } } })
            ).rows;
            expectClose(
              one!.current,
              oracle(h, range.end, (id) => id === idOf(i), frozen, 0),
              idOf(i),
            );
          }
        } finally {
          await analytics.close();
          await store.close();
        }
      }),
      { numRuns: databaseUrl() ? 3 : 8 },
    );
  }, 240_000);

  it('keeps a quarter’s thresholds: others’ use moves no one else’s band until an admin refreshes them', async () => {
    const store = await open();
    const analytics = await openAnalytics(store, { file: ':memory:', logger: silentLogger });
    try {
      // Ten people active every weekday of March: person i uses i + 1 credits a day, so usr_05 is Moderate.
      const march = eachDay('2026-03-02', '2026-03-29');
      const write = async (times: number, version: string) => {
        for (const day of march)
          await putUsersDay(
            store,
            day,
            Array.from({ length: 10 }, (_, i) =>
              userRow({
                user_id: idOf(i),
                user_email: null,
                date: day,
                billable_tokens: i === 5 ? 6 : (i + 1) * times,
              }),
            ),
            version,
          );
      };
      await write(1, 'v1');
      let latest = '2026-03-29';
      // As the server asks it: its answers kept while the copy stays the same (a refresh changes none of it).
      const runner = keptAnswers(
        createFigures(analytics, { thresholds: storedThresholds(store.db), latestDay: () => latest }),
        analytics,
      );
      const asked = { mapping: null, range: { start: '2026-03-01', end: '2026-03-31' }, by: 'total' } as const;
      const bandOf = async () => {
        const a = await runner.ask({ ...asked, measures: BANDS, scope: { people: { user: idOf(5) } } });
        return [Object.entries(a.rows[0]!.current).find(([, v]) => v === 1)?.[0], a.intensity!.thresholds[0]!] as const;
      };
      const [before, t] = await bandOf();
      expect(before).toBe('intensityModerate');
      expect(t).toMatchObject({ quarter: '2026-Q1', people: 10, refreshed: false, basis: { end: '2026-03-29' } });
      // The others use ten times as much: usr_05 used as before, and stays where they were.
      await write(10, 'v2');
      latest = '2026-03-31';
      const [after, same] = await bandOf();
      expect(after).toBe('intensityModerate');
      expect(same).toEqual(t);
      // An admin's refresh: the thresholds of the others' new use, by which usr_05 is now the lightest.
      const fresh = await runner.refreshThresholds('2026-Q1', 'admin@example.com');
      expect(fresh).toMatchObject({ quarter: '2026-Q1', people: 10, refreshed: true });
      expect(fresh!.p25).toBeGreaterThan(t.p25);
      const [refreshed, kept] = await bandOf();
      expect(refreshed).toBe('intensityMinimal');
      expect(kept).toEqual(fresh);
      // A quarter with fewer than 8 active people in its weeks has no thresholds, kept or refreshed.
      expect(await runner.refreshThresholds('2025-Q4', 'admin@example.com')).toBeNull();
    } finally {
      await analytics.close();
      await store.close();
    }
  }, 120_000);
}

describe('intensity against brute force (embedded store)', () => suite(() => undefined));

describe.skipIf(!pgAvailable())('intensity against brute force (PostgreSQL)', () => {
  let db: FreshDatabase;
  beforeAll(async () => {
    db = (await freshDatabase())!;
  });
  afterAll(() => db?.drop());
  suite(() => db.url);
});

describe('intensity is never a list of people', () => {
  it('refuses a question by person', async () => {
    const store = await openStore({ dataDir: ':memory:' });
    const analytics = await openAnalytics(store, { file: ':memory:', logger: silentLogger });
    try {
      const runner = createFigures(analytics);
      await expect(
        runner.ask({
          mapping: null,
          measures: ['intensityHeavy'],
          range: { start: '2026-03-01', end: '2026-03-31' },
          by: 'person',
          scope: { people: null },
        }),
      ).rejects.toThrow('intensity is given per group or for one person, never as a list of people');
    } finally {
      await analytics.close();
      await store.close();
    }
  });
});
