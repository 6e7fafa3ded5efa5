/**
 * The read thread's day columns against the browser's merge of the same rows (every field, exactly),
 * over random organizations whose people change email, model, tier, level and languages from day to
 * day; against constructed `/tokens` days priced by hand; and as days are written again, missing or
 * dropped for the byte budget.
 */
import { describe, expect, it } from 'vitest';
import type { UserRow } from '../../api/schemas';
import { eachDay, type Day } from '../../lib/dates';
import { mergeUserRows, type MergedUser } from '../../lib/user-merge';
import { rng, type Rng } from '../demo/rng';
import { parsePrices, priceOf } from '../spend/prices';
import { createDayColumns, DAY_NUMBERS, type DaySource } from './day-columns';
import { userDayFacts } from './users-queries';

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

/** A store in memory: `/users` days (rows and version) and `/tokens` day bodies. */
function memorySource() {
  const users = new Map<string, { version: string; rows: UserRow[] }>();
  const tokens = new Map<string, { version: string; body: string }>();
  /** Rows of days being walked: in the table, not yet a stored day. */
  const partial = new Map<string, UserRow[]>();
  const reads = { userRows: 0, tokensBodies: 0 };
  const inRange = (d: string, start: string, end: string) => d >= start && d <= end;
  const source: DaySource = {
    usersDays: (start, end) =>
      [...users]
        .filter(([d]) => inRange(d, start, end))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([day, v]) => ({ day, version: v.version })),
    *userRows(start, end) {
      reads.userRows++;
      const days = [...new Set([...users.keys(), ...partial.keys()])].filter((d) => inRange(d, start, end)).sort();
      for (const d of days)
        for (const r of [...(users.get(d)?.rows ?? []), ...(partial.get(d) ?? [])].sort((a, b) =>
          a.user_id < b.user_id ? -1 : 1,
        )) {
          const f = userDayFacts(r as unknown as Record<string, unknown>);
          yield [
            d,
            r.user_id,
            r.user_email,
            f.primary_model,
            f.primary_model_tier,
            f.delegation_level,
            f.languages,
            ...DAY_NUMBERS.map((k) => (f as Record<string, unknown>)[k]),
          ];
        }
    },
    tokensDays: (start, end) =>
      [...tokens]
        .filter(([d]) => inRange(d, start, end))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([day, v]) => ({ day, version: v.version })),
    *tokensBodies(start, end) {
      reads.tokensBodies++;
      for (const [day, v] of [...tokens].sort(([a], [b]) => a.localeCompare(b)))
        if (inRange(day, start, end)) yield { day, body: v.body };
    },
  };
  return { users, tokens, partial, reads, source };
}

const byId = (a: MergedUser, b: MergedUser) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);

/** The browser's merge of the stored rows of [start, end], walked in day order. */
function browserMerge(users: Map<string, { rows: UserRow[] }>, start: Day, end: Day): MergedUser[] {
  const rows = eachDay(start, end).flatMap((d) =>
    [...(users.get(d)?.rows ?? [])].sort((a, b) => (a.user_id < b.user_id ? -1 : 1)),
  );
  return mergeUserRows(rows).sort(byId);
}

/** A store of February's 28 days, every one with a row of each person, and the bytes a day takes when kept. */
function february(seed: number, people: string[]) {
  const r = rng(seed);
  const s = memorySource();
  for (const d of eachDay('2026-02-01', '2026-02-28'))
    s.users.set(d, { version: 'v1', rows: people.map((u) => row(r, u, d)) });
  const probe = createDayColumns(s.source);
  probe.mergedUsers('2026-02-01', '2026-02-28');
  return { s, perDay: probe.held().bytes / 28 };
}

