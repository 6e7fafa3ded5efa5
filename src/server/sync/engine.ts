/**
 * Fills the store from the service. Day-based answers: one request per span of
 * missing days and endpoint. `/users`: walked per span, each page written with
 * the cursor after it, so a crash resumes where it stopped. Readiness: new
 * reports after the newest one stored. Fills of one kind are serialised behind
 * a lock and recompute what is missing once they hold it, so concurrent
 * requests for overlapping ranges share one fill, and the service's refusals:
 * a fill the service refused (429, 5xx) while another waited is the waiter's
 * answer too. A broken answer (a 200 that breaks the schema, a body cut off) is
 * about its own days: a waiter asking for others fills them.
 */
import type * as z from 'zod/mini';
import { GROUP_BY, PATHS } from '../../api/paths';
import { ANALYTICS_SCHEMAS, readinessResponseSchema, usersResponseSchema } from '../../api/schemas';
import { addDays, eachDay, type Day, type DayRange } from '../../lib/dates';
import { faultKind } from '../core/errors';
import { errorText, silentLogger, type Logger } from '../core/log';
import type { HttpResponse } from '../core/response';
import type { StoreDb } from '../store/db';
import * as q from '../store/queries';
import { isFinal, spansToFetch } from './spans';

/** An upstream answer; `incomplete` when its body did not arrive whole (it is relayed, never stored). */
export type Fetched = HttpResponse & { incomplete?: boolean };
/** What the sync needs of the upstream: one GET under the server's retry policy and key. */
export type Fetcher = (path: string, search: string) => Promise<Fetched>;

/** The day-based endpoints and the groupings the pages use ('' = not grouped). */
export const DAY_ENDPOINTS = Object.fromEntries(
  Object.entries(ANALYTICS_SCHEMAS).map(([e, groups]) => [e, Object.keys(groups)]),
) as { [E in keyof typeof ANALYTICS_SCHEMAS]: (keyof (typeof ANALYTICS_SCHEMAS)[E] & string)[] };
export type DayEndpoint = keyof typeof ANALYTICS_SCHEMAS;

const schemaOf = (endpoint: DayEndpoint, grouping: string): z.ZodMiniType =>
  (ANALYTICS_SCHEMAS[endpoint] as Record<string, z.ZodMiniType>)[grouping]!;

export interface SyncOptions {
  /** The latest queryable day (yesterday, UTC; the demo's pinned clock in demo mode). */
  latestDay: () => Day;
  refreshDays: number;
  /** Longest span asked for in one request (bounds the size of one answer). */
  maxSpanDays: number;
  /** Users per `/users` page. */
  usersPageSize: number;
  /** Reports per readiness page. */
  reportsPageSize: number;
  /** About the most characters one answer should bring: bigger days are asked for fewer at a time (default 4 million). */
  answerChars?: number;
  /** Where a fill's unexpected failure is written in full (`lastError` says it in a plain sentence). */
  logger?: Logger;
}

/** An upstream answer that could not be stored: it goes back to whoever asked, as the service gave it. */
export class FillFailed extends Error {
  constructor(readonly answer: Fetched) {
    super(`The service answered ${answer.status}`);
  }
  /**
   * The service refused (429, 5xx): asking again, for any days, costs more calls of a service that refuses.
   * Otherwise the answer broke the contract (a 200 that breaks the schema or is cut off, another status):
   * it is about the days it was asked for.
   */
  get refusal(): boolean {
    return this.answer.status === 429 || this.answer.status >= 500;
  }
}

/** The service's own `detail` of an error answer, on one line and short; undefined when it gave none. */
function detailOf(answer: HttpResponse): string | undefined {
  try {
    const detail = (JSON.parse(answer.body) as { detail?: unknown } | null)?.detail;
    if (typeof detail !== 'string') return undefined;
    // eslint-disable-next-line no-control-regex
    const line = detail.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
    return line.length > 200 ? `${line.slice(0, 199)}…` : line || undefined;
  } catch {
    return undefined;
  }
}

/**
 * What `GET /api/sync` shows every signed-in reader of a fill's failure: the service's answer by its status
 * and its own detail, what was wrong with an answer that could not be stored, or an internal failure by its
 * kind only (its text, which may name the store's host and port, is for the log).
 */
