/**
 * The users endpoints of the dashboard's server, answered from the store so
 * that no browser walks `/users` (src/api/users.ts holds their shapes):
 *
 *   GET /api/users?start&end&sort&dir&q&delegation&tier&lang&offset&limit
 *       a page of the merged per-user table, sorted, filtered and searched here;
 *   GET /api/users.csv?start&end&sort&dir&q&delegation&tier&lang
 *       the whole filtered, sorted table as CSV, streamed;
 *   GET /api/users/<userId>?start&end
 *       that user's rows, by day, and their merge.
 *
 * A range whose days are not all stored yet is walked from the service: the
 * answer waits a moment for it, then says 202 with the progress (the table
 * as it was, when only its latest days are being walked again) and when to
 * ask again. Answers about final days carry an ETag and are revalidated.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { createGzip, gzip } from 'node:zlib';
import { userRowSchema } from '../../api/schemas';
import type { UserDaysAnswer, UsersTableAnswer } from '../../api/users';
import { toCsv } from '../../lib/csv';
import { lastDays, type Day, type DayRange } from '../../lib/dates';
import { DEFAULT_DAYS } from '../../lib/url-state';
import { mergeUserRows, usersCsvColumns, type MergedUser } from '../../lib/user-merge';
import { errorResponse, faultResponse } from '../core/errors';
import { silentLogger, type Logger } from '../core/log';
import type { HttpResponse } from '../core/response';
import type { StoreDb } from '../store/db';
import { knownUser } from '../store/queries';
import { userDayRows, type RangeVersion } from '../store/users-queries';
import type { SyncEngine } from '../sync/engine';
import { isFinal } from '../sync/spans';
import { FillError, createRangeFiller, type RangeState } from './fill';
import { parseCsvQuery, parseTableQuery, parseUserQuery, type Parsed } from './params';
import { createTableCache } from './table';

const gzipAsync = promisify(gzip);

/** Bumped when an answer's shape or meaning changes: an ETag of the old code must not match. */
const ANSWER_VERSION = 'users-1';
/** CSV rows per write. */
const CSV_CHUNK = 1000;

export interface UsersRoutesOptions {
  store: StoreDb;
  engine: SyncEngine;
  latestDay: () => Day;
  /** The sync's refresh window: only answers about days before it carry an ETag. */
  refreshDays: number;
  /** How long a request waits for the walk of its range before answering 202. */
  fillWaitMs?: number;
  /** Seconds the 202 asks the reader to wait. */
  retryAfterSeconds?: number;
  /** Keep the default range's table built as its days change (the page opens on it). */
  prewarm?: boolean;
  /**
   * Who is in the teams asked for (`team=`, several allowed), from the team mapping in force: a test
   * per user and a version of the mapping (an ETag must change with it); the detail of a 400 for an
   * unknown team. Without it, `team=` is refused.
   */
  teamFilter?: (teams: readonly string[]) => Parsed<TeamFilter>;
  /** Spend beside credits, when the server has a price list. */
  spend?: UsersSpend;
  /**
   * Builds a range's merged users (the analytics engine's, src/server/analytics/users.ts); `background` for the
   * tables built ahead.
   */
  merge: (r: DayRange, background: boolean) => Promise<MergedUser[]>;
  logger?: Logger;
}

/** Each user's spend over a range, at the price list in force. */
export interface UsersSpend {
  /** The price list's currency; null without a price list (then there is no spend column). */
  currency(): string | null;
  /**
   * What a range's spend depends on (the price list, the stored `/tokens` days), once those days are
   * filled from the service: a table is rebuilt when it changes. Throws when they cannot be filled.
   */
  version(r: DayRange): Promise<string>;
  /** Whether the range's `/tokens` days are all stored (asks the service nothing). */
  stored(r: DayRange): Promise<boolean>;
  /** Each user's spend over the range, by user id (the service's `/tokens` split per user and model, priced). */
  byUser(r: DayRange, background: boolean): Promise<ReadonlyMap<string, number>>;
}

/** Whether a request target is one of these endpoints. */
export function isUsersPath(url: string): boolean {
  const path = url.split('?', 1)[0]!;
  return path === '/api/users' || path === '/api/users.csv' || path.startsWith('/api/users/');
}

