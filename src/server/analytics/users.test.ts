/**
 * The analytics engine's users table against the browser's merge of the same rows (every field), over random
 * organizations whose people change email, model, tier, level and languages from day to day, on both stores;
 * spend against constructed `/tokens` days priced by hand; the copy following days written again or dropped;
 * and a restarted process catching up from its file.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../api/schemas';
import { eachDay, type Day, type DayRange } from '../../lib/dates';
import { toCsv } from '../../lib/csv';
import { mergeUserRows, usersCsvColumns, type MergedUser } from '../../lib/user-merge';
import { putTokensDay, putUsersDay } from '../../test/store-days';
import { STORE_ENGINES } from '../../test/stores';
import { silentLogger } from '../core/log';
import { rng, type Rng } from '../demo/rng';
import { parsePrices, priceOf } from '../spend/prices';
import { parseMapping, type Mapping } from '../teams/mapping';
import { openStore, type StoreDb } from '../store/db';
import { openAnalytics, type Analytics } from './engine';
import { createUsersTables } from './users';
import type { PriceList } from '../spend/prices';

const pick = <T>(r: Rng, xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;

/** One person's row of a day, with picks that vary (and an email that is sometimes missing or empty). */
function row(r: Rng, userId: string, date: string): UserRow {
  const n = () => Math.floor(r() * 50);
  return {
    user_id: userId,
    user_email: pick(r, [null, '', `${userId}@acme.example`, `${userId}@old.example`]),
    date,
    tool_calls: n(),
    billable_tokens: Math.floor(r() * 900_000),
    primary_model: pick(r, ['opus', 'sonnet', 'gpt-5.4', '']),
    primary_model_tier: pick(r, ['standard', 'thinking']),
    files_created: n(),
    files_edited: n(),
    git_commits: n(),
    git_prs_created: n(),
    mcp_calls: n(),
    skill_calls: n(),
    slash_commands: n(),
    hooks: n(),
    sessions: n(),
    messages: n(),
    user_messages: n(),
    assistant_messages: n(),
    autonomy_ratio: Math.round(r() * 2000) / 100 + r() / 3,
    delegation_level: pick(r, ['manual', 'auto-low', 'auto-high']),
    languages: pick(r, [[], ['TypeScript'], ['Go', 'TypeScript'], ['Python'], ['Rust', 'Go']]),
  };
}

const byId = (a: MergedUser, b: MergedUser) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);

/** The browser's merge of the rows of [start, end], walked in day order. */
function browserMerge(days: Map<string, UserRow[]>, start: Day, end: Day): MergedUser[] {
  const rows = eachDay(start, end).flatMap((d) =>
    [...(days.get(d) ?? [])].sort((a, b) => (a.user_id < b.user_id ? -1 : 1)),
  );
  return mergeUserRows(rows).sort(byId);
}

/** Equal field for field; the ratio (a quotient of sums added in another order) to 12 digits. */
function expectSame(got: MergedUser[], want: MergedUser[]) {
  expect(got.map((u) => ({ ...u, autonomyRatio: 0 }))).toEqual(want.map((u) => ({ ...u, autonomyRatio: 0 })));
  got.forEach((u, i) => expect(u.autonomyRatio).toBeCloseTo(want[i]!.autonomyRatio, 12));
}

let made = 0;
/** Every row of the range's users table (`who`: active people, or everyone known), in user id order. */
async function tableRows(a: Analytics, r: DayRange, prices: PriceList | null, who: 'active' | 'all') {
  const t = await createUsersTables(a).get(r, String(++made), { prices });
  const filter = { search: '', delegation: '', tier: '', language: '', who };
  const { users } = await t.page({ sort: 'credits', dir: 'desc', filter, teams: [], mapping: null }, 0, 1e6);
  return users.sort(byId);
}

/** The range's active people as the users table merges them (without the last active day it adds). */
const mergedUsers = async (a: Analytics, r: DayRange) =>
  (await tableRows(a, r, null, 'active')).map(({ lastActiveDay: _, ...u }) => u as MergedUser);

/** Each person's spend over the range at the list, for those with credits priced in it. */
const createSpendByUser = (a: Analytics) => async (r: DayRange, list: PriceList) =>
  new Map((await tableRows(a, r, list, 'all')).filter((u) => u.spend !== 0).map((u) => [u.userId, u.spend!]));

