/**
 * The demo service: a faithful implementation of service-interface.md over
 * the simulated organization. Framework-free: `handle` takes a method, a URL
 * and headers and returns status, headers and body, so it can sit behind its
 * own HTTP server, inside the dashboard's server, or be called by tests.
 */
import { randomBytes } from 'node:crypto';
import { STATUS_TITLES } from '../../api/errors';
import { GROUP_BY, PATHS } from '../../api/paths';
import { HISTORY_START, addDays, dayToMs, isDay, maxDay, minDay, todayUtc, type Day } from '../../lib/dates';
import {
  activityDay,
  clientRows,
  productivityDay,
  tokenDay,
  tokenModelRows,
  toolDay,
  toolNameRows,
  userRow,
} from './analytics';
import { buildOrg, type Org } from './org';
import { buildReadiness, type ReadinessData } from './readiness';
import { hashSeed } from './rng';
import { breakSchema, makeHostile, parseFaults, pickFault, type FaultRule } from './faults';

export type Role = 'owner' | 'manager' | 'member' | 'guest';

export interface DemoConfig {
  seed: string;
  users: number;
  repos: number;
  /** Reports per repository at most. */
  reportsPerRepo: number;
  /** Pinned "today" (YYYY-MM-DD); undefined follows the real UTC clock. */
  today: Day | undefined;
  keys: ReadonlyMap<string, Role>;
  /** Fault injection (faults.ts); none by default. */
  faults?: FaultRule[];
  latencyMs?: number;
  hostile?: boolean;
}

export const DEFAULT_KEYS: ReadonlyMap<string, Role> = new Map([
  ['demo-owner', 'owner'],
  ['demo-manager', 'manager'],
  ['demo-member', 'member'],
]);

export interface DemoRequest {
  method: string;
  /** Path and query, e.g. `/api/v1/analytics/tokens?startDate=…`. */
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface DemoResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Injected transport faults: send half the body then drop the connection, or never answer. */
  fault?: 'truncated' | 'hang';
  /** Injected latency before answering. */
  delayMs?: number;
}

const READINESS_PATHS = new Set([PATHS.readiness, '/api/organization/agent-readiness-reports']);
const TODAY_DETAIL = "Cannot query today's date - analytics data has a 24-hour lag";

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly extraHeaders: Record<string, string> = {},
  ) {
    super(detail);
  }
}

/** `req_` and 26 Crockford base-32 characters, like the service's request ids. */
export function newRequestId(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const bytes = randomBytes(26);
  let s = 'req_';
  for (const b of bytes) s += alphabet[b & 31];
  return s;
}

export function errorResponse(status: number, detail: string, headers: Record<string, string> = {}): DemoResponse {
  const requestId = newRequestId();
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId, ...headers },
    body: JSON.stringify({ title: STATUS_TITLES[status] ?? 'Error', detail, status, requestId }),
  };
}