function failureSentence(e: unknown): string {
  if (e instanceof FillFailed) {
    const a = e.answer;
    if (a.status !== 200) {
      const detail = detailOf(a);
      return `the service answered ${a.status}${detail ? `: ${detail}` : ''}`;
    }
    if (a.incomplete) return 'the service’s answer was cut off, so it was not stored';
    try {
      JSON.parse(a.body);
    } catch {
      return 'the service’s answer was not valid JSON, so it was not stored';
    }
    return 'the service’s answer was not of the documented shape, so it was not stored';
  }
  const kind = faultKind(e);
  return kind === 'store-unavailable'
    ? 'the store cannot be reached'
    : kind === 'disk-full'
      ? 'the store’s disk is full'
      : 'an internal error (see the server log)';
}

interface Parsed {
  data: Record<string, unknown>[];
  meta: { org_id: string; has_more?: boolean; next_cursor?: string };
}

/** The answer's JSON when it is a complete success of the expected shape; otherwise the fill fails with it. */
function accept(r: Fetched, schema: z.ZodMiniType): unknown {
  if (r.status !== 200 || r.incomplete) throw new FillFailed(r);
  let body: unknown;
  try {
    body = JSON.parse(r.body);
  } catch {
    throw new FillFailed(r);
  }
  // The stored body is the raw JSON (every field the service sent); the schema only vouches for it.
  if (!schema.safeParse(body).success) throw new FillFailed(r);
  return body;
}

/** A lock per key: the next holder starts when the previous one is done, whatever its outcome. */
function keyedLock() {
  const tails = new Map<string, Promise<unknown>>();
  return async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const prev = tails.get(key) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}

export interface SyncActivity {
  /** What is being filled right now, e.g. `users 2026-05-01…2026-05-31 (page 12)`. */
  running: Map<number, string>;
  upstreamRequests: number;
  /** The same, per documented path. */
  upstreamByPath: Record<string, number>;
  /** Bumped after every write of this server to the store: answers read before it are stale. */
  generation: number;
  /** Walks taken up again from the cursor an earlier (crashed, failed) walk saved. */
  resumedWalks: number;
  lastError: { at: string; message: string } | undefined;
}

