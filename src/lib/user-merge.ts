/**
 * The users table, shared by the SPA and the server: `/users` rows (one per
 * user per active day, split across pages in any way) merged into one row per
 * user, the columns of that table (what sorting and the CSV read), the search
 * and facet filters, and the sort. The browser merges rows as a walk streams
 * them (when each reader brings a key); the server builds the same rows from
 * the store's copy in the analytics engine (src/server/analytics/users.ts, in SQL) and must agree with this file to
 * the last field.
 */

import { toolCallsPerTurn } from './definitions';
import { USER_COLUMN_IDS, type UserColumnId, type Who } from './user-columns';

export { USER_COLUMN_IDS, WHO, isUserColumn, type UserColumnId, type Who } from './user-columns';

/** The fields of a `/users` row the merge reads (the service's row, structurally). */
export interface UserDayRow {
  user_id: string;
  user_email: string | null;
  date: string;
  billable_tokens: number;
  tool_calls: number;
  sessions: number;
  messages: number;
  user_messages: number;
  assistant_messages: number;
  files_created: number;
  files_edited: number;
  git_commits: number;
  git_prs_created: number;
  mcp_calls: number;
  skill_calls: number;
  slash_commands: number;
  hooks: number;
  autonomy_ratio: number;
  primary_model: string;
  primary_model_tier: string;
  delegation_level: string;
  languages: readonly string[];
}

export interface MergedUser {
  userId: string;
  email: string | null;
  /** Days with activity in the range: 0 for a known person listed while not active in it (then no first or last day). */
  activeDays: number;
  firstDay: string | null;
  lastDay: string | null;
  credits: number;
  toolCalls: number;
  sessions: number;
  messages: number;
  userMessages: number;
  assistantMessages: number;
  filesCreated: number;
  filesEdited: number;
  commits: number;
  prs: number;
  mcpCalls: number;
  skillCalls: number;
  slashCommands: number;
  hooks: number;
  /**
   * Tool calls per user turn over the whole range, as every page computes it (lib/definitions.ts):
   * Σ tool calls ÷ Σ user messages; 0 without user messages (the table's column is a number).
   */
  autonomyRatio: number;
  /** The model of most days (ties: the first by name), with its tier on the last day it was used. */
  primaryModel: string;
  primaryModelTier: string;
  /** The level of most days (ties: the first by name). */
  delegationLevel: string;
  /** Every language of the range, sorted. */
  languages: string[];
  /**
   * The range's spend at the price list in force: only from a server that has one (and a store), so
   * never part of the merge itself.
   */
  spend?: number;
  /**
   * The person's team by the team mapping in force (Unassigned when it names them nowhere) and its managers (the
   * nearest team up the tree that names some): only from a server with a store and a mapping.
   */
  team?: string;
  managers?: string[];
  /**
   * The person's latest day of activity up to the range's end, whether in the range or before it: only from a
   * server with a store, which lists the known people not active in the range too.
   */
  lastActiveDay?: string | null;
}

/** The additive part of a merged user: what a database can sum. */
export type MergedSums = Pick<
  MergedUser,
  | 'credits'
  | 'toolCalls'
  | 'sessions'
  | 'messages'
  | 'userMessages'
  | 'assistantMessages'
  | 'filesCreated'
  | 'filesEdited'
  | 'commits'
  | 'prs'
  | 'mcpCalls'
  | 'skillCalls'
  | 'slashCommands'
  | 'hooks'
>;

/** Each sum of a merged user, and the row field it adds up. */
export const SUMMED_FIELDS = {
  credits: 'billable_tokens',
  toolCalls: 'tool_calls',
  sessions: 'sessions',
  messages: 'messages',
  userMessages: 'user_messages',
  assistantMessages: 'assistant_messages',
  filesCreated: 'files_created',
  filesEdited: 'files_edited',
  commits: 'git_commits',
  prs: 'git_prs_created',
  mcpCalls: 'mcp_calls',
  skillCalls: 'skill_calls',
  slashCommands: 'slash_commands',
  hooks: 'hooks',
} as const satisfies Record<keyof MergedSums, keyof UserDayRow>;