describe('day columns: the merged users table', () => {
  it('is the browser’s merge of the same rows, field for field, for random organizations and ranges', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const r = rng(seed);
      const s = memorySource();
      const people = Array.from({ length: 5 + Math.floor(r() * 40) }, (_, i) => `u-${seed}-${i}`);
      const days = eachDay('2026-02-01', '2026-03-31');
      for (const d of days) {
        if (r() < 0.15) continue; // a day not stored
        s.users.set(d, { version: `v1 ${d}`, rows: people.filter(() => r() < 0.4).map((u) => row(r, u, d)) });
      }
      const columns = createDayColumns(s.source);
      for (let k = 0; k < 6; k++) {
        const a = pick(r, days);
        const b = pick(r, days);
        const [start, end] = (a <= b ? [a, b] : [b, a]) as [Day, Day];
        expect(columns.mergedUsers(start, end)).toEqual(browserMerge(s.users, start, end));
      }
      // The whole span, and a day with nobody.
      expect(columns.mergedUsers('2026-02-01', '2026-03-31')).toEqual(
        browserMerge(s.users, '2026-02-01', '2026-03-31'),
      );
      s.users.set('2026-04-01', { version: 'v1', rows: [] });
      expect(columns.mergedUsers('2026-04-01', '2026-04-01')).toEqual([]);
    }
  });

  it('picks as the browser does: first day’s email (else the first given), most frequent model with its latest tier, ties by name', () => {
    const s = memorySource();
    const base = row(rng(7), 'u-1', '2026-02-01');
    const day = (date: string, o: Partial<UserRow>): UserRow => ({ ...base, date, ...o });
    s.users.set('2026-02-01', {
      version: 'a',
      rows: [
        day('2026-02-01', {
          user_email: null,
          primary_model: 'sonnet',
          primary_model_tier: 'standard',
          delegation_level: 'manual',
        }),
      ],
    });
    s.users.set('2026-02-02', {
      version: 'a',
      rows: [
        day('2026-02-02', {
          user_email: 'later@acme.example',
          primary_model: 'opus',
          primary_model_tier: 'standard',
          delegation_level: 'auto-high',
        }),
      ],
    });
    s.users.set('2026-02-03', {
      version: 'a',
      rows: [
        day('2026-02-03', {
          user_email: 'last@acme.example',
          primary_model: 'opus',
          primary_model_tier: 'thinking',
          delegation_level: 'manual',
        }),
      ],
    });
    const [u] = createDayColumns(s.source).mergedUsers('2026-02-01', '2026-02-03');
    expect(u).toMatchObject({
      email: 'later@acme.example',
      primaryModel: 'opus',
      primaryModelTier: 'thinking',
      delegationLevel: 'manual',
      activeDays: 3,
      firstDay: '2026-02-01',
      lastDay: '2026-02-03',
    });
    // One day each of two levels: the first name wins.
    const [v] = createDayColumns(s.source).mergedUsers('2026-02-02', '2026-02-03');
    expect(v!.delegationLevel).toBe('auto-high');
    expect(v).toEqual(browserMerge(s.users, '2026-02-02', '2026-02-03')[0]);
  });

  it('reads a day once, again when a sync writes it anew, and never the rows of a day still being walked', () => {
    const r = rng(99);
    const s = memorySource();
    for (const d of eachDay('2026-02-01', '2026-02-10'))
      s.users.set(d, { version: 'v1', rows: ['a', 'b', 'c'].map((u) => row(r, u, d)) });
    s.partial.set('2026-02-11', [row(r, 'a', '2026-02-11'), row(r, 'z', '2026-02-11')]);
    const columns = createDayColumns(s.source);
    expect(columns.mergedUsers('2026-02-01', '2026-02-11')).toEqual(browserMerge(s.users, '2026-02-01', '2026-02-11'));
    expect(columns.mergedUsers('2026-02-01', '2026-02-11').map((u) => u.userId)).toEqual(['a', 'b', 'c']);
    const reads = s.reads.userRows;
    // Kept: the same range, or one inside it, reads nothing.
    columns.mergedUsers('2026-02-01', '2026-02-10');
    columns.mergedUsers('2026-02-03', '2026-02-05');
    expect(s.reads.userRows).toBe(reads);
    // A day walked again (a new version) is read again, alone.
    s.users.set('2026-02-10', { version: 'v2', rows: [row(r, 'a', '2026-02-10'), row(r, 'd', '2026-02-10')] });
    expect(columns.mergedUsers('2026-02-01', '2026-02-10')).toEqual(browserMerge(s.users, '2026-02-01', '2026-02-10'));
    expect(s.reads.userRows).toBe(reads + 1);
    // The walked day is complete now: its rows count.
    s.users.set('2026-02-11', { version: 'v1', rows: s.partial.get('2026-02-11')! });
    s.partial.delete('2026-02-11');
    expect(columns.mergedUsers('2026-02-01', '2026-02-11')).toEqual(browserMerge(s.users, '2026-02-01', '2026-02-11'));
    // A day no longer stored is left out.
    s.users.delete('2026-02-05');
    expect(columns.mergedUsers('2026-02-01', '2026-02-11')).toEqual(browserMerge(s.users, '2026-02-01', '2026-02-11'));
  });

  it('drops the least recently used days beyond its byte budget, and reads them again when asked', () => {
    const { s, perDay } = february(5, ['a', 'b', 'c', 'd']);
    // Room for about ten days.
    const small = createDayColumns(s.source, { maxBytes: perDay * 10 });
    expect(small.mergedUsers('2026-02-01', '2026-02-28')).toEqual(browserMerge(s.users, '2026-02-01', '2026-02-28'));
    // The range asked for is kept whole while it is read; after it, the budget holds.
    small.mergedUsers('2026-02-20', '2026-02-28');
    expect(small.held().bytes).toBeLessThanOrEqual(perDay * 10 + 1);
    const reads = s.reads.userRows;
    expect(small.mergedUsers('2026-02-20', '2026-02-28')).toEqual(browserMerge(s.users, '2026-02-20', '2026-02-28'));
    expect(s.reads.userRows).toBe(reads);
    expect(small.mergedUsers('2026-02-01', '2026-02-05')).toEqual(browserMerge(s.users, '2026-02-01', '2026-02-05'));
    expect(s.reads.userRows).toBe(reads + 1);
  });
});

