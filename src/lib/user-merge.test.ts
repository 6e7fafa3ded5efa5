import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { userRow } from '../test/fixtures';
import {
  USER_COLUMN_IDS,
  USER_COLUMN_VALUES,
  UserMerger,
  byCodePoint,
  facetValues,
  filterUsers,
  isUserColumn,
  mergeUserRows,
  usersCsvColumns,
  type MergedUser,
  type UserDayRow,
} from './user-merge';

/** The CSV's columns without a price list. */
const { header: USERS_CSV_HEADER, row: userCsvRow } = usersCsvColumns();

const row = userRow;

describe('merge of /users rows', () => {
  it('merges a user split across pages, whatever the order', () => {
    const a = row({ date: '2026-02-03', tool_calls: 30, user_messages: 3, autonomy_ratio: 10, languages: ['Rust'] });
    const b = row({ date: '2026-02-01' });
    const m = new UserMerger();
    m.add([a]);
    m.add([row({ user_id: 'u2' })]);
    m.add([b]);
    const [u1] = m.result().filter((u) => u.userId === 'u1');
    expect(u1).toMatchObject({
      activeDays: 2,
      firstDay: '2026-02-01',
      lastDay: '2026-02-03',
      toolCalls: 40,
      credits: 200,
      userMessages: 5,
      languages: ['Go', 'Rust'],
    });
    // Σ tool calls ÷ Σ user messages: 40 / 5 = 8
    expect(u1!.autonomyRatio).toBe(8);
    const reversed = mergeUserRows([b, a]).find((u) => u.userId === 'u1');
    expect(reversed).toEqual(u1);
  });

  it('tool calls per user turn divides the sums, not the days’ ratios (rounded by the service) weighted by turns', () => {
    const [u] = mergeUserRows([
      row({ date: '2026-02-01', tool_calls: 7, user_messages: 3, autonomy_ratio: 2.33 }),
      row({ date: '2026-02-02', tool_calls: 12, user_messages: 0, autonomy_ratio: 0 }),
    ]);
    // 19 / 3; the weighted days would say 2.33, leaving out the second day's calls.
    expect(u!.autonomyRatio).toBeCloseTo(19 / 3, 12);
    expect(mergeUserRows([row({ tool_calls: 4, user_messages: 0, autonomy_ratio: 0 })])[0]!.autonomyRatio).toBe(0);
  });

  it('a user with one day keeps that day', () => {
    const [u] = mergeUserRows([row({})]);
    expect(u).toMatchObject({ activeDays: 1, firstDay: '2026-02-01', lastDay: '2026-02-01', autonomyRatio: 5 });
  });

  it('keeps null emails (shown by id) and picks up an email from any row', () => {
    expect(mergeUserRows([row({ user_email: null })])[0]!.email).toBeNull();
    expect(mergeUserRows([row({ user_email: null }), row({ date: '2026-02-02' })])[0]!.email).toBe('a@x');
  });

  it('takes the most frequent model with its tier, ties by name', () => {
    const rows = [
      row({ date: '2026-02-01', primary_model: 'opus', primary_model_tier: 'thinking' }),
      row({ date: '2026-02-02', primary_model: 'opus', primary_model_tier: 'thinking' }),
      row({ date: '2026-02-03', primary_model: 'sonnet', primary_model_tier: 'standard', delegation_level: 'manual' }),
    ];
    expect(mergeUserRows(rows)[0]).toMatchObject({
      primaryModel: 'opus',
      primaryModelTier: 'thinking',
      delegationLevel: 'auto-high',
    });
    const tie = [row({ primary_model: 'b' }), row({ date: '2026-02-02', primary_model: 'a' })];
    expect(mergeUserRows(tie)[0]!.primaryModel).toBe('a');
  });

  it('orders names by code point, as the analytics engine does (UTF-16 puts U+1F600 before U+E000)', () => {
    const rows = [
      row({ primary_model: '\u{1F600}', languages: ['\u{1F600}', 'Go'] }),
      row({ date: '2026-02-02', primary_model: '\uE000', languages: ['\uE000'] }),
    ];
    expect(mergeUserRows(rows)[0]).toMatchObject({ primaryModel: '\uE000', languages: ['Go', '\uE000', '\u{1F600}'] });
    expect(['\u{1F600}', '\uE000', 'a\u{1F600}', 'a', ''].sort(byCodePoint)).toEqual([
      '',
      'a',
      'a\u{1F600}',
      '\uE000',
      '\u{1F600}',
    ]);
  });

  it('counts a day once even when the service repeats a row', () => {
    expect(mergeUserRows([row({}), row({})])[0]!.activeDays).toBe(1);
  });
});