/** Each summed column with the service's field it sums. */
export const SUMS = Object.entries(SUMMED_FIELDS) as [keyof MergedSums, (typeof SUMMED_FIELDS)[keyof MergedSums]][];

/**
 * Orders texts by code point, as the analytics engine orders them (DuckDB compares UTF-8 bytes): JavaScript's `<`
 * compares UTF-16 code units, which put a character past U+FFFF before one from U+E000 to U+FFFF.
 */
export function byCodePoint(a: string, b: string): number {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** The value seen most often; ties break by name (by code point) so the result does not depend on row order. */
export function mostFrequent(m: ReadonlyMap<string, number>): string {
  let best = '';
  let n = -1;
  for (const [k, v] of m) if (v > n || (v === n && byCodePoint(k, best) < 0)) [best, n] = [k, v];
  return best;
}

const add = (m: Map<string, number>, k: string, n: number) => m.set(k, (m.get(k) ?? 0) + n);

/** One user's merge in progress, fed rows as a walk finds them. */
export class UserAccumulator {
  private email: string | null | undefined;
  private emailDay = '';
  private fallbackEmail: string | null = null;
  private fallbackDay = '';
  private days = new Set<string>();
  private first = '';
  private last = '';
  private sums: Record<keyof MergedSums, number> = {
    credits: 0,
    toolCalls: 0,
    sessions: 0,
    messages: 0,
    userMessages: 0,
    assistantMessages: 0,
    filesCreated: 0,
    filesEdited: 0,
    commits: 0,
    prs: 0,
    mcpCalls: 0,
    skillCalls: 0,
    slashCommands: 0,
    hooks: 0,
  };
  private models = new Map<string, number>();
  /** Per model: its tier on the latest day seen with it. */
  private tiers = new Map<string, { tier: string; day: string }>();
  private delegation = new Map<string, number>();
  private languages = new Set<string>();

  constructor(readonly userId: string) {}

  /**
   * The email of the user's first day; when that one has none, the first email
   * given on a later day (the order a day-ordered walk of the rows finds them in).
   */
  private seeEmail(email: string | null, firstDay: string) {
    if (this.email === undefined || firstDay < this.emailDay) {
      this.email = email;
      this.emailDay = firstDay;
    }
    if (email && (this.fallbackEmail === null || firstDay < this.fallbackDay)) {
      this.fallbackEmail = email;
      this.fallbackDay = firstDay;
    }
  }

  private seeDays(first: string, last: string) {
    if (!this.first || first < this.first) this.first = first;
    if (!this.last || last > this.last) this.last = last;
  }

  private seeModel(model: string, tier: string, lastDay: string, n: number) {
    add(this.models, model, n);
    const t = this.tiers.get(model);
    if (!t || lastDay >= t.day) this.tiers.set(model, { tier, day: lastDay });
  }

  /** One `/users` row; a day seen twice counts once as an active day. */
  addRow(r: UserDayRow): void {
    this.seeEmail(r.user_email, r.date);
    this.days.add(r.date);
    this.seeDays(r.date, r.date);
    for (const [k, field] of SUMS) this.sums[k] += r[field];
    this.seeModel(r.primary_model, r.primary_model_tier, r.date, 1);
    add(this.delegation, r.delegation_level, 1);
    for (const l of r.languages) this.languages.add(l);
  }

  result(): MergedUser {
    const primaryModel = mostFrequent(this.models);
    const userMessages = this.sums.userMessages;
    return {
      userId: this.userId,
      email: this.email === undefined ? null : (this.email ?? this.fallbackEmail),
      activeDays: this.days.size,
      firstDay: this.first,
      lastDay: this.last,
      ...this.sums,
      // Not the days' `autonomy_ratio` weighted by their turns: that is the same quotient only while each day's
      // ratio is exactly its tool calls over its turns, and the service rounds it (and a day of tool calls with no
      // message of the person's would count for nothing). The teams and tools pages divide the sums too.
      autonomyRatio: toolCallsPerTurn(this.sums.toolCalls, userMessages) ?? 0,
      primaryModel,
      primaryModelTier: this.tiers.get(primaryModel)?.tier ?? '',
      delegationLevel: mostFrequent(this.delegation),
      languages: [...this.languages].sort(byCodePoint),
    };
  }
}

/** Merges rows page by page as they come; users in the order first seen. */
export class UserMerger {
  private accs = new Map<string, UserAccumulator>();

  private acc(userId: string): UserAccumulator {
    let a = this.accs.get(userId);
    if (!a) {
      a = new UserAccumulator(userId);
      this.accs.set(userId, a);
    }
    return a;
  }

  add(rows: readonly UserDayRow[]): void {
    for (const r of rows) this.acc(r.user_id).addRow(r);
  }

  result(): MergedUser[] {
    return [...this.accs.values()].map((a) => a.result());
  }
}

export function mergeUserRows(rows: readonly UserDayRow[]): MergedUser[] {
  const m = new UserMerger();
  m.add(rows);
  return m.result();
}

// ---- The table: columns, filters, sort, CSV ---------------------------------------------------

/** Each column of the users table (`USER_COLUMN_IDS`) and the value it shows, sorts by and writes to the CSV. */
export const USER_COLUMN_VALUES = {
  user: (u: MergedUser) => u.email ?? u.userId,
  team: (u: MergedUser) => u.team ?? null,
  credits: (u: MergedUser) => u.credits,
  // None when the server could not price the range (its `/tokens` days could not be read).
  spend: (u: MergedUser) => u.spend ?? null,
  toolCalls: (u: MergedUser) => u.toolCalls,
  sessions: (u: MergedUser) => u.sessions,
  messages: (u: MergedUser) => u.messages,
  userMessages: (u: MergedUser) => u.userMessages,
  assistantMessages: (u: MergedUser) => u.assistantMessages,
  activeDays: (u: MergedUser) => u.activeDays,
  firstDay: (u: MergedUser) => u.firstDay,
  lastDay: (u: MergedUser) => u.lastDay,
  lastActiveDay: (u: MergedUser) => u.lastActiveDay ?? null,
  autonomy: (u: MergedUser) => u.autonomyRatio,
  model: (u: MergedUser) => u.primaryModel,
  tier: (u: MergedUser) => u.primaryModelTier,
  delegation: (u: MergedUser) => u.delegationLevel,
  languages: (u: MergedUser) => u.languages.join(', '),
  filesCreated: (u: MergedUser) => u.filesCreated,
  filesEdited: (u: MergedUser) => u.filesEdited,
  commits: (u: MergedUser) => u.commits,
  prs: (u: MergedUser) => u.prs,
  mcpCalls: (u: MergedUser) => u.mcpCalls,
  skillCalls: (u: MergedUser) => u.skillCalls,
  slashCommands: (u: MergedUser) => u.slashCommands,
  hooks: (u: MergedUser) => u.hooks,
} as const satisfies Record<UserColumnId, (u: MergedUser) => string | number | null>;

/**
 * Each column's CSV header: the service's field name where the column is one of its `/users` fields (summed or
 * picked), else the column's name in the same snake_case.
 */
const CSV_HEADERS: Record<Exclude<UserColumnId, 'user' | 'team' | 'spend'>, string> = {
  ...SUMMED_FIELDS,
  activeDays: 'active_days',
  firstDay: 'first_day',
  lastDay: 'last_day',
  lastActiveDay: 'last_active_day',
  autonomy: 'autonomy_ratio',
  model: 'primary_model',
  tier: 'primary_model_tier',
  delegation: 'delegation_level',
  languages: 'languages',
};

/**
 * The CSV's columns written to the hundredth: the ratio (the table shows it to the tenth; no 6.190000000000001) and
 * spend, to the cent. The server's engine rounds the same (src/server/analytics/users-csv.ts).
 */
export const CSV_HUNDREDTHS: ReadonlySet<UserColumnId> = new Set(['autonomy', 'spend']);

/**
 * The CSV carries every column, whatever is shown, with the id beside the email, under the service's field names
 * (README's "The users CSV" lists them). Spend is a column only with a price list: its currency names it
 * (`spend_usd`) and it is written to the cent. The team and its managers (`; ` between them) are columns only from a
 * server with a team mapping (`teams`); the last active day only from a server with a store (`known`).
 */
export function usersCsvColumns(
  currency: string | null = null,
  teams = false,
  known = false,
): {
  header: string[];
  row: (u: MergedUser) => (string | number | null)[];
  /** The columns after the person's and the team's (the figures), in order. */
  figures: UserColumnId[];
} {
  const ids = USER_COLUMN_IDS.slice(1).filter(
    (id) => (currency !== null || id !== 'spend') && (teams || id !== 'team') && (known || id !== 'lastActiveDay'),
  );
  // Each cell's maker, chosen once: a whole organization's CSV is tens of thousands of rows.
  const cells = ids.flatMap((id): ((u: MergedUser) => string | number | null)[] => {
    if (id === 'team') return [(u) => u.team ?? null, (u) => (u.managers ?? []).join('; ')];
    const value = USER_COLUMN_VALUES[id];
    if (!CSV_HUNDREDTHS.has(id)) return [value];
    return [(u) => ((v) => (typeof v === 'number' ? Math.round(v * 100) / 100 : v))(value(u))];
  });
  return {
    header: [
      'user_id',
      'user_email',
      ...ids.flatMap((id) =>
        id === 'spend'
          ? [`spend_${currency!.toLowerCase()}`]
          : id === 'team'
            ? ['team', 'managers']
            : [CSV_HEADERS[id as keyof typeof CSV_HEADERS]],
      ),
    ],
    row: (u) => [u.userId, u.email, ...cells.map((cell) => cell(u))],
    figures: ids.filter((id) => id !== 'team'),
  };
}

export interface UserFilter {
  search: string;
  delegation: string;
  tier: string;
  language: string;
  /** Active people only when absent. */
  who?: Who;
}

/** Active in the range, or not: the filter `who` applies. */
export const listedBy = (who: Who) => (u: MergedUser) => who === 'all' || (who === 'active') === u.activeDays > 0;

/** Search by email or id (case-insensitive, substring); exact match on the chosen facets. */
export function filterUsers(users: readonly MergedUser[], f: UserFilter): MergedUser[] {
  const q = f.search.trim().toLowerCase();
  const listed = listedBy(f.who ?? 'active');
  return users.filter(
    (u) =>
      listed(u) &&
      (!q || u.userId.toLowerCase().includes(q) || (u.email?.toLowerCase().includes(q) ?? false)) &&
      (!f.delegation || u.delegationLevel === f.delegation) &&
      (!f.tier || u.primaryModelTier === f.tier) &&
      (!f.language || u.languages.includes(f.language)),
  );
}

export interface UserFacets {
  delegation: string[];
  tier: string[];
  language: string[];
}

/** The values present, for the filter menus. */
export function facetValues(users: readonly MergedUser[]): UserFacets {
  const delegation = new Set<string>();
  const tier = new Set<string>();
  const language = new Set<string>();
  for (const u of users) {
    if (u.delegationLevel) delegation.add(u.delegationLevel);
    if (u.primaryModelTier) tier.add(u.primaryModelTier);
    for (const l of u.languages) language.add(l);
  }
  const sorted = (s: Set<string>) => [...s].sort();
  return { delegation: sorted(delegation), tier: sorted(tier), language: sorted(language) };
}
