/**
 * What a users table is asked and what it counts (analytics/users.ts makes the tables), a row of it as the answers give
 * it, and the known people not active in a range, which the highlights read without a table.
 */
import { HISTORY_START, weekStart, type Day, type DayRange } from '../../lib/dates';
import { SUMS, type MergedUser, type UserColumnId, type UserFilter } from '../../lib/user-merge';
import type { PriceList } from '../spend/prices';
import type { Mapping } from '../teams/mapping';
import type { Analytics } from './engine';
import { notInGrace } from './grace';
import { wholeWeeks } from './schema';
import { membershipOf } from './teams';
import { IDLE, KNOWN } from './users-sql';

/** A person known by a range's end: their latest email given and latest day of activity up to it (none: credits only). */
export interface KnownPerson {
  userId: string;
  email: string | null;
  lastActive: string | null;
}

/**
 * The known people with no day of activity in the range: those the users page lists as "Not active", so without the
 * new starters in grace on its end (judged with the mapping in force).
 */
export async function idleIn(a: Analytics, r: DayRange, mapping: Mapping | null): Promise<KnownPerson[]> {
  // Every stored day up to the range's end is in the copy.
  await a.catchUp({ start: HISTORY_START, end: r.end });
  const out = await notInGrace(a, r.end, mapping);
  const rows = await a.rows<{ user_id: string; last_active: string | null; email: string | null }>(
    `WITH idle AS (${IDLE}) SELECT p.user_id, k.last_active, k.email
     FROM (${KNOWN(`pid IN (SELECT pid FROM idle WHERE ${out.sql})`)}) k JOIN person p USING (pid)`,
    { start: r.start, end: r.end, week: weekStart(r.end), ...wholeWeeks(r), ...out.params },
    out.types,
  );
  return rows.map((k) => ({ userId: k.user_id, email: k.email, lastActive: k.last_active }));
}

/**
 * The teams of the people the mapping names whom the copy has never seen, a row each, without the new starters in
 * grace on `end`: the users page's "Never used" of a range to `end` counts them.
 */
export async function neverSeenOn(a: Analytics, end: Day, mapping: Mapping): Promise<string[]> {
  await a.catchUp({ start: HISTORY_START, end });
  await membershipOf(a).current(mapping);
  const out = await notInGrace(a, end, mapping);
  const rows = await a.rows<{ team: string }>(
    `SELECT team FROM member WHERE pid IN (SELECT pid FROM unseen_member) AND ${out.sql}`,
    out.params,
    out.types,
  );
  return rows.map((r) => r.team);
}

/** What a users table is asked: its order, its filters (`who`: active people, the others, or both) and its teams. */
export interface UsersQuestion {
  sort: UserColumnId;
  dir: 'asc' | 'desc';
  filter: UserFilter;
  /** The teams asked for (their sub-teams with them); none: everyone. */
  teams: readonly string[];
  /** The mapping in force: each row's team is read from `member` when asked (none: no team column). */
  mapping: Mapping | null;
  /** Privacy mode: each person as the reader sees them, the rows' teams and their order by it (none: as they are). */
  view?: PersonView;
}

/**
 * How a reader in privacy mode is shown each person: the team shown for theirs (null: none) and their name. The
 * rows carry that team, and are ordered by what the reader sees (the team shown, ties by the name), never by what
 * they do not (the real team, the user id). `key` changes whenever a team shown or a name would.
 */
export interface PersonView {
  key: string;
  team(team: string): string | null;
  name(userId: string): string;
}

/**
 * What a person is named by in privacy mode: their user id, else (a person the mapping names by email alone, never
 * seen: no id yet) their email.
 */
export const nameKey = (userId: string, email: string | null): string =>
  userId !== '' ? userId : `email:${email ?? ''}`;

/** The seats' counts of a users table's teams: the people the mapping names, by how they used the agent. */
export interface SeatCounts {
  named: number;
  active: number;
  idle7: number;
  idle30: number;
  never: number;
}

/**
 * The new starters of a users table's teams in their days of grace by the range's end (lib/funnel.ts `inGrace`), whom
 * the lists of people not using the agent and their counts leave out: how many each leaves out.
 */
export interface GraceCounts {
  /** The days of grace (ONBOARDING_GRACE_DAYS); none without a figures runner to judge grace. */
  days: number;
  /** Known people not active in the range. */
  inactive: number;
  /** With a mapping, of the people it names: those the seats' idle7, idle30 and never leave out. */
  seats: { idle7: number; idle30: number; never: number } | null;
}

/** What a range's table is made with: a price list for spend (none: no spend column). */
export interface UsersTableSpec {
  prices: PriceList | null;
}

/** A row of a range's users table as the engine gives it. */
export interface Row extends Record<string, unknown> {
  /** '' for a person the mapping names by email alone, never seen. */
  user_id: string;
  email: string | null;
  active_days: number;
  first_day: string | null;
  last_day: string | null;
  autonomy_ratio: number;
  langs: string[];
  model: string;
  tier: string;
  level: string;
  last_active_day: string | null;
  spend: number | null;
  team: string | null;
  /** Privacy mode: the team shown (a `PersonView`'s). */
  seen_team?: string | null;
}

/** A row of the table as the users answers give it: spend with a price list, the team with a mapping (`seen`: as shown). */
export function userOf(row: Row, spec: UsersTableSpec, teams: boolean, seen: boolean): MergedUser {
  const u = {
    userId: row.user_id,
    email: row.email,
    activeDays: row.active_days,
    firstDay: row.first_day,
    lastDay: row.last_day,
  } as MergedUser;
  for (const [k] of SUMS) u[k] = Number(row[k] ?? 0);
  u.autonomyRatio = row.autonomy_ratio;
  u.primaryModel = row.model;
  u.primaryModelTier = row.tier;
  u.delegationLevel = row.level;
  // In DuckDB's order (by bytes), the merge's (by code point).
  u.languages = row.langs;
  if (spec.prices) u.spend = row.spend ?? 0;
  if (teams) u.team = seen ? (row.seen_team ?? undefined) : row.team!;
  u.lastActiveDay = row.last_active_day;
  return u;
}