/**
 * Each person's row of the range as their page gives it, their merge alone (undefined: not active in it), against the
 * browser's merge of their days (the oracle) and against their row of the range's table, field for field, spend too.
 */
async function expectPeopleSame(
  a: Analytics,
  r: DayRange,
  ids: readonly string[],
  days: Map<string, UserRow[]>,
  list: PriceList,
) {
  const tables = createUsersTables(a);
  const table = new Map((await tableRows(a, r, list, 'active')).map((u) => [u.userId, u]));
  for (const id of ids) {
    const mine = new Map([...days].map(([d, rows]) => [d, rows.filter((x) => x.user_id === id)]));
    const [want] = browserMerge(mine, r.start, r.end);
    const got = await tables.person(r, { prices: list }, id, null);
    const listed = table.get(id);
    if (!want) {
      expect([got, listed], `${id}, ${r.start} to ${r.end}`).toEqual([undefined, undefined]);
      continue;
    }
    const { spend, ...merged } = got!;
    expectSame([merged], [{ ...want, lastActiveDay: want.lastDay }]);
    // Spend is a sum of products, added in another order than the table's: to the last digits.
    expect(spend! - listed!.spend!, `${id}, ${r.start} to ${r.end}`).toBeCloseTo(0, 9);
    expectSame([{ ...got!, spend: 0 }], [{ ...listed!, spend: 0 }]);
  }
}

const opened: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of opened.reverse()) await c();
});