/**
 * The server folds groups of rows (one per user and model, tier, level, languages and email, with their
 * day count and first and last day) and per-user sums, as its grouped queries return them: the same
 * merge as the browser's over the rows themselves, for any rows.
 */
describe('merge of rows in any order', () => {
  const userDays = fc.uniqueArray(
    fc.record({
      user_id: fc.constantFrom('u1', 'u2', 'u3'),
      date: fc.integer({ min: 1, max: 28 }).map((d) => `2026-02-${String(d).padStart(2, '0')}`),
    }),
    { selector: (r) => `${r.user_id} ${r.date}`, minLength: 1, maxLength: 60 },
  );
  const rowOf = fc.record({
    user_email: fc.constantFrom(null, 'a@x', 'b@x', ''),
    primary_model: fc.constantFrom('opus', 'sonnet', 'haiku'),
    primary_model_tier: fc.constantFrom('standard', 'thinking'),
    delegation_level: fc.constantFrom('auto-high', 'manual', 'spec'),
    languages: fc.subarray(['Go', 'Rust', 'TypeScript']),
    billable_tokens: fc.nat(10_000),
    tool_calls: fc.nat(500),
    user_messages: fc.nat(40),
    autonomy_ratio: fc.nat(3000).map((n) => n / 100),
  });
  const rows = userDays.chain((keys) =>
    fc.tuple(...keys.map((k) => rowOf.map((r): UserDayRow => ({ ...userRow(), ...k, ...r })))),
  );

  it('agrees on every field, whatever the order of the rows', () => {
    fc.assert(
      fc.property(rows, (all) => {
        const byDay = [...all].sort((a, b) => (a.user_id + a.date).localeCompare(b.user_id + b.date));
        const byId = (a: MergedUser, b: MergedUser) => a.userId.localeCompare(b.userId);
        const browser = mergeUserRows(byDay).sort(byId);
        const same = (other: MergedUser[]) => {
          // A weighted mean summed in another order may differ in its last bits; every other field is exact.
          expect(other.map((x) => ({ ...x, autonomyRatio: 0 }))).toEqual(
            browser.map((x) => ({ ...x, autonomyRatio: 0 })),
          );
          for (const [i, x] of other.entries()) expect(x.autonomyRatio).toBeCloseTo(browser[i]!.autonomyRatio, 9);
        };
        same(mergeUserRows([...all].reverse()).sort(byId));
      }),
      { numRuns: 300 },
    );
  });
});

const u = (userId: string, email: string | null, over: Partial<MergedUser> = {}) =>
  ({
    userId,
    email,
    activeDays: 3,
    delegationLevel: 'auto-high',
    primaryModelTier: 'standard',
    languages: ['Go'],
    ...over,
  }) as MergedUser;
const users = [
  u('usr_1', 'Ada.Lovelace@acme.example'),
  u('usr_2', null, { delegationLevel: 'manual', languages: ['Rust', 'Go'] }),
  u('usr_3', 'grace@acme.example', { primaryModelTier: 'thinking', languages: ['Python'] }),
  // Known, not active in the range: listed only when asked for.
  u('usr_4', 'idle@acme.example', { activeDays: 0, delegationLevel: '', primaryModelTier: '', languages: [] }),
];
const none = { search: '', delegation: '', tier: '', language: '' };

