/**
 * The organization's team mapping, read from the file it gives us (CSV or JSON): who is in which
 * team, and who manages each team. A bad file is refused whole, with every problem named by its
 * line, in words a manager understands; the caller keeps the mapping in force.
 *
 * CSV: a header row, then one row per user. Columns (any order, names case-insensitive):
 *   email     the user's email (ASCII letters matched in any case; other characters as they are)
 *   user_id   the service's user id (matched first, exactly)
 *   team      the team path, parts separated by "/": Engineering/Platform/Infra (required)
 *   manager   optional: the emails of that team's managers, separated by ";"
 *   repos     optional: the repositories the team owns, separated by ";": each a URL in any spelling
 *             (https://github.com/acme/api, git@github.com:acme/api.git) or host/owner/name, where a *
 *             stands for any part of one path segment (github.com/acme/platform-*)
 *   since     optional: the day the user was given the agent, a UTC day like 2026-03-02 (lib/funnel.ts: their
 *             access day; without it, the first day they were named or seen)
 * The header has email or user_id or both; each row fills at least one of them.
 *
 * JSON: one array of entries with the same keys, one entry per user:
 *   [{ "email": "ann@acme.com", "team": "Engineering/Platform", "manager": ["bo@acme.com"] },
 *    { "user_id": "usr_42", "team": "Data" }]
 * where "manager" is a list of emails or one text with ";" between emails, and "repos" likewise; "since" is text.
 *
 * A team's managers are every email listed in its rows (rows of one team may repeat them or leave
 * them out). A row with a team and managers but no email or user_id only names that team's managers
 * (for a team whose people all sit in its sub-teams), or its repositories. A repository (or
 * pattern) claimed by two teams is refused, naming both lines; of two patterns that match one
 * repository, the more specific one's team owns it (lib/repos.ts). A user listed twice in the same team is taken
 * once; in two teams, the file is refused. A file that names no user is refused: it is far more
 * likely a truncated export than an organization without people, and taking it would put everyone
 * in Unassigned. A team path has at most 20 levels and a team's name at most 100 characters, an email
 * or a user_id at most 320; none holds a control character (a line break, a NUL).
 */
import { isDay, type Day } from '../../lib/dates';
import { formatExact } from '../../lib/format';
import { matchesRepo, repoKey, repoPattern, specificity } from '../../lib/repos';
import { SEPARATOR, UNASSIGNED, ancestors, withAncestors } from './tree';
import { canonicalEmail } from '../core/text';
import { quote, readCsv, readJson, type RawRow, type RowSink, type Where } from './mapping-files';

export { MAX_ROWS } from './mapping-files';

export type MappingFormat = 'csv' | 'json';

export interface MemberKey {
  /** As `canonicalEmail` gives it (trimmed, ASCII letters lowercased), as sign-in compares it. */
  email?: string;
  userId?: string;
}

export interface Member {
  key: MemberKey;
  /** The team path, parts trimmed: `Engineering/Platform/Infra`. */
  team: string;
  /** The file's line of the row (CSV, header = line 1) or where the entry starts (JSON). */
  line: number;
  /** JSON only: the entry's position in the array, from 1. */
  entry?: number;
  /** The day the user was given the agent (`since`), when the file gives it. */
  since?: Day;
}

/** A repository or pattern a team owns, as its key (lib/repos.ts: `github.com/acme/*`). */
export interface RepoClaim {
  pattern: string;
  team: string;
  line: number;
}

export interface Mapping {
  /** One per user, in the file's order. */
  members: Member[];
  /** The repositories the teams own, in the file's order; empty when the file names none. */
  repos: RepoClaim[];
  /** Team path → its managers' emails (as `canonicalEmail` gives them); only teams with managers listed. */
  managers: Map<string, Set<string>>;
  /** Every team named and every team above them, in tree order. */
  teams: string[];
}

export interface MappingError {
  /** The file's line, from 1 (CSV: the header is line 1); null for the file as a whole. */
  line: number | null;
  /** JSON only: the entry's position in the array, from 1. */
  entry?: number;
  /** The whole sentence, place first: `line 7: "bob@acme" is not a valid email`. */
  message: string;
}

export type MappingResult = { ok: true; mapping: Mapping } | { ok: false; errors: MappingError[] };

export const MAX_BYTES = 20 * 1024 * 1024;
/** Problems listed at most; the rest are counted in one last line. */
export const MAX_ERRORS = 100;
/** Levels of a team path at most, characters of a team name, of an email or a user_id. */
export const MAX_DEPTH = 20;
export const MAX_NAME = 100;
export const MAX_ID = 320;

/** Pragmatic, not RFC 5322: one "@", no spaces or separators, a dot in the domain, no empty labels. */
const EMAIL = /^[^\s@;,"'<>()[\]\\]+@[^\s@;,"'<>()[\]\\.]+(\.[^\s@;,"'<>()[\]\\.]+)+$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export function parseMapping(text: string, format: MappingFormat): MappingResult {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_BYTES) {
    const mb = (bytes / (1024 * 1024)).toFixed(1);
    return refuse(`the file is ${mb} MB; the limit is ${MAX_BYTES / (1024 * 1024)} MB`);
  }
  const b = new Builder();
  const refused = (format === 'csv' ? readCsv : readJson)(text, b);
  return refused ? refuse(refused.message, refused.line) : b.finish();
}