describe.each(STORE_ENGINES)('the analytics engine on the $name store', ({ available, open }) => {
  async function fresh(file = ':memory:'): Promise<{ store: StoreDb; analytics: Analytics }> {
    const s = await open();
    const analytics = await openAnalytics(s.store, { file, logger: silentLogger });
    opened.push(
      () => s.store.close().then(s.drop),
      () => analytics.close(),
    );
    return { store: s.store, analytics };
  }

  it.skipIf(!available)(
    'gives each person the team the teams pages count (by their latest email), the same table following a change',
    async () => {
      const { store, analytics } = await fresh();
      const mappingOf = (text: string) => {
        const m = parseMapping(text, 'csv');
        if (!m.ok) throw new Error('refused');
        return m.mapping;
      };
      const byEmail = mappingOf('email,team\nann@old.example,Old\nann@new.example,New\nbo@acme.example,Old\n');
      const r0 = rng(7);
      const day = (d: Day, email: string) => ({ ...row(r0, 'ann', d), user_email: email });
      await putUsersDay(store, '2026-02-02', [day('2026-02-02', 'ann@old.example'), row(r0, 'bo', '2026-02-02')], '1');
      const tables = createUsersTables(analytics);
      const range = { start: '2026-02-01', end: '2026-02-08' };
      const filter = { search: '', delegation: '', tier: '', language: '', who: 'all' as const };
      // One table, made once: each page reads the teams as they are now.
      const t = await tables.get(range, '1', { prices: null });
      const teamOf = async (mapping: Mapping | null = byEmail) => {
        const page = await t.page({ sort: 'user', dir: 'asc', filter, teams: [], mapping }, 0, 10);
        return page.users.find((u) => u.userId === 'ann')!.team;
      };
      expect(await teamOf()).toBe('Old');
      // A day after the range gives Ann another email: the teams pages count her in New, and so does the table.
      await putUsersDay(store, '2026-03-02', [day('2026-03-02', 'ann@new.example')], '1');
      await analytics.catchUp();
      expect(await teamOf()).toBe('New');
      // A person's page says the same; someone the copy does not have has no row.
      expect((await tables.person(range, { prices: null }, 'ann', byEmail))?.team).toBe('New');
      expect(await tables.person(range, { prices: null }, 'nobody', byEmail)).toBeUndefined();
      // Another mapping: the same table, its teams by that one; none: no team column.
      const other = mappingOf('email,team\nann@new.example,Elsewhere\n');
      expect(await teamOf(other)).toBe('Elsewhere');
      expect(await teamOf(null)).toBeUndefined();
    },
  );

  it.skipIf(!available)(
    'merges each person’s days as the browser does, field for field, for random organizations',
    async () => {
      const { store, analytics } = await fresh();
      for (let seed = 1; seed <= 4; seed++) {
        const r = rng(seed);
        const people = Array.from({ length: 5 + Math.floor(r() * 40) }, (_, i) => `u-${seed}-${i}`);
        const days = eachDay('2026-02-01', '2026-03-31');
        const stored = new Map<string, UserRow[]>();
        for (const d of days) {
          if (r() < 0.15) {
            await store.db.deleteFrom('users_day').where('day', '=', d).execute();
            await store.db.deleteFrom('user_day').where('day', '=', d).execute();
            continue; // a day not stored
          }
          const rows = people.filter(() => r() < 0.4).map((u) => row(r, u, d));
          stored.set(d, rows);
          await putUsersDay(store, d, rows, `v${seed}`);
        }
        for (let k = 0; k < 5; k++) {
          const a = pick(r, days);
          const b = pick(r, days);
          const [start, end] = (a <= b ? [a, b] : [b, a]) as [Day, Day];
          expectSame(await mergedUsers(analytics, { start, end }), browserMerge(stored, start, end));
        }
        expectSame(
          await mergedUsers(analytics, { start: '2026-02-01', end: '2026-03-31' }),
          browserMerge(stored, '2026-02-01', '2026-03-31'),
        );
      }
      expect(await mergedUsers(analytics, { start: '2026-05-01', end: '2026-05-02' })).toEqual([]);
    },
  );

  it.skipIf(!available)(
    'merges one person’s days alone as the browser does and as the table’s row gives them, field for field, spend too, for random organizations',
    async () => {
      const { store, analytics } = await fresh();
      const parsed = parsePrices(
        '{"currency": "EUR", "prices": [{"from": "2026-01-14", "perMillionCredits": 8}, {"from": "2026-02-19", "tier": "thinking", "perMillionCredits": 20}]}',
      );
      if (!parsed.ok) throw new Error('the test prices are refused');
      for (let seed = 1; seed <= 2; seed++) {
        const r = rng(seed);
        const people = Array.from({ length: 5 + Math.floor(r() * 20) }, (_, i) => `u-${seed}-${i}`);
        const days = eachDay('2026-02-01', '2026-03-15');
        const stored = new Map<string, UserRow[]>();
        for (const d of days) {
          if (r() < 0.15) {
            await store.db.deleteFrom('users_day').where('day', '=', d).execute();
            await store.db.deleteFrom('user_day').where('day', '=', d).execute();
            await store.db.deleteFrom('day_answer').where('day', '=', d).execute();
            continue; // a day not stored
          }
          const rows = people.filter(() => r() < 0.4).map((u) => row(r, u, d));
          stored.set(d, rows);
          await putUsersDay(store, d, rows, `v${seed}`);
          // Credits by model of some of them, some with no `/users` row that day, and of someone with none at all.
          const split = [...people.filter(() => r() < 0.4), 'credits-only'].map((u) => ({
            user_id: u,
            billable_tokens: Math.floor(r() * 3e6),
            by_model: ['opus', 'sonnet']
              .filter(() => r() < 0.6)
              .map((m) => ({
                model_id: m,
                model_tier: pick(r, ['standard', 'thinking']),
                billable_tokens: Math.floor(r() * 2e6),
              })),
          }));
          await putTokensDay(store, d, JSON.stringify([{ date: d, billable_tokens: 1, by_user: split }]), `v${seed}`);
        }
        const ranges: DayRange[] = [{ start: '2026-02-01', end: '2026-03-15' }];
        for (let k = 0; k < 2; k++) {
          const a = pick(r, days);
          const b = pick(r, days);
          ranges.push({ start: a <= b ? a : b, end: a <= b ? b : a });
        }
        for (const range of ranges)
          await expectPeopleSame(analytics, range, [...people.slice(0, 6), 'credits-only'], stored, parsed.prices);
      }
      const none = { start: '2026-05-01', end: '2026-05-02' } as const;
      expect(await createUsersTables(analytics).person(none, { prices: null }, 'u-1-0', null)).toBeUndefined();
      expect(await createUsersTables(analytics).person(none, { prices: null }, 'nobody', null)).toBeUndefined();
    },
  );

  it.skipIf(!available)(
    'writes the CSV’s figures as the browser’s CSV does: numbers as JavaScript writes them, texts neutralised and quoted, languages by code point',
    async () => {
      const { store, analytics } = await fresh();
      const r = rng(11);
      const numbers = [
        0,
        0.1,
        1e-7,
        -1.5e-5,
        0.000001,
        123.456,
        2 ** 53 + 2,
        1e20,
        1.2345678901234568e20,
        1e21,
        3.5e25,
        1e16,
        2251799813685248.5,
        -3,
        7,
        0.25,
      ];
      const texts = [
        '=SUM(A1)',
        '+1',
        '-x',
        '@a',
        '\tx',
        'a,b',
        'say "hi"',
        'two\nlines',
        'plain',
        "'quoted",
        '',
        'e',
        '1e5',
        '\r',
        'a;b',
        '\uFF1DSUM(A1)',
      ];
      const rows = numbers.map((x, i) => ({
        ...row(r, `u-${i}`, '2026-02-02'),
        billable_tokens: x,
        hooks: numbers[(i + 3) % numbers.length]!,
        // A ratio of whole sums: the engine's quotient and the browser's are the same number.
        tool_calls: 7 * i,
        user_messages: 3,
        primary_model: texts[i]!,
        primary_model_tier: texts[(i + 1) % texts.length]!,
        delegation_level: texts[(i + 2) % texts.length]!,
        // U+1F600 after U+E000 by code point, before it by UTF-16 code unit; a name with a comma is quoted.
        languages: i % 2 ? ['\u{1F600}', '\uE000', 'C, C++'] : [texts[i]!],
      }));
      await putUsersDay(store, '2026-02-02', rows, '1');
      const range = { start: '2026-02-02', end: '2026-02-02' };
      const tables = createUsersTables(analytics);
      const filter = { search: '', delegation: '', tier: '', language: '', who: 'active' as const };
      const merged = browserMerge(new Map([['2026-02-02', rows]]), range.start, range.end);
      let got: string[] = [];
      // With a price list a table made without one (its `/tokens` days unread) has no spend: empty cells. Straight
      // from the table's query, then from the table made.
      for (const [currency, made] of [
        ['USD', false],
        [null, false],
        ['USD', true],
        [null, true],
      ] as const) {
        if (made) await tables.get(range, '1', { prices: null });
        const { header, row: cells, figures } = usersCsvColumns(currency, false, true);
        const q = { sort: 'user', dir: 'asc', filter, teams: [], mapping: null } as const;
        got = [];
        for await (const part of tables.csv(range, '1', { prices: null }, q, figures))
          got.push(...part.map((c) => `${c.userId},${c.email ?? ''},${c.figures}`));
        const want = toCsv(
          header,
          merged.map((u) => cells({ ...u, lastActiveDay: u.lastDay })),
        )
          .split('\r\n')
          .slice(1, -1);
        expect(got.sort()).toEqual(want.sort());
      }
      // What the browser's CSV writes for them (so what was compared above).
      const text = got.join('\n');
      for (const cell of [
        '1e+21',
        '3.5e+25',
        '123456789012345680000',
        '10000000000000000',
        '1e-7',
        '-0.000015',
        "'=SUM(A1)",
        '"say ""hi""',
        '"a;b"',
        "'\uFF1DSUM(A1)",
      ])
        expect(text).toContain(`,${cell}`);
      expect(text).toContain('"C, C++, \uE000, \u{1F600}"');
    },
  );

  it.skipIf(!available)(
    'copies a day whose text holds half a surrogate pair (valid JSON DuckDB refuses), shown as U+FFFD',
    async () => {
      const { store, analytics } = await fresh();
      const base = row(rng(9), 'u-1', '2026-02-02');
      const odd = { ...base, user_email: 'ann\ud800@acme.example', primary_model: 'opus\udfff' };
      await putUsersDay(store, '2026-02-02', [odd, row(rng(10), 'u-2', '2026-02-02')], 'a');
      await putTokensDay(
        store,
        '2026-02-02',
        JSON.stringify([
          {
            date: '2026-02-02',
            billable_tokens: 5,
            by_user: [{ user_id: 'u-1', user_email: 'x\udc00', billable_tokens: 5 }],
          },
        ]),
        'a',
      );
      const users = await mergedUsers(analytics, { start: '2026-02-01', end: '2026-02-08' });
      expect(users.map((u) => u.userId)).toEqual(['u-1', 'u-2']);
      expect(users[0]).toMatchObject({
        email: 'ann\ufffd@acme.example',
        primaryModel: 'opus\ufffd',
        credits: base.billable_tokens,
        toolCalls: base.tool_calls,
      });
      const [credits] = await analytics.rows<{ n: number }>(
        'SELECT sum(credits) AS n FROM person_credits_day JOIN person USING (pid) WHERE user_id = $id',
        { id: 'u-1' },
      );
      expect(credits!.n).toBe(5);
    },
  );

  it.skipIf(!available)(
    'picks the first day’s email (else the first given), the most frequent model with its latest tier, ties by name',
    async () => {
      const { store, analytics } = await fresh();
      const base = row(rng(7), 'u-1', '2026-02-01');
      const day = (date: Day, o: Partial<UserRow>) => putUsersDay(store, date, [{ ...base, date, ...o }], 'a');
      await day('2026-02-01', {
        user_email: null,
        primary_model: 'sonnet',
        primary_model_tier: 'standard',
        delegation_level: 'manual',
      });
      await day('2026-02-02', {
        user_email: '',
        primary_model: 'opus',
        primary_model_tier: 'standard',
        delegation_level: 'auto-high',
      });
      await day('2026-02-03', {
        user_email: 'last@acme.example',
        primary_model: 'opus',
        primary_model_tier: 'thinking',
        delegation_level: 'manual',
      });
      const [u] = await mergedUsers(analytics, { start: '2026-02-01', end: '2026-02-03' });
      expect(u).toMatchObject({
        email: 'last@acme.example',
        primaryModel: 'opus',
        primaryModelTier: 'thinking',
        delegationLevel: 'manual',
        activeDays: 3,
        firstDay: '2026-02-01',
        lastDay: '2026-02-03',
      });
      // The first day's email, even empty; one day each of two levels: the first name wins.
      const [v] = await mergedUsers(analytics, { start: '2026-02-02', end: '2026-02-03' });
      expect([v!.email, v!.delegationLevel]).toEqual(['', 'auto-high']);
    },
  );

  it.skipIf(!available)(
    'follows a day written again or dropped, and a restarted process catches up from its file',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'analytics-'));
      opened.push(async () => rmSync(dir, { recursive: true, force: true }));
      const file = join(dir, 'analytics.duckdb');
      const s = await open();
      opened.push(() => s.store.close().then(s.drop));
      const r = rng(5);
      const days = new Map<string, UserRow[]>();
      for (const d of eachDay('2026-02-01', '2026-02-05')) {
        days.set(
          d,
          ['a', 'b'].map((u) => row(r, u, d)),
        );
        await putUsersDay(s.store, d, days.get(d)!, 'v1');
      }
      const range = { start: '2026-02-01', end: '2026-02-05' } as const;
      let analytics = await openAnalytics(s.store, { file, logger: silentLogger });
      expectSame(await mergedUsers(analytics, range), browserMerge(days, range.start, range.end));
      // A sync walks a day again (another version) and a day goes from the store.
      days.set(
        '2026-02-03',
        ['a', 'c'].map((u) => row(r, u, '2026-02-03')),
      );
      await putUsersDay(s.store, '2026-02-03', days.get('2026-02-03')!, 'v2');
      expectSame(await mergedUsers(analytics, range), browserMerge(days, range.start, range.end));
      await analytics.close();
      // While it was stopped: one more day written, one dropped.
      days.set(
        '2026-02-04',
        ['b'].map((u) => row(r, u, '2026-02-04')),
      );
      await putUsersDay(s.store, '2026-02-04', days.get('2026-02-04')!, 'v3');
      days.delete('2026-02-05');
      await s.store.db.deleteFrom('users_day').where('day', '=', '2026-02-05').execute();
      analytics = await openAnalytics(s.store, { file, logger: silentLogger });
      opened.push(() => analytics.close());
      expectSame(await mergedUsers(analytics, range), browserMerge(days, range.start, range.end));
      const held = await analytics.rows<{ day: string; version: string }>(
        "SELECT day, version FROM loaded_day WHERE source = 'users' ORDER BY day",
      );
      expect(held.map((h) => `${h.day} ${h.version}`)).toEqual([
        '2026-02-01 v1',
        '2026-02-02 v1',
        '2026-02-03 v2',
        '2026-02-04 v3',
      ]);
    },
  );

  it.skipIf(!available)(
    'a range is its whole weeks and its edge days: every start and end mid-week gives the days’ merge, and a day written again or dropped replaces its week’s sums',
    async () => {
      const { store, analytics } = await fresh();
      const r = rng(11);
      const people = ['a', 'b', 'c', 'd'];
      const stored = new Map<string, UserRow[]>();
      // Sunday 1 February to Tuesday 3 March 2026: four whole ISO weeks and days on both sides.
      for (const d of eachDay('2026-02-01', '2026-03-03')) {
        const rows = people.filter(() => r() < 0.7).map((u) => row(r, u, d));
        stored.set(d, rows);
        await putUsersDay(store, d, rows, 'v1');
      }
      const all = { start: '2026-02-01', end: '2026-03-03' } as const;
      await analytics.catchUp(all);
      for (const start of eachDay('2026-02-01', '2026-02-09'))
        for (const end of eachDay('2026-02-22', '2026-03-03'))
          expectSame(await mergedUsers(analytics, { start, end }), browserMerge(stored, start, end));
      // Ranges inside one week, and one of a single whole week.
      for (const [start, end] of [
        ['2026-02-10', '2026-02-12'],
        ['2026-02-09', '2026-02-15'],
        ['2026-02-14', '2026-02-17'],
      ] as const)
        expectSame(await mergedUsers(analytics, { start, end }), browserMerge(stored, start, end));

      /** The week of 9 February as the week table holds it: one row a person, the week's days summed. */
      const week = () =>
        analytics.rows<{ user_id: string; days: number; credits: number }>(
          "SELECT user_id, days, billable_tokens AS credits FROM person_week JOIN person USING (pid) WHERE week = '2026-02-09' ORDER BY user_id",
        );
      const summed = () => {
        const by = new Map<string, { days: number; credits: number }>();
        for (const d of eachDay('2026-02-09', '2026-02-15'))
          for (const x of stored.get(d) ?? []) {
            const s = by.get(x.user_id) ?? { days: 0, credits: 0 };
            by.set(x.user_id, { days: s.days + 1, credits: s.credits + x.billable_tokens });
          }
        return [...by].sort(([x], [y]) => (x < y ? -1 : 1)).map(([user_id, s]) => ({ user_id, ...s }));
      };
      expect(await week()).toEqual(summed());
      // A sync writes Wednesday again with other people and numbers, and Friday goes from the store.
      stored.set(
        '2026-02-11',
        ['a', 'd'].map((u) => row(r, u, '2026-02-11')),
      );
      await putUsersDay(store, '2026-02-11', stored.get('2026-02-11')!, 'v2');
      stored.delete('2026-02-13');
      await store.db.deleteFrom('users_day').where('day', '=', '2026-02-13').execute();
      await store.db.deleteFrom('user_day').where('day', '=', '2026-02-13').execute();
      expectSame(await mergedUsers(analytics, all), browserMerge(stored, all.start, all.end));
      expect(await week()).toEqual(summed());
      expectSame(
        await mergedUsers(analytics, { start: '2026-02-09', end: '2026-02-15' }),
        browserMerge(stored, '2026-02-09', '2026-02-15'),
      );
    },
  );

  it.skipIf(!available)(
    'prices whole weeks by the week where the price holds all week, and day by day where it changes: the same spend for any range',
    async () => {
      const { store, analytics } = await fresh();
      // Prices change on a Thursday (thinking) and a Sunday (opus): those weeks are priced day by day.
      const parsed = parsePrices(
        '{"currency": "EUR", "prices": [{"from": "2026-01-14", "perMillionCredits": 8}, {"from": "2026-02-12", "tier": "thinking", "perMillionCredits": 20}, {"from": "2026-03-01", "model": "opus", "perMillionCredits": 30}]}',
      );
      if (!parsed.ok) throw new Error('the test prices are refused');
      const list = parsed.prices;
      const r = rng(21);
      const held = new Map<string, { user: string; model: string; tier: string; credits: number }[]>();
      const write = async (d: Day, version: string) => {
        const els = ['a', 'b', 'c']
          .filter(() => r() < 0.8)
          .map((user) => {
            const models = ['opus', 'sonnet'].filter(() => r() < 0.6);
            const split = models.map((m) => ({
              model_id: m,
              model_tier: pick(r, ['standard', 'thinking']),
              billable_tokens: Math.floor(r() * 4e6),
            }));
            return { user_id: user, billable_tokens: Math.floor(r() * 3e6), by_model: split };
          });
        held.set(
          d,
          els.flatMap((e) =>
            e.by_model.length === 0
              ? [{ user: e.user_id, model: '', tier: '', credits: e.billable_tokens }]
              : e.by_model.map((m) => ({
                  user: e.user_id,
                  model: m.model_id,
                  tier: m.model_tier,
                  credits: m.billable_tokens,
                })),
          ),
        );
        await putTokensDay(store, d, JSON.stringify([{ date: d, billable_tokens: 1, by_user: els }]), version);
      };
      for (const d of eachDay('2026-02-03', '2026-03-12')) await write(d, 'v1');
      const byHand = (start: Day, end: Day) => {
        const out = new Map<string, number>();
        for (const d of eachDay(start, end))
          for (const x of held.get(d) ?? [])
            out.set(x.user, (out.get(x.user) ?? 0) + (x.credits * priceOf(list, d, x.model, x.tier)) / 1e6);
        return out;
      };
      const spendByUser = createSpendByUser(analytics);
      const same = async (start: Day, end: Day) => {
        const got = await spendByUser({ start, end }, list);
        const want = byHand(start, end);
        expect([...got.keys()].sort(), `${start} to ${end}`).toEqual([...want.keys()].sort());
        for (const [id, v] of want) expect(got.get(id)! / v, `${id}, ${start} to ${end}`).toBeCloseTo(1, 12);
      };
      for (const start of ['2026-02-03', '2026-02-09', '2026-02-11', '2026-02-16'] as const)
        for (const end of ['2026-02-22', '2026-02-25', '2026-03-01', '2026-03-04', '2026-03-12'] as const)
          await same(start, end);
      // A day of a week priced by the week, and one of a week priced by the day, written again.
      await write('2026-02-18', 'v2');
      await write('2026-02-26', 'v2');
      await same('2026-02-03', '2026-03-12');
      await same('2026-02-16', '2026-03-01');
    },
  );

  it.skipIf(!available)(
    'prices each person’s credits per model and tier at each day’s price, an element without a split at the day’s default',
    async () => {
      const { store, analytics } = await fresh();
      const parsed = parsePrices(
        '{"currency": "EUR", "prices": [{"from": "2026-01-14", "perMillionCredits": 8}, {"from": "2026-02-15", "tier": "thinking", "perMillionCredits": 20}, {"from": "2026-02-20", "model": "opus", "perMillionCredits": 30}]}',
      );
      if (!parsed.ok) throw new Error('the test prices are refused');
      const list = parsed.prices;
      const body = (els: unknown[]) => JSON.stringify([{ date: 'x', billable_tokens: 1, by_user: els }]);
      await putTokensDay(
        store,
        '2026-02-14',
        body([
          {
            user_id: 'a',
            billable_tokens: 3e6,
            by_model: [{ model_id: 'opus', model_tier: 'thinking', billable_tokens: 3e6 }],
          },
          { user_id: 'b', billable_tokens: 1e6 },
        ]),
        '1',
      );
      await putTokensDay(
        store,
        '2026-02-21',
        body([
          {
            user_id: 'a',
            billable_tokens: 3e6,
            by_model: [
              { model_id: 'opus', model_tier: 'thinking', billable_tokens: 1e6 },
              { model_id: 'sonnet', model_tier: 'thinking', billable_tokens: 2e6 },
            ],
          },
          { user_id: 'b', billable_tokens: 5e5, by_model: [] },
          { billable_tokens: 9e9 },
        ]),
        '1',
      );
      const spendByUser = createSpendByUser(analytics);
      const spent = await spendByUser({ start: '2026-02-01', end: '2026-02-28' }, list);
      const p = (d: string, m: string, t: string) => priceOf(list, d, m, t);
      expect([...spent.keys()].sort()).toEqual(['a', 'b']);
      expect(spent.get('a')).toBeCloseTo(
        3 * p('2026-02-14', 'opus', 'thinking') +
          1 * p('2026-02-21', 'opus', 'thinking') +
          2 * p('2026-02-21', 'sonnet', 'thinking'),
        9,
      );
      expect(spent.get('a')).toBeCloseTo(3 * 8 + 30 + 2 * 20, 9);
      expect(spent.get('b')).toBeCloseTo(1 * 8 + 0.5 * 8, 9);
      // Another price list: the same days priced again.
      const doubled = parsePrices(
        '{"currency": "EUR", "prices": [{"from": "2026-01-14", "perMillionCredits": 16}, {"from": "2026-02-15", "tier": "thinking", "perMillionCredits": 40}, {"from": "2026-02-20", "model": "opus", "perMillionCredits": 60}]}',
      );
      if (!doubled.ok) throw new Error('refused');
      const twice = await spendByUser({ start: '2026-02-01', end: '2026-02-28' }, doubled.prices);
      for (const [id, v] of spent) expect(twice.get(id)).toBeCloseTo(2 * v, 9);
      expect((await spendByUser({ start: '2026-02-14', end: '2026-02-14' }, list)).get('a')).toBeCloseTo(24, 9);
      // A day of `/tokens` written again: spend follows.
      await putTokensDay(store, '2026-02-14', body([{ user_id: 'a', billable_tokens: 1e6 }]), '2');
      expect((await spendByUser({ start: '2026-02-14', end: '2026-02-14' }, list)).get('a')).toBeCloseTo(8, 9);
    },
  );
});