function header(h: DemoRequest['headers'], name: string): string | undefined {
  const v = h[name] ?? h[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

export function readDemoConfig(env: NodeJS.ProcessEnv = process.env): DemoConfig {
  const int = (name: string, dflt: number, lo: number, hi: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return dflt;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < lo || n > hi) throw new Error(`${name} must be an integer from ${lo} to ${hi}`);
    return n;
  };
  const today = env.DEMO_TODAY || undefined;
  if (today !== undefined && !isDay(today)) throw new Error('DEMO_TODAY must be a day written YYYY-MM-DD');
  let keys = DEFAULT_KEYS;
  if (env.DEMO_KEYS) {
    const m = new Map<string, Role>();
    for (const pair of env.DEMO_KEYS.split(',')) {
      const [k, role] = pair.split(':').map((s) => s.trim());
      if (!k || !['owner', 'manager', 'member', 'guest'].includes(role ?? '')) {
        throw new Error('DEMO_KEYS must look like "key:owner,key2:member"');
      }
      m.set(k, role as Role);
    }
    keys = m;
  }
  return {
    seed: env.DEMO_SEED || 'acme',
    users: int('DEMO_USERS', 150, 0, 100_000),
    repos: int('DEMO_REPOS', 25, 0, 10_000),
    reportsPerRepo: int('DEMO_REPORTS_PER_REPO', 20, 1, 500),
    today,
    keys,
    faults: parseFaults(env.DEMO_FAULTS),
    latencyMs: int('DEMO_LATENCY_MS', 0, 0, 600_000),
    hostile: env.DEMO_HOSTILE === '1' || env.DEMO_HOSTILE === 'true',
  };
}

interface World {
  today: Day;
  org: Org;
  readiness: ReadinessData;
}

/** Byte-bounded cache of finished bodies: the data set never changes for a given "today". */
class BodyCache {
  private map = new Map<string, string>();
  private size = 0;
  constructor(private readonly maxChars: number) {}
  get(k: string) {
    const v = this.map.get(k);
    if (v !== undefined) {
      this.map.delete(k);
      this.map.set(k, v);
    }
    return v;
  }
  set(k: string, v: string) {
    if (v.length > this.maxChars / 4) return;
    this.map.set(k, v);
    this.size += v.length;
    for (const [key, val] of this.map) {
      if (this.size <= this.maxChars) break;
      this.map.delete(key);
      this.size -= val.length;
    }
  }
  clear() {
    this.map.clear();
    this.size = 0;
  }
}

export function createDemoService(config: DemoConfig, clock: () => number = Date.now) {
  let world: World | undefined;
  const cache = new BodyCache(256 * 1024 * 1024);

  function currentWorld(): World {
    const today = config.today ?? todayUtc(clock());
    if (!world || world.today !== today) {
      cache.clear();
      world = {
        today,
        org: buildOrg({ seed: config.seed, users: config.users, today }),
        readiness: buildReadiness({
          seed: config.seed,
          repos: config.repos,
          maxReports: config.reportsPerRepo,
          todayMs: dayToMs(today),
        }),
      };
    }
    return world;
  }

  const orgId = `org_${hashSeed(config.seed, 'org').toString(36)}`;

  function authenticate(req: DemoRequest): Role {
    const auth = header(req.headers, 'authorization');
    const m = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
    if (!m) throw new HttpError(401, 'Missing API key: send the header "Authorization: Bearer <API_KEY>".');
    const role = config.keys.get(m[1]!);
    if (!role) throw new HttpError(401, 'Invalid API key.');
    return role;
  }

  function dateParam(q: URLSearchParams, name: string): Day {
    const v = q.get(name);
    if (v === null || v === '') throw new HttpError(400, `${name} is required (YYYY-MM-DD, UTC).`);
    if (!isDay(v))
      throw new HttpError(400, `${name} must be a valid date in YYYY-MM-DD format, got "${String(v).slice(0, 40)}".`);
    return v;
  }

  function analytics(path: string, q: URLSearchParams, w: World): unknown {
    const startDate = dateParam(q, 'startDate');
    const endDate = dateParam(q, 'endDate');
    if (endDate < startDate) throw new HttpError(400, `endDate (${endDate}) is before startDate (${startDate}).`);
    if (endDate >= w.today || startDate >= w.today) throw new HttpError(400, TODAY_DETAIL);
    const groupBy = q.get('group_by');
    const allowed = GROUP_BY[path];
    if (groupBy !== null && groupBy !== allowed) {
      throw new HttpError(
        400,
        allowed
          ? `Invalid request parameters: group_by must be "${allowed}" for this endpoint, got "${String(groupBy).slice(0, 40)}".`
          : 'Invalid request parameters: this endpoint does not support group_by.',
      );
    }
    const meta = { org_id: orgId, start_date: startDate, end_date: endDate };
    // Days before history starts simply have no data.
    const from = maxDay(startDate, HISTORY_START);
    const lo = w.org.dayIndex(from);
    const hi = w.org.dayIndex(minDay(endDate, addDays(w.today, -1)));
    const range = (f: (d: number) => unknown) => {
      const out: unknown[] = [];
      for (let d = Math.max(lo, 0); d <= hi; d++) out.push(f(d));
      return out;
    };
    const flat = (f: (d: number) => unknown[]) => range(f).flat();
    switch (path) {
      case PATHS.tokens:
        return { data: groupBy ? flat((d) => tokenModelRows(w.org, d)) : range((d) => tokenDay(w.org, d)), meta };
      case PATHS.tools:
        return { data: groupBy ? flat((d) => toolNameRows(w.org, d)) : range((d) => toolDay(w.org, d)), meta };
      case PATHS.activity:
        return { data: groupBy ? flat((d) => clientRows(w.org, d)) : range((d) => activityDay(w.org, d)), meta };
      case PATHS.productivity:
        return { data: range((d) => productivityDay(w.org, d)), meta };
      default:
        return users(q, w, Math.max(lo, 0), hi, meta);
    }
  }

  function users(q: URLSearchParams, w: World, lo: number, hi: number, meta: Record<string, unknown>) {
    const rawLimit = q.get('limit');
    let limit = 20;
    if (rawLimit !== null) {
      if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > 100) {
        throw new HttpError(400, `limit must be an integer from 1 to 100, got "${rawLimit.slice(0, 20)}".`);
      }
      limit = Number(rawLimit);
    }
    const cursor = q.get('cursor');
    let u = 0;
    if (cursor !== null) {
      const at = w.org.usersById.get(cursor);
      if (at === undefined) throw new HttpError(400, 'Invalid cursor: pass meta.next_cursor of the previous page.');
      u = at + 1;
    }
    const activeIn = (i: number) => hi >= lo && w.org.activeCount[i]![hi + 1]! > w.org.activeCount[i]![lo]!;
    const data: unknown[] = [];
    let taken = 0;
    let last: string | undefined;
    for (; u < w.org.users.length && taken < limit; u++) {
      if (!activeIn(u)) continue;
      for (let d = lo; d <= hi; d++) {
        const row = userRow(w.org, u, d, w.org.days[d]!);
        if (row) data.push(row);
      }
      taken++;
      last = w.org.users[u]!.id;
    }
    let hasMore = false;
    for (; u < w.org.users.length; u++)
      if (activeIn(u)) {
        hasMore = true;
        break;
      }
    return { data, meta: { ...meta, has_more: hasMore, ...(hasMore ? { next_cursor: last } : {}) } };
  }

  function readiness(q: URLSearchParams, w: World): unknown {
    const rawLimit = q.get('limit');
    let limit = 50;
    if (rawLimit !== null) {
      if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1) {
        throw new HttpError(400, `limit must be a positive integer, got "${rawLimit.slice(0, 20)}".`);
      }
      limit = Math.min(Number(rawLimit), 1_000_000);
    }
    let list = w.readiness.reports;
    const repoId = q.get('repoId');
    if (repoId !== null) {
      const key = repoId
        .toLowerCase()
        .replace(/\.git$/, '')
        .replace(/^https?:\/\/[^/]+\//, '');
      list = list.filter((m) => w.readiness.repos[m.repo]!.slug === key);
    }
    let start = 0;
    const startAfter = q.get('startAfter');
    if (startAfter !== null) {
      const at = list.findIndex((m) => m.reportId === startAfter);
      if (at < 0)
        throw new HttpError(400, 'Invalid startAfter: pass the reportId of the last report of the previous page.');
      start = at + 1;
    }
    return { reports: list.slice(start, start + limit).map((m) => w.readiness.body(m)) };
  }

  /** Applies an injected fault, if one is configured for this request. */
  function withFault(ok: DemoResponse, path: string, group: string | null): DemoResponse {
    const delayed = (r: DemoResponse): DemoResponse => (config.latencyMs ? { ...r, delayMs: config.latencyMs } : r);
    const endpoint = READINESS_PATHS.has(path) ? 'readiness' : path.split('/').pop()!;
    switch (config.faults?.length ? pickFault(config.faults, endpoint, group) : undefined) {
      case '500':
        return delayed(errorResponse(500, 'Injected fault: the service failed.'));
      case '429':
        return delayed(errorResponse(429, 'Injected fault: too many requests.', { 'retry-after': '1' }));
      case 'malformed':
        return delayed({ ...ok, body: `${ok.body.slice(0, 40)}<html><body>Proxy error</body></html>` });
      case 'truncated':
        return delayed({ ...ok, fault: 'truncated' });
      case 'hang':
        return { ...ok, fault: 'hang' };
      case 'schema':
        return delayed({ ...ok, body: breakSchema(ok.body) });
      default:
        return delayed(ok);
    }
  }

  function handle(req: DemoRequest): DemoResponse {
    let url: URL;
    try {
      url = new URL(req.url, 'http://demo.invalid');
    } catch {
      return errorResponse(400, 'Malformed request URL.');
    }
    const path = url.pathname;
    const isAnalytics = path in GROUP_BY || path === PATHS.productivity || path === PATHS.users;
    const isReadiness = READINESS_PATHS.has(path);
    if (!isAnalytics && !isReadiness) return errorResponse(404, `No such endpoint: ${path.slice(0, 100)}`);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return errorResponse(405, `Method ${req.method} is not allowed; this interface is read-only (GET).`, {
        allow: 'GET, HEAD',
      });
    }
    try {
      const role = authenticate(req);
      if (isAnalytics && role !== 'owner' && role !== 'manager') {
        throw new HttpError(403, 'The analytics endpoints require the Manager or Owner role.');
      }
      const w = currentWorld();
      const key = `${w.today}|${path}|${[...url.searchParams].sort().join('&')}`;
      let body = cache.get(key);
      if (body === undefined) {
        const result = isAnalytics ? analytics(path, url.searchParams, w) : readiness(url.searchParams, w);
        body = JSON.stringify(config.hostile ? makeHostile(result) : result);
        cache.set(key, body);
      }
      const ok: DemoResponse = {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': newRequestId() },
        body,
      };
      return withFault(ok, path, url.searchParams.get('group_by'));
    } catch (e) {
      if (e instanceof HttpError) return errorResponse(e.status, e.detail, e.extraHeaders);
      return errorResponse(500, 'Internal error in the demo service.');
    }
  }

  return {
    handle,
    config,
    /** The latest day with data: the demo's yesterday. */
    latestDay: () => addDays(currentWorld().today, -1),
    world: currentWorld,
  };
}

export type DemoService = ReturnType<typeof createDemoService>;