function refuse(message: string, line: number | null = null): MappingResult {
  return { ok: false, errors: [{ line, message: line === null ? message : `line ${line}: ${message}` }] };
}

const NO_USERS =
  'the file names no users: a mapping needs at least one (to stop showing teams, remove the file instead)';

const place = (w: Where) => (w.entry === undefined ? `line ${w.line}` : `entry ${w.entry} (line ${w.line})`);

/** Checks rows one by one and builds the mapping; shared by both formats. */
class Builder implements RowSink {
  private readonly errors: MappingError[] = [];
  private more = 0;
  private readonly members: Member[] = [];
  private readonly byEmail = new Map<string, Member>();
  private readonly byId = new Map<string, Member>();
  /** Lowercased path → the first spelling seen, so "engineering" and "Engineering" are not two teams. */
  private readonly spelling = new Map<string, { path: string; where: Where }>();
  private readonly managers = new Map<string, Set<string>>();
  /** Every team a row names, members or not. */
  private readonly named = new Set<string>();
  /** Each repository or pattern claimed, by its key: the first claim. */
  private readonly repos = new Map<string, RepoClaim & { where: Where }>();

  fail(where: Where | null, problem: string): void {
    if (this.errors.length >= MAX_ERRORS) {
      this.more++;
      return;
    }
    this.errors.push({
      line: where?.line ?? null,
      ...(where?.entry !== undefined ? { entry: where.entry } : {}),
      message: where ? `${place(where)}: ${problem}` : problem,
    });
  }

  add(where: Where, row: RawRow): void {
    const problems: string[] = [];
    let email: string | undefined;
    if (row.email) {
      email = canonicalEmail(row.email);
      const bad = textProblem('email', row.email);
      if (bad) problems.push(bad);
      else if (!EMAIL.test(email)) problems.push(`${quote(row.email)} is not a valid email`);
    }
    const userId = row.userId || undefined;
    const badId = userId === undefined ? undefined : textProblem('user_id', userId);
    if (badId) problems.push(badId);
    // A row with a team and managers or repositories but no user only names the team's managers or repositories.
    if (!email && !userId && row.managers.length === 0 && row.repos.length === 0) problems.push('no email or user_id');
    const team = this.team(where, row.team ?? '', problems);
    const managers: string[] = [];
    for (const m of row.managers) {
      const e = canonicalEmail(m);
      const bad = textProblem('manager', m);
      if (bad) problems.push(bad);
      else if (EMAIL.test(e)) managers.push(e);
      else {
        const hint = /[,\s]/.test(m) ? ' (separate several managers with ";")' : '';
        problems.push(`manager ${quote(m)} is not a valid email${hint}`);
      }
    }
    const since = row.since;
    if (since !== undefined) {
      if (!isDay(since)) problems.push(`since ${quote(since)} is not a day like 2026-03-02`);
      else if (!email && !userId) problems.push('since is a user’s start day: give the row an email or user_id');
    }
    const repos: string[] = [];
    for (const r of row.repos) {
      const p =
        r.length > MAX_ID
          ? { problem: `is ${formatExact(r.length)} characters long; the limit is ${MAX_ID}` }
          : repoPattern(r);
      if ('problem' in p) problems.push(`repository ${quote(r)} ${p.problem}`);
      else repos.push(p.key);
    }
    if (problems.length > 0 || team === null) {
      for (const p of problems) this.fail(where, p);
      return;
    }
    for (const pattern of repos) {
      const first = this.repos.get(pattern);
      if (first && first.team !== team)
        return this.fail(
          where,
          `repository ${quote(pattern)} is already owned by ${first.team} (${placeRef(first.where)})`,
        );
      if (!first) this.repos.set(pattern, { pattern, team, line: where.line, where });
    }

    // A user in two teams is refused, naming the row that came first.
    const byEmail = email === undefined ? undefined : this.byEmail.get(email);
    const byId = userId === undefined ? undefined : this.byId.get(userId);
    if (byEmail && byEmail.team !== team) return this.fail(where, `${email} is already in ${inTeam(byEmail)}`);
    if (byId && byId.team !== team) return this.fail(where, `user_id ${userId} is already in ${inTeam(byId)}`);
    this.named.add(team);
    if (managers.length > 0) {
      const set = this.managers.get(team) ?? new Set<string>();
      for (const m of managers) set.add(m);
      this.managers.set(team, set);
    }
    const again = byEmail ?? byId;
    if (again?.since !== undefined && since !== undefined && again.since !== since)
      return this.fail(where, `since ${since} differs from ${placeRef(again)}’s ${again.since}`);
    // Listed again in the same team: taken once (a row adding a user_id to an email is kept).
    if ((email === undefined || byEmail) && (userId === undefined || byId)) {
      if (again && since !== undefined) again.since = since;
      return;
    }
    const key: MemberKey = {};
    if (email !== undefined) key.email = email;
    if (userId !== undefined) key.userId = userId;
    const member: Member = { key, team, line: where.line };
    if (where.entry !== undefined) member.entry = where.entry;
    if (since !== undefined) member.since = since;
    this.members.push(member);
    if (email !== undefined && !byEmail) this.byEmail.set(email, member);
    if (userId !== undefined && !byId) this.byId.set(userId, member);
  }