describe("the analytics engine's rows", () => {
  it("come in the query's order, 2,048 at most a part, however many, read whole or a part at a time", async () => {
    const store = await openStore({ dataDir: ':memory:' });
    const analytics = await openAnalytics(store, { file: ':memory:', logger: silentLogger });
    try {
      const sql = `SELECT i::INTEGER AS i, (hash(i) % 1000)::INTEGER AS k, 'p' || i AS s FROM range(100000) t(i)
        ORDER BY k DESC, i`;
      const parts: { i: number; k: number; s: string }[][] = [];
      for await (const part of analytics.rowParts<{ i: number; k: number; s: string }>(sql)) parts.push(part);
      expect(parts.every((p) => p.length > 0 && p.length <= 2048)).toBe(true);
      // DuckDB joins them 256 to a text.
      for (const rows of [parts.flat(), await analytics.rows<{ i: number; k: number; s: string }>(sql)]) {
        expect(rows).toHaveLength(100_000);
        const outOfOrder = rows.findIndex(
          (r, x) => x > 0 && !(rows[x - 1]!.k > r.k || (rows[x - 1]!.k === r.k && rows[x - 1]!.i < r.i)),
        );
        expect(outOfOrder).toBe(-1);
        expect(new Set(rows.map((r) => r.s)).size).toBe(100_000);
        expect(rows.find((r) => r.i === 4321)).toEqual({ i: 4321, k: expect.any(Number), s: 'p4321' });
      }
      expect(await analytics.rows('SELECT 1 AS one WHERE false')).toEqual([]);
      expect(await analytics.rows("SELECT DATE '2026-03-01' AS day, 2.5 AS x")).toEqual([
        { day: '2026-03-01', x: 2.5 },
      ]);
    } finally {
      await analytics.close();
      await store.close();
    }
  });
});