describe('day columns: reading ahead', () => {
  it('reads days before any reader asks, and stops (reading nothing) once most of the budget is used', () => {
    const { s, perDay } = february(11, ['a', 'b', 'c', 'd']);
    const columns = createDayColumns(s.source, { maxBytes: perDay * 10 });
    expect(columns.preload('users', '2026-02-22', '2026-02-28')).toBe(true);
    const reads = s.reads.userRows;
    expect(columns.mergedUsers('2026-02-22', '2026-02-28')).toEqual(browserMerge(s.users, '2026-02-22', '2026-02-28'));
    expect(s.reads.userRows).toBe(reads);
    // The next week fills the budget: what does not fit is not kept, and the days readers use stay.
    expect(columns.preload('users', '2026-02-15', '2026-02-21')).toBe(false);
    expect(columns.held().usersDays).toBe(10);
    expect(columns.held().bytes).toBeLessThanOrEqual(perDay * 10 + 1);
    expect(columns.mergedUsers('2026-02-22', '2026-02-28')).toEqual(browserMerge(s.users, '2026-02-22', '2026-02-28'));
    expect(s.reads.userRows).toBe(reads + 1);
    // Full: nothing more is read.
    expect(columns.preload('users', '2026-02-08', '2026-02-14')).toBe(false);
    expect(s.reads.userRows).toBe(reads + 1);
  });
});

