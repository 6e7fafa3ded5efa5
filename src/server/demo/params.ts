/**
 * The endpoints' query parameters as zod/mini schemas. Each 400 carries the
 * service's own detail (the contract tests check the wording); when several
 * parameters are wrong, the service reports the first in a fixed order (the
 * dates, today's lag, group_by, then paging), so the checks run in stages in
 * that order and only the first issue is reported.
 */
import * as z from 'zod/mini';
import { ANALYTICS_PATHS, GROUP_BY } from '../../api/paths';
import { isDay, type Day } from '../../lib/dates';
import { HttpError } from '../core/errors';

const TODAY_DETAIL = "Cannot query today's date - analytics data has a 24-hour lag";

/** The start of what the caller sent, for quoting in a detail. */
const quote = (v: unknown, n: number) => String(v).slice(0, n);

function day(name: string) {
  const required = `${name} is required (YYYY-MM-DD, UTC).`;
  return z.string({ error: required }).check(
    z.minLength(1, required),
    z.refine(isDay, {
      error: (iss) => `${name} must be a valid date in YYYY-MM-DD format, got "${quote(iss.input, 40)}".`,
    }),
  );
}

const dates = z.object({ startDate: day('startDate'), endDate: day('endDate') }).check(
  z.refine((d) => d.endDate >= d.startDate, {
    error: (iss) => {
      const d = iss.input as { startDate: Day; endDate: Day };
      return `endDate (${d.endDate}) is before startDate (${d.startDate}).`;
    },
  }),
);

/** Each analytics endpoint accepts its one documented group_by value, or none at all. */
function groupBy(allowed: string | undefined): z.ZodMiniType<string | undefined> {
  if (!allowed) return z.undefined({ error: 'Invalid request parameters: this endpoint does not support group_by.' });
  return z.optional(
    z.literal(allowed, {
      error: (iss) =>
        `Invalid request parameters: group_by must be "${allowed}" for this endpoint, got "${quote(iss.input, 40)}".`,
    }),
  );
}
const GROUP_BY_SCHEMAS = new Map(ANALYTICS_PATHS.map((p) => [p, groupBy(GROUP_BY[p])]));

/** A whole number of at least 1 (and at most `max`), written in digits only. */
function limit(dflt: number, detail: (raw: string) => string, max = Infinity) {
  const error = (iss: { input?: unknown }) => detail(quote(iss.input, 20));
  const digits = z.string().check(
    z.regex(/^\d+$/, { error }),
    z.refine((v) => Number(v) >= 1 && Number(v) <= max, { error }),
  );
  return z._default(z.optional(z.pipe(digits, z.transform(Number))), dflt);
}

const usersQuery = z.object({
  limit: limit(20, (raw) => `limit must be an integer from 1 to 100, got "${raw}".`, 100),
  cursor: z.optional(z.string()),
});

/** A repository named by URL or slug, in any spelling the reports use: `acme/name`. */
const repoKey = (id: string) =>
  id
    .toLowerCase()
    .replace(/\.git$/, '')
    .replace(/^https?:\/\/[^/]+\//, '');

const readinessQuery = z.object({
  // Any positive limit is accepted; past a million the page is simply everything.
  limit: z.pipe(
    limit(50, (raw) => `limit must be a positive integer, got "${raw}".`),
    z.transform((n) => Math.min(n, 1_000_000)),
  ),
  repoId: z.optional(z.pipe(z.string(), z.transform(repoKey))),
  startAfter: z.optional(z.string()),
});

/** The parsed value, or a 400 with the first issue found. */
function parse<T>(schema: z.ZodMiniType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new HttpError(400, r.error.issues[0]!.message);
  return r.data;
}

/** The named parameters' first values, as URLSearchParams.get reads them; absent ones undefined. */
const read = (q: URLSearchParams, ...names: string[]) =>
  Object.fromEntries(names.map((n) => [n, q.get(n) ?? undefined]));

export function analyticsParams(path: string, q: URLSearchParams, today: Day) {
  const { startDate, endDate } = parse(dates, read(q, 'startDate', 'endDate'));
  // Not in the schema: it depends on the day the request is served.
  if (endDate >= today || startDate >= today) throw new HttpError(400, TODAY_DETAIL);
  const group = parse(GROUP_BY_SCHEMAS.get(path)!, q.get('group_by') ?? undefined);
  return { startDate, endDate, groupBy: group };
}

export const usersParams = (q: URLSearchParams) => parse(usersQuery, read(q, 'limit', 'cursor'));

export const readinessParams = (q: URLSearchParams) => parse(readinessQuery, read(q, 'limit', 'repoId', 'startAfter'));