export function createSyncEngine(store: StoreDb, fetcher: Fetcher, opts: SyncOptions) {
  const { db } = store;
  const logger = opts.logger ?? silentLogger;
  const local = keyedLock();
  /** The service's last refusal (429, 5xx) of a fill of each kind, and when (by `clock`). */
  const refused = new Map<string, { at: number; error: FillFailed }>();
  let clock = 0;
  /**
   * One fill of a kind at a time, in this process and across the replicas sharing the store. `fn` is told
   * the service's refusal (429, 5xx) of a fill it waited for: a page asking for two ranges of `/tokens` at
   * once is refused once, not once per range (a persistent 503 costs three upstream calls, not six). A
   * broken answer is not told: it is about the days it was asked for, and the waiter asks for its own.
   */
  const lock = <T>(key: string, fn: (refusedMeanwhile: FillFailed | undefined) => Promise<T>) => {
    const asked = ++clock;
    return local(key, () =>
      store.exclusive(`sync:${key}`, async () => {
        const last = refused.get(key);
        try {
          return await fn(last && last.at > asked ? last.error : undefined);
        } catch (e) {
          if (e instanceof FillFailed && e.refusal) refused.set(key, { at: ++clock, error: e });
          throw e;
        }
      }),
    );
  };
  const activity: SyncActivity = {
    running: new Map(),
    upstreamRequests: 0,
    upstreamByPath: {},
    generation: 0,
    resumedWalks: 0,
    lastError: undefined,
  };
  let nextTask = 0;

  async function tracked<T>(label: string, fn: () => Promise<T>): Promise<T> {
    const id = nextTask++;
    activity.running.set(id, label);
    try {
      return await fn();
    } catch (e) {
      // The whole text where it happens (not every caller logs it: a page view's background fill does not).
      if (!(e instanceof FillFailed)) {
        logger.error('sync fill failed', { what: label, kind: faultKind(e), error: errorText(e) });
      }
      activity.lastError = { at: new Date().toISOString(), message: `${label}: ${failureSentence(e)}` };
      throw e;
    } finally {
      activity.running.delete(id);
    }
  }

  const get = (path: string, params: Record<string, string | undefined>) => {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') search.set(k, v);
    activity.upstreamRequests++;
    activity.upstreamByPath[path] = (activity.upstreamByPath[path] ?? 0) + 1;
    return fetcher(path, `?${search}`);
  };

  const storedMap = (days: q.StoredDay[]) => new Map(days.map((d) => [d.day, d.final]));
  const finalOf = (day: Day) => isFinal(day, opts.latestDay(), opts.refreshDays);

  /** Characters per day of each endpoint's (and grouping's) latest answer. */
  const charsPerDay = new Map<string, number>();
  /**
   * Days per request for an endpoint: as many as the configured span allows, unless its answers are big.
   * A day of `/tokens` carries every active user (1.7 MB at 50,000 people), and an answer parsed takes
   * several times its size in memory: days are asked for a few at a time then (once an answer has said
   * how big a day is).
   */
  function daysPerRequest(endpoint: DayEndpoint, grouping: string): number {
    const chars = charsPerDay.get(`${endpoint}:${grouping}`);
    if (chars === undefined) return opts.maxSpanDays;
    const most = opts.answerChars ?? ANSWER_CHARS;
    return Math.max(1, Math.min(opts.maxSpanDays, Math.floor(most / Math.max(1, chars))));
  }

  /** One span of one endpoint: one request, split by day, written in one transaction. */
  async function fetchSpan(endpoint: DayEndpoint, grouping: string, span: DayRange) {
    const schema = schemaOf(endpoint, grouping);
    const spanDays = eachDay(span.start, span.end);
    // Final as of the request: an answer that arrives after midnight UTC was asked before the day closed.
    const final = new Set(spanDays.filter(finalOf));
    const r = await get(PATHS[endpoint], { startDate: span.start, endDate: span.end, group_by: grouping });
    if (r.status === 200) charsPerDay.set(`${endpoint}:${grouping}`, r.body.length / spanDays.length);
    const body = accept(r, schema) as Parsed;
    const byDay = new Map<string, unknown[]>();
    for (const row of body.data) {
      const day = String(row.date);
      const list = byDay.get(day);
      if (list) list.push(row);
      else byDay.set(day, [row]);
    }
    const days = spanDays.map((day) => ({
      day,
      body: JSON.stringify(byDay.get(day) ?? []),
      final: final.has(day),
    }));
    await q.writeDays(db, endpoint, grouping, days, body.meta.org_id);
    activity.generation++;
  }

  /** The spans of the range to ask the service for (with `refresh`, also the days stored before they were final). */
  async function spansOf(endpoint: DayEndpoint, grouping: string, range: DayRange, refresh: boolean) {
    const stored = await q.storedDays(db, endpoint, grouping, range.start, range.end);
    return spansToFetch(range, storedMap(stored), { refresh, maxDays: opts.maxSpanDays });
  }

  /** Whether every day of the range is stored for one endpoint and grouping (asks the service nothing). */
  const daysStored = async (endpoint: DayEndpoint, grouping: string, range: DayRange) =>
    (await spansOf(endpoint, grouping, range, false)).length === 0;

  /**
   * Makes every day of the range stored for one endpoint and grouping. With
   * `refresh`, days stored before they were final are asked for again (a sync);
   * without, a stored day is served as it is (a page view).
   */
  async function fillDays(endpoint: DayEndpoint, grouping: string, range: DayRange, refresh: boolean): Promise<void> {
    const missing = () => spansOf(endpoint, grouping, range, refresh);
    // A range already stored is the common case: it takes no lock, so page views never queue behind a sync.
    if ((await missing()).length === 0) return;
    return lock(`${endpoint}:${grouping}`, async (refusedMeanwhile) => {
      const spans = await missing();
      if (spans.length > 0 && refusedMeanwhile) throw refusedMeanwhile;
      for (const span of spans) {
        // In parts when the endpoint's days are big (known once its first answer has come).
        for (let start = span.start; start <= span.end;) {
          const last = addDays(start, daysPerRequest(endpoint, grouping) - 1);
          const part = { start, end: last < span.end ? last : span.end };
          await tracked(`${endpoint}${grouping ? ` by ${grouping}` : ''} ${part.start}…${part.end}`, () =>
            fetchSpan(endpoint, grouping, part),
          );
          start = addDays(part.end, 1);
        }
      }
    });
  }

  /** One span's `/users` walk, resumed from its saved cursor when an earlier one stopped midway. */
  async function walkUsers(span: DayRange) {
    const days = eachDay(span.start, span.end).map((day) => ({ day, final: finalOf(day) }));
    let walk = await q.unfinishedWalk(db, span.start, span.end);
    if (walk && walk.pages > 0) activity.resumedWalks++;
    else {
      await q.startUsersWalk(db, span.start, span.end);
      walk = { cursor: null, pages: 0 };
    }
    let { cursor, pages } = walk;
    const label = `users ${span.start}…${span.end}`;
    await tracked(label, async () => {
      for (;;) {
        activity.running.set(-1, `${label} (page ${pages + 1})`);
        const r = await get(PATHS.users, {
          startDate: span.start,
          endDate: span.end,
          limit: String(opts.usersPageSize),
          cursor: cursor ?? undefined,
        });
        const body = accept(r, usersResponseSchema) as Parsed;
        const rows = body.data.map((row) => ({
          day: String(row.date),
          user_id: String(row.user_id),
          user_email: typeof row.user_email === 'string' ? row.user_email : null,
          row: JSON.stringify(row),
        }));
        const next = body.meta.has_more && body.meta.next_cursor ? body.meta.next_cursor : null;
        pages++;
        await q.writeUsersPage(db, { ...span, days }, rows, next, pages, body.meta.org_id);
        activity.generation++;
        if (next === null) return;
        cursor = next;
      }
    }).finally(() => activity.running.delete(-1));
  }

  async function fillUsers(range: DayRange, refresh: boolean): Promise<void> {
    const missing = async () =>
      spansToFetch(range, storedMap(await q.storedUserDays(db, range.start, range.end)), {
        refresh,
        maxDays: opts.maxSpanDays,
      });
    if ((await missing()).length === 0) return;
    return lock('users', async (refusedMeanwhile) => {
      const spans = await missing();
      if (spans.length > 0 && refusedMeanwhile) throw refusedMeanwhile;
      for (const span of spans) await walkUsers(span);
    });
  }

  let readinessSyncedAt = 0;

  /**
   * Reports newer than the newest one stored, page by page. With `maxAgeMs`, only
   * when the last look is older than that: reports arrive during the day, but a
   * page walking the stored reports must not ask the service once per page.
   */
  function syncReadiness(maxAgeMs = 0): Promise<void> {
    return lock('readiness', async () => {
      if (maxAgeMs > 0 && Date.now() - readinessSyncedAt < maxAgeMs) return;
      await tracked('readiness reports', async () => {
        let after = await q.newestReportId(db);
        for (;;) {
          const r = await get(PATHS.readiness, { limit: String(opts.reportsPageSize), startAfter: after });
          const body = accept(r, readinessResponseSchema) as { reports: Record<string, unknown>[] };
          await q.writeReports(
            db,
            body.reports.map((rep) => ({
              report_id: String(rep.reportId),
              created_at: String(rep.createdAt ?? ''),
              body: JSON.stringify(rep),
            })),
          );
          if (body.reports.length > 0) activity.generation++;
          if (body.reports.length < opts.reportsPageSize) break;
          after = String(body.reports[body.reports.length - 1]!.reportId);
        }
        readinessSyncedAt = Date.now();
      });
    });
  }

  return { fillDays, daysStored, fillUsers, syncReadiness, activity };
}

export type SyncEngine = ReturnType<typeof createSyncEngine>;

/** About the most characters one answer should bring (a longer span is asked for in parts). */
const ANSWER_CHARS = 4_000_000;

/** The grouping a request names, when it is one the store keeps for that endpoint. */
export function groupingOf(endpoint: DayEndpoint, groupBy: string | null): string | undefined {
  if (groupBy === null) return '';
  return GROUP_BY[PATHS[endpoint]] === groupBy ? groupBy : undefined;
}