  /** Each team text once: its path, or the problem with it (the same every time it comes back). */
  private readonly teamCache = new Map<string, { path: string } | { problem: string }>();

  private team(where: Where, raw: string, problems: string[]): string | null {
    let t = this.teamCache.get(raw);
    if (!t) {
      t = teamPath(raw);
      const found: string[] = [];
      if ('path' in t) this.checkSpelling(where, t.path, found);
      if (found.length > 0) t = { problem: found[0]! };
      this.teamCache.set(raw, t);
    }
    if ('problem' in t) {
      problems.push(t.problem);
      return null;
    }
    return t.path;
  }

  /** One spelling per team: "engineering/platform" after "Engineering/Platform" is refused. */
  private checkSpelling(where: Where, team: string, problems: string[]): void {
    for (const path of ancestors(team)) {
      const low = path.toLowerCase();
      const first = this.spelling.get(low);
      if (!first) this.spelling.set(low, { path, where });
      else if (first.path !== path) {
        problems.push(
          `team ${quote(path)} is written ${quote(first.path)} on ${placeRef(first.where)}; write each team the same way`,
        );
        return;
      }
    }
  }

  finish(): MappingResult {
    if (this.errors.length === 0 && this.members.length === 0) this.fail(null, NO_USERS);
    if (this.errors.length > 0) {
      const errors = [...this.errors];
      if (this.more > 0) errors.push({ line: null, message: `and ${formatExact(this.more)} more problems` });
      return { ok: false, errors };
    }
    return {
      ok: true,
      mapping: {
        members: this.members,
        repos: [...this.repos.values()].map(({ pattern, team, line }) => ({ pattern, team, line })),
        managers: this.managers,
        teams: withAncestors(this.named),
      },
    };
  }
}

const inTeam = (m: Member) =>
  `${m.team} (${m.entry === undefined ? `line ${m.line}` : `entry ${m.entry}, line ${m.line}`})`;
const placeRef = (w: Where) => (w.entry === undefined ? `line ${w.line}` : `entry ${w.entry}`);

const CONTROLLED = 'contains a line break or a control character';

/** What is wrong with an email or a user_id as text (a control character, its length), if anything. */
function textProblem(what: string, v: string): string | undefined {
  if (CONTROL.test(v)) return `${what} ${quote(v)} ${CONTROLLED}`;
  if (v.length > MAX_ID)
    return `${what} ${quote(v)} is ${formatExact(v.length)} characters long; the limit is ${MAX_ID}`;
  return undefined;
}

/** The team path with its parts trimmed, or the problem with it. */
function teamPath(raw: string): { path: string } | { problem: string } {
  const trimmed = raw.trim();
  if (trimmed === '') return { problem: 'empty team name' };
  if (CONTROL.test(trimmed)) return { problem: `team ${quote(trimmed)} ${CONTROLLED}` };
  const parts = trimmed.split(SEPARATOR).map((p) => p.trim());
  if (parts.some((p) => p === '')) return { problem: `team ${quote(trimmed)} has an empty part` };
  if (parts.length > MAX_DEPTH)
    return { problem: `team ${quote(trimmed)} has ${formatExact(parts.length)} levels; the limit is ${MAX_DEPTH}` };
  const long = parts.find((p) => p.length > MAX_NAME);
  if (long !== undefined)
    return {
      problem: `team name ${quote(long)} is ${formatExact(long.length)} characters long; the limit is ${MAX_NAME}`,
    };
  if (parts[0]!.toLowerCase() === UNASSIGNED.toLowerCase())
    return {
      problem: `${quote(parts[0]!)} is kept for the users the mapping does not name; choose another team name`,
    };
  return { path: parts.join(SEPARATOR) };
}

/** The repository that no team of the mapping owns is listed under this name, never dropped. */
export { UNOWNED } from '../../api/readiness';

/**
 * Which team owns a repository (its URL in any spelling): the claim of an exact repository first, else
 * the most specific pattern's (the first in the file among equals); null when no team owns it (Unowned).
 */
export function repoOwner(mapping: Pick<Mapping, 'repos'> | null): (url: string) => string | null {
  const claims = [...(mapping?.repos ?? [])].sort((a, b) => specificity(b.pattern) - specificity(a.pattern));
  const exact = new Map(claims.filter((c) => !c.pattern.includes('*')).map((c) => [c.pattern, c.team]));
  const patterns = claims.filter((c) => c.pattern.includes('*'));
  return (url) => {
    const key = repoKey(url);
    return exact.get(key) ?? patterns.find((c) => matchesRepo(c.pattern, key))?.team ?? null;
  };
}