describe('closing the analytics engine', () => {
  it('waits for a query in flight before it closes (a connection closed under a query deadlocks DuckDB)', async () => {
    const store = await openStore({ dataDir: ':memory:' });
    const analytics = await openAnalytics(store, { file: ':memory:', logger: silentLogger });
    try {
      const slow = analytics.rows<{ n: number }>('SELECT count(*)::INTEGER AS n FROM range(30000000) a');
      const closing = analytics.close();
      expect((await slow)[0]!.n).toBe(30_000_000);
      await closing;
      await expect(analytics.rows('SELECT 1')).rejects.toThrow('the analytics engine is closed');
    } finally {
      await store.close();
    }
  });
});

describe("a copy in a file of the process's own (beside PostgreSQL)", () => {
  it('is made in the temporary folder, removed at close, and the files of processes gone are removed at start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'analytics-temporary-'));
    const store = await openStore({ dataDir: ':memory:' });
    try {
      // A copy left by a process that no longer runs (no process has id 2^22 + 1: Linux's largest is 2^22), one left
      // by an earlier process with this one's id (a restarted container's), and a file that is no copy.
      writeFileSync(join(dir, 'copy-4194305-0.duckdb'), 'left behind');
      writeFileSync(join(dir, 'copy-4194305-0.duckdb.wal'), 'left behind');
      writeFileSync(join(dir, `copy-${process.pid}-0.duckdb`), 'left behind by an earlier process of this id');
      writeFileSync(join(dir, 'other.txt'), 'kept');
      const analytics = await openAnalytics(store, { file: 'temporary', tempDirectory: dir, logger: silentLogger });
      await putUsersDay(store, '2026-02-01', [row(rng(3), 'a', '2026-02-01')], 'v1');
      await analytics.catchUp();
      expect((await analytics.rows<{ n: number }>('SELECT count(*)::INTEGER AS n FROM person_day'))[0]!.n).toBe(1);
      const copies = readdirSync(dir).filter((f) => f.endsWith('.duckdb'));
      expect(copies).toEqual([expect.stringMatching(new RegExp(`^copy-${process.pid}-[0-9a-f-]+\\.duckdb$`))]);
      await analytics.close();
      expect(readdirSync(dir).sort()).toEqual(['other.txt']);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