const JSON_TYPE = 'application/json; charset=utf-8';

export interface TeamFilter {
  includes: (userId: string, email: string | null) => boolean;
  version: string;
}

export function createUsersRoutes(opts: UsersRoutesOptions) {
  const { store, engine, latestDay, refreshDays } = opts;
  const logger = opts.logger ?? silentLogger;
  const retryAfter = String(opts.retryAfterSeconds ?? 1);
  const filler = createRangeFiller(store, engine, opts.fillWaitMs ?? 1500, logger);
  const spend = opts.spend;
  const currency = () => spend?.currency() ?? null;
  const merge = opts.merge;
  const SPEND = '|spend ';
  const tables = createTableCache(async (r, version, background) => {
    const [users, spent] = await Promise.all([
      merge(r, background),
      version.includes(SPEND) ? spend!.byUser(r, background) : undefined,
    ]);
    if (spent) for (const u of users) u.spend = spent.get(u.userId) ?? 0;
    return users;
  });
  const versionKey = (v: RangeVersion) => `${v.storedDays}|${v.syncedAt ?? ''}`;
  /**
   * The version a range's table is kept for: its stored `/users` days, and with a price list what its
   * spend reads. When the range's `/tokens` days cannot be filled the table goes without spend (its
   * cells show none) and is built again once they can.
   */
  async function tableVersion(r: DayRange, v: RangeVersion): Promise<string> {
    if (currency() === null) return versionKey(v);
    try {
      return `${versionKey(v)}${SPEND}${await spend!.version(r)}`;
    } catch (e) {
      logger.error('the users table goes without spend', { error: e instanceof Error ? e.message : String(e) });
      return `${versionKey(v)}|no spend`;
    }
  }
  /** Sorting by spend needs a price list: without one there is no spend anywhere. */
  const sortRefusal = (sort: string) =>
    sort === 'spend' && currency() === null
      ? 'sort=spend needs a price list (PRICES_FILE): this server shows credits only.'
      : undefined;

  /** A final answer's ETag: the same range, stored days and question give the same bytes. */
  function etagOf(r: DayRange, state: RangeState, version: string, question: unknown): string | undefined {
    if (!state.complete || !state.version.allFinal || !isFinal(r.end, latestDay(), refreshDays)) return undefined;
    const hash = createHash('sha256')
      .update(JSON.stringify([ANSWER_VERSION, r, version, question]))
      .digest('base64url')
      .slice(0, 27);
    return `W/"${hash}"`;
  }

  /** Writes an answer: gzip when asked for and worth it; 304 when the reader's copy is current. */
  async function write(req: IncomingMessage, res: ServerResponse, r: HttpResponse, etag?: string) {
    const head = req.method === 'HEAD';
    res.statusCode = r.status;
    for (const [k, v] of Object.entries(r.headers)) res.setHeader(k, v);
    res.setHeader('vary', 'accept-encoding');
    if (etag) {
      res.setHeader('etag', etag);
      // Kept by the browser, but asked about again each time: a re-sync of the store changes the answer.
      res.setHeader('cache-control', 'private, no-cache');
      if (matches(req.headers['if-none-match'], etag)) {
        res.statusCode = 304;
        res.removeHeader('content-type');
        res.end();
        return;
      }
    } else {
      res.setHeader('cache-control', 'no-store');
    }
    const gz = r.body.length >= 1024 && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const body = gz ? await gzipAsync(r.body, { level: 4 }) : Buffer.from(r.body);
    if (gz) res.setHeader('content-encoding', 'gzip');
    res.setHeader('content-length', body.length);
    res.end(head ? undefined : body);
  }

  const answer = (status: number, body: string, headers: Record<string, string> = {}): HttpResponse => ({
    status,
    headers: { 'content-type': JSON_TYPE, ...headers },
    body,
  });

  /** The test for the teams asked for (everyone when none), or the detail of a 400. */
  function teamsTest(teams: readonly string[]): Parsed<TeamFilter | null> {
    if (teams.length === 0) return { ok: true, value: null };
    if (!opts.teamFilter)
      return { ok: false, detail: 'This server has no team mapping: the team parameter is not taken.' };
    return opts.teamFilter(teams);
  }
  const ofTeams = (rows: readonly MergedUser[], test: TeamFilter | null) =>
    test ? rows.filter((u) => test.includes(u.userId, u.email)) : rows;

  /** `/api/users`: a page of the table. */
  async function table(url: URL): Promise<{ r: HttpResponse; etag?: string }> {
    const parsed = parseTableQuery(url.searchParams, latestDay());
    if (!parsed.ok) return { r: errorResponse(400, parsed.detail) };
    const { range, sort, dir, filter, offset, limit, teams } = parsed.value;
    const refused = sortRefusal(sort);
    if (refused) return { r: errorResponse(400, refused) };
    const test = teamsTest(teams);
    if (!test.ok) return { r: errorResponse(400, test.detail) };
    const state = await filler.ensure(range);
    const version = state.complete ? await tableVersion(range, state.version) : '';
    const t = state.complete ? await tables.get(range, version) : await tables.latest(range);
    const rows = t ? ofTeams(t.view(sort, dir, filter), test.value) : [];
    const body: UsersTableAnswer = {
      users: rows.slice(offset, offset + limit),
      offset,
      total: rows.length,
      activeUsers: t ? ofTeams(t.users, test.value).length : 0,
      facets: t ? { delegation: t.facets.delegation, tier: t.facets.tier, lang: t.facets.language } : EMPTY_FACETS,
      range,
      sort: { column: sort, dir },
      complete: state.complete,
      ...(state.complete ? {} : { progress: state.progress }),
    };
    if (!state.complete) return { r: answer(202, JSON.stringify(body), { 'retry-after': retryAfter }) };
    const question = [sort, dir, filter, offset, limit, teams, test.value?.version ?? null];
    return { r: answer(200, JSON.stringify(body)), etag: etagOf(range, state, version, question) };
  }

  /** `/api/users/<id>`: one user's days, straight from the user's index (no walk over the others). */
  async function user(url: URL, userId: string): Promise<{ r: HttpResponse; etag?: string }> {
    const parsed = parseUserQuery(url.searchParams, latestDay());
    if (!parsed.ok) return { r: errorResponse(400, parsed.detail) };
    const { range } = parsed.value;
    const state = await filler.ensure(range);
    if (!state.complete) {
      const body: UserDaysAnswer = { userId, user: null, days: [], range, complete: false, progress: state.progress };
      return { r: answer(202, JSON.stringify(body), { 'retry-after': retryAfter }) };
    }
    const rows = await userDayRows(store.db, userId, range.start, range.end);
    if (rows.length === 0 && !(await knownUser(store.db, userId))) {
      return { r: errorResponse(404, `No user with the id ${JSON.stringify(userId)} in the stored history.`) };
    }
    const merged = mergeUserRows(rows.map((row) => userRowSchema.parse(JSON.parse(row))))[0] ?? null;
    // The rows go out as the service sent them, without a round trip through objects.
    const head = JSON.stringify({ userId, user: merged, range, complete: true });
    const body = `${head.slice(0, -1)},"days":[${rows.join(',')}]}`;
    return { r: answer(200, body), etag: etagOf(range, state, versionKey(state.version), ['user', userId]) };
  }

  /** `/api/users.csv`: the whole filtered, sorted table, written a chunk at a time. */
  async function csv(req: IncomingMessage, res: ServerResponse, url: URL) {
    const parsed = parseCsvQuery(url.searchParams, latestDay());
    if (!parsed.ok) return write(req, res, errorResponse(400, parsed.detail));
    const { range, sort, dir, filter, teams } = parsed.value;
    const refused = sortRefusal(sort);
    if (refused) return write(req, res, errorResponse(400, refused));
    const test = teamsTest(teams);
    if (!test.ok) return write(req, res, errorResponse(400, test.detail));
    const state = await filler.ensure(range);
    if (!state.complete) {
      return write(req, res, errorResponse(503, state.progress.detail, { 'retry-after': retryAfter }));
    }
    const table = await tables.get(range, await tableVersion(range, state.version));
    const rows = ofTeams(table.view(sort, dir, filter), test.value);
    const { header: columns, row } = usersCsvColumns(currency());
    const gz = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    res.statusCode = 200;
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="users-${range.start}-${range.end}.csv"`);
    res.setHeader('cache-control', 'no-store');
    res.setHeader('vary', 'accept-encoding');
    if (gz) res.setHeader('content-encoding', 'gzip');
    if (req.method === 'HEAD') return void res.end();
    const out = gz ? createGzip({ level: 4 }) : res;
    if (gz) out.pipe(res);
    const header = toCsv(columns, []);
    out.write(header);
    for (let i = 0; i < rows.length && !res.destroyed; i += CSV_CHUNK) {
      // toCsv writes the header line first: the chunk is what follows it.
      const text = toCsv(columns, rows.slice(i, i + CSV_CHUNK).map(row)).slice(header.length);
      if (!out.write(text)) await Promise.race([once(out, 'drain'), once(res, 'close')]);
    }
    out.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return write(req, res, errorResponse(405, `Method ${req.method} is not allowed here.`, { allow: 'GET, HEAD' }));
    }
    const url = new URL(req.url ?? '/', 'http://dashboard.local');
    try {
      if (url.pathname === '/api/users.csv') return await csv(req, res, url);
      let out: { r: HttpResponse; etag?: string };
      if (url.pathname === '/api/users') {
        out = await table(url);
      } else {
        let id: string;
        try {
          id = decodeURIComponent(url.pathname.slice('/api/users/'.length));
        } catch {
          return await write(req, res, errorResponse(400, 'The user id in the path is not valid percent-encoding.'));
        }
        if (!id || id.includes('/')) return await write(req, res, errorResponse(404, 'No such endpoint.'));
        out = await user(url, id);
      }
      await write(req, res, out.r, out.etag);
    } catch (e) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (e instanceof FillError) return write(req, res, e.answer);
      return write(req, res, faultResponse(e, logger, 'read the users from its store'));
    }
  }

  /**
   * Builds the tables of the ranges a manager opens most (the default and the 7- and 90-day presets) in
   * the background once their days are all stored, and again when they change: the first visit to them
   * is served from memory. Another range is a pass over the read threads' days (read ahead here too).
   */
  let warming: Promise<void> | undefined;
  let again = false;
  /**
   * One pass at a time (a pass at 50,000 users can outlast the minute between two); asked for during a
   * pass, one more pass follows it (the sync may have stored more days meanwhile).
   */
  function warm(): Promise<void> {
    if (warming) {
      again = true;
      return warming;
    }
    warming = (async () => {
      try {
        do {
          again = false;
          await warmOnce();
        } while (again);
      } finally {
        // In the same turn as the last look at `again`: a pass asked for from now on starts afresh.
        warming = undefined;
      }
    })();
    return warming;
  }
  async function warmOnce() {
    // The presets' tables, once all their days are stored: a pass never waits for a walk (during a
    // backfill it would wait for the sync, and every pass asked for meanwhile with it).
    for (const days of [DEFAULT_DAYS, 7, 90]) {
      try {
        const r = lastDays(days, latestDay());
        const v = await filler.peek(r);
        if (v && (currency() === null || (await spend!.stored(r)))) await tables.get(r, await tableVersion(r, v), true);
      } catch (e) {
        logger.error('users table prewarm failed', { error: e instanceof Error ? e.message : String(e) });
      }
    }
  }
  const timers: ReturnType<typeof setTimeout>[] = [];
  if (opts.prewarm) {
    // Soon after start (the store may already hold the range), then each minute: a sync's walk makes a new version.
    timers.push(
      setTimeout(() => void warm(), 2_000),
      setInterval(() => void warm(), 60_000),
    );
    for (const t of timers) t.unref?.();
  }

  return {
    handle: (req: IncomingMessage, res: ServerResponse) => void handle(req, res),
    warm,
    stop: () => timers.forEach((t) => clearTimeout(t)),
  };
}

const EMPTY_FACETS = { delegation: [], tier: [], lang: [] };

/** Weak comparison of If-None-Match against our (weak) tag. */
function matches(header: string | string[] | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return String(header)
    .split(',')
    .some((t) => t.trim() === '*' || bare(t) === bare(etag));
}

export type UsersRoutes = ReturnType<typeof createUsersRoutes>;