describe('day columns: what goes first', () => {
  it('drops days read ahead that no reader used before any day a reader used', () => {
    const { s, perDay } = february(13, ['a', 'b', 'c']);
    const columns = createDayColumns(s.source, { maxBytes: perDay * 10 + 1 });
    columns.mergedUsers('2026-02-22', '2026-02-28');
    expect(columns.preload('users', '2026-02-15', '2026-02-17')).toBe(true);
    expect(columns.held().usersDays).toBe(10);
    // A reader's range of three more days: the three read ahead go, not the reader's week.
    columns.mergedUsers('2026-02-01', '2026-02-03');
    expect(columns.held().usersDays).toBe(10);
    const reads = s.reads.userRows;
    expect(columns.mergedUsers('2026-02-22', '2026-02-28')).toEqual(browserMerge(s.users, '2026-02-22', '2026-02-28'));
    expect(s.reads.userRows).toBe(reads);
  });

  it('counts a day walked again into no rows at its new size', () => {
    const r = rng(17);
    const s = memorySource();
    s.users.set('2026-02-01', { version: 'v1', rows: ['a', 'b', 'c'].map((u) => row(r, u, '2026-02-01')) });
    const columns = createDayColumns(s.source);
    columns.mergedUsers('2026-02-01', '2026-02-01');
    expect(columns.held().bytes).toBeGreaterThan(0);
    s.users.set('2026-02-01', { version: 'v2', rows: [] });
    expect(columns.mergedUsers('2026-02-01', '2026-02-01')).toEqual([]);
    expect(columns.held().bytes).toBe(0);
  });
});

describe('day columns: spend', () => {
  const PRICES = parsePrices(
    '{"currency": "EUR", "prices": [{"from": "2026-01-14", "perMillionCredits": 8}, {"from": "2026-02-15", "tier": "thinking", "perMillionCredits": 20}, {"from": "2026-02-20", "model": "opus", "perMillionCredits": 30}]}',
  );
  if (!PRICES.ok) throw new Error('the test prices are refused');
  const LIST = PRICES.prices;

  it('prices each person’s credits per model and tier at the price of each day, and an element without a split at the day’s default', () => {
    const s = memorySource();
    const body = (els: unknown[]) => JSON.stringify([{ date: 'x', billable_tokens: 1, by_user: els }]);
    s.tokens.set('2026-02-14', {
      version: '1',
      body: body([
        {
          user_id: 'a',
          billable_tokens: 3e6,
          by_model: [{ model_id: 'opus', model_tier: 'thinking', billable_tokens: 3e6 }],
        },
        { user_id: 'b', billable_tokens: 1e6 },
      ]),
    });
    s.tokens.set('2026-02-21', {
      version: '1',
      body: body([
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
    });
    const columns = createDayColumns(s.source);
    const spent = columns.spendByUser('2026-02-01', '2026-02-28', LIST);
    const p = (d: string, m: string, t: string) => priceOf(LIST, d, m, t);
    expect([...spent.keys()].sort()).toEqual(['a', 'b']);
    expect(spent.get('a')).toBeCloseTo(
      3 * p('2026-02-14', 'opus', 'thinking') +
        1 * p('2026-02-21', 'opus', 'thinking') +
        2 * p('2026-02-21', 'sonnet', 'thinking'),
      9,
    );
    expect(spent.get('a')).toBeCloseTo(3 * 8 + 30 + 2 * 20, 9);
    expect(spent.get('b')).toBeCloseTo(1 * 8 + 0.5 * 8, 9);
    // Another price list: the same days, priced again without reading them again.
    const reads = s.reads.tokensBodies;
    const doubled = parsePrices(
      '{"currency": "EUR", "prices": [{"from": "2026-01-14", "perMillionCredits": 16}, {"from": "2026-02-15", "tier": "thinking", "perMillionCredits": 40}, {"from": "2026-02-20", "model": "opus", "perMillionCredits": 60}]}',
    );
    if (!doubled.ok) throw new Error('refused');
    const twice = columns.spendByUser('2026-02-01', '2026-02-28', doubled.prices);
    for (const [id, v] of spent) expect(twice.get(id)).toBeCloseTo(2 * v, 9);
    expect(s.reads.tokensBodies).toBe(reads);
    // One day only.
    expect(columns.spendByUser('2026-02-14', '2026-02-14', LIST).get('a')).toBeCloseTo(24, 9);
  });
});