describe('filterUsers', () => {
  it.each([
    [{ search: 'ada' }, ['usr_1']],
    [{ search: 'USR_2' }, ['usr_2']],
    [{ search: '  acme ' }, ['usr_1', 'usr_3']],
    [{ delegation: 'manual' }, ['usr_2']],
    [{ tier: 'thinking' }, ['usr_3']],
    [{ language: 'Go' }, ['usr_1', 'usr_2']],
    [{ language: 'Go', delegation: 'auto-high' }, ['usr_1']],
    [{}, ['usr_1', 'usr_2', 'usr_3']],
    [{ who: 'active' }, ['usr_1', 'usr_2', 'usr_3']],
    [{ who: 'inactive' }, ['usr_4']],
    [{ who: 'all' }, ['usr_1', 'usr_2', 'usr_3', 'usr_4']],
    [{ who: 'all', search: 'acme' }, ['usr_1', 'usr_3', 'usr_4']],
  ] as const)('%j → %j', (f, ids) => expect(filterUsers(users, { ...none, ...f }).map((x) => x.userId)).toEqual(ids));

  it('lists the facet values present', () => {
    expect(facetValues(users)).toEqual({
      delegation: ['auto-high', 'manual'],
      tier: ['standard', 'thinking'],
      language: ['Go', 'Python', 'Rust'],
    });
  });
});

describe('the CSV of the table', () => {
  it('has a value for each column id, in the same order', () => {
    expect(Object.keys(USER_COLUMN_VALUES)).toEqual(USER_COLUMN_IDS);
    expect(isUserColumn('credits')).toBe(true);
    expect(isUserColumn('toString')).toBe(false);
  });

  it('carries every column, the id beside the email', () => {
    const [m] = mergeUserRows([row({ user_id: 'u-bob', user_email: 'bob@acme.com', billable_tokens: 12_000 })]);
    expect(USERS_CSV_HEADER.slice(0, 5)).toEqual([
      'user_id',
      'user_email',
      'billable_tokens',
      'tool_calls',
      'sessions',
    ]);
    expect(userCsvRow(m!).slice(0, 3)).toEqual(['u-bob', 'bob@acme.com', 12_000]);
    expect(userCsvRow(m!)).toHaveLength(USERS_CSV_HEADER.length);
  });

  it('names its columns as the service names its fields, in snake_case, and rounds the ratio to the hundredth', () => {
    const { header, row: cells } = usersCsvColumns('EUR', true, true);
    expect(header).toEqual([
      'user_id',
      'user_email',
      'team',
      'managers',
      'billable_tokens',
      'spend_eur',
      'tool_calls',
      'sessions',
      'messages',
      'user_messages',
      'assistant_messages',
      'active_days',
      'first_day',
      'last_day',
      'last_active_day',
      'autonomy_ratio',
      'primary_model',
      'primary_model_tier',
      'delegation_level',
      'languages',
      'files_created',
      'files_edited',
      'git_commits',
      'git_prs_created',
      'mcp_calls',
      'skill_calls',
      'slash_commands',
      'hooks',
    ]);
    for (const h of header) expect(h).toMatch(/^[a-z]+(_[a-z]+)*$/);
    const [m] = mergeUserRows([
      row({ user_id: 'u', tool_calls: 619, user_messages: 100 }),
      row({ user_id: 'u', date: '2026-03-02', tool_calls: 0, user_messages: 0 }),
    ]);
    const ratio = cells({ ...m!, autonomyRatio: 6.190000000000001, spend: 1.005000001 });
    expect(ratio[header.indexOf('autonomy_ratio')]).toBe(6.19);
    expect(ratio[header.indexOf('spend_eur')]).toBe(1.01);
    const idle = cells({ ...m!, activeDays: 0, firstDay: null, lastDay: null, lastActiveDay: '2026-02-01' });
    expect(idle.slice(header.indexOf('first_day'), header.indexOf('last_active_day') + 1)).toEqual([
      null,
      null,
      '2026-02-01',
    ]);
  });
});
