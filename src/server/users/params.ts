/**
 * The query parameters of the users endpoints as zod/mini schemas. A bad
 * parameter is answered 400 with a detail that names it and says what is
 * accepted; an unknown or repeated parameter too (a typo must not silently
 * widen the table).
 */
import * as z from 'zod/mini';
import { HISTORY_START, isDay, type Day, type DayRange } from '../../lib/dates';
import { USER_COLUMN_IDS, type UserColumnId, type UserFilter } from '../../lib/user-merge';
import { lastDays } from '../../lib/dates';
import { DEFAULT_DAYS } from '../../lib/url-state';
import type { SortDir } from './table';

/** Rows per page at most: the browser asks for a few hundred at a time. */
export const MAX_LIMIT = 1000;

const quote = (v: unknown) => JSON.stringify(String(v).slice(0, 40));

const day = (name: string) =>
  z.optional(
    z
      .string()
      .check(z.refine(isDay, { error: (iss) => `${name} must be a day (YYYY-MM-DD), got ${quote(iss.input)}.` })),
  );

const text = (name: string, max: number) =>
  z._default(
    z.optional(z.string().check(z.maxLength(max, { error: `${name} must be at most ${max} characters long.` }))),
    '',
  );

function whole(name: string, dflt: number, min: number, max: number) {
  const error = (iss: { input?: unknown }) =>
    `${name} must be a whole number from ${min} to ${max}, got ${quote(iss.input)}.`;
  return z._default(
    z.optional(
      z.pipe(
        z.string().check(
          z.regex(/^\d{1,9}$/, { error }),
          z.refine((v) => Number(v) >= min && Number(v) <= max, { error }),
        ),
        z.transform(Number),
      ),
    ),
    dflt,
  );
}

const COLUMNS = USER_COLUMN_IDS as [UserColumnId, ...UserColumnId[]];

const rangeShape = { start: day('start'), end: day('end') };

const filterShape = {
  ...rangeShape,
  sort: z._default(
    z.optional(
      z.enum(COLUMNS, {
        error: (iss) => `sort must be one of ${COLUMNS.join(', ')}, got ${quote(iss.input)}.`,
      }),
    ),
    'credits',
  ),
  dir: z._default(
    z.optional(z.enum(['asc', 'desc'], { error: (iss) => `dir must be asc or desc, got ${quote(iss.input)}.` })),
    'desc',
  ),
  q: text('q', 200),
  delegation: text('delegation', 100),
  tier: text('tier', 100),
  lang: text('lang', 100),
};

const tableSchema = z.strictObject({
  ...filterShape,
  offset: whole('offset', 0, 0, 100_000_000),
  limit: whole('limit', 100, 1, MAX_LIMIT),
});
const csvSchema = z.strictObject(filterShape);
const userSchema = z.strictObject(rangeShape);

export interface TableQuery {
  range: DayRange;
  sort: UserColumnId;
  dir: SortDir;
  filter: UserFilter;
  offset: number;
  limit: number;
  /** Only the people of these teams (a team includes its sub-teams); empty for everyone. */
  teams: string[];
}

/** What a request asked for, or the detail of a 400. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; detail: string };

function firstIssue(error: z.core.$ZodError, allowed: readonly string[]): string {
  const issue = error.issues[0];
  if (!issue) return 'The query parameters are not valid.';
  if (issue.code === 'unrecognized_keys') {
    const names = issue.keys.map((k) => quote(k)).join(', ');
    return `Unknown parameter${issue.keys.length > 1 ? 's' : ''} ${names}; this endpoint takes ${allowed.join(', ')}.`;
  }
  return issue.message;
}

/** The teams asked for: `team` may be given several times (the union of the teams). */
export function teamsOf(search: URLSearchParams): string[] {
  return [...new Set(search.getAll('team').map((t) => t.trim()))].filter((t) => t !== '');
}

/** Each parameter once (but `team`): a repeated one is refused rather than guessed at. */
function single(search: URLSearchParams): Parsed<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [k, v] of search) {
    if (k === 'team') continue;
    if (Object.hasOwn(out, k)) return { ok: false, detail: `The parameter ${quote(k)} is given more than once.` };
    out[k] = v;
  }
  return { ok: true, value: out };
}

/**
 * Both days or neither (the last 30 days); within the stored history, up to the latest day. `names`
 * are the parameters' names as the endpoint spells them.
 */
export function rangeOf(
  start: string | undefined,
  end: string | undefined,
  latest: Day,
  names: readonly [string, string] = ['start', 'end'],
): Parsed<DayRange> {
  const [s, e] = names;
  if (start === undefined && end === undefined) return { ok: true, value: lastDays(DEFAULT_DAYS, latest) };
  if (start === undefined || end === undefined) {
    return { ok: false, detail: `Give both ${s} and ${e} (YYYY-MM-DD), or neither for the last 30 days.` };
  }
  if (!isDay(start)) return { ok: false, detail: `${s} must be a day (YYYY-MM-DD), got ${quote(start)}.` };
  if (!isDay(end)) return { ok: false, detail: `${e} must be a day (YYYY-MM-DD), got ${quote(end)}.` };
  if (end < start) return { ok: false, detail: `${e} (${end}) is before ${s} (${start}).` };
  if (start < HISTORY_START)
    return { ok: false, detail: `${s} (${start}) is before the history starts (${HISTORY_START}).` };
  if (end > latest) return { ok: false, detail: `${e} (${end}) is after the latest day with data (${latest}).` };
  return { ok: true, value: { start, end } };
}

function parse<S extends z.ZodMiniObject>(schema: S, search: URLSearchParams, teams = true): Parsed<z.infer<S>> {
  const raw = single(search);
  if (!raw.ok) return raw;
  const r = schema.safeParse(raw.value);
  return r.success
    ? { ok: true, value: r.data }
    : { ok: false, detail: firstIssue(r.error, [...Object.keys(schema.def.shape), ...(teams ? ['team'] : [])]) };
}

const filterOf = (p: { q: string; delegation: string; tier: string; lang: string }): UserFilter => ({
  search: p.q,
  delegation: p.delegation,
  tier: p.tier,
  language: p.lang,
});

export function parseTableQuery(search: URLSearchParams, latest: Day): Parsed<TableQuery> {
  const p = parse(tableSchema, search);
  if (!p.ok) return p;
  const range = rangeOf(p.value.start, p.value.end, latest);
  if (!range.ok) return range;
  const { sort, dir, offset, limit } = p.value;
  const teams = teamsOf(search);
  return { ok: true, value: { range: range.value, sort, dir, filter: filterOf(p.value), offset, limit, teams } };
}

export function parseCsvQuery(search: URLSearchParams, latest: Day): Parsed<Omit<TableQuery, 'offset' | 'limit'>> {
  const p = parse(csvSchema, search);
  if (!p.ok) return p;
  const range = rangeOf(p.value.start, p.value.end, latest);
  if (!range.ok) return range;
  const { sort, dir } = p.value;
  return { ok: true, value: { range: range.value, sort, dir, filter: filterOf(p.value), teams: teamsOf(search) } };
}

export function parseUserQuery(search: URLSearchParams, latest: Day): Parsed<{ range: DayRange }> {
  if (search.has('team'))
    return { ok: false, detail: 'One user’s days take no team parameter; this endpoint takes start, end.' };
  const p = parse(userSchema, search, false);
  if (!p.ok) return p;
  const range = rangeOf(p.value.start, p.value.end, latest);
  return range.ok ? { ok: true, value: { range: range.value } } : range;
}
