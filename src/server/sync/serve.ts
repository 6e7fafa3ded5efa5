/**
 * Answers the documented paths from the store, as the service would answer
 * them. A request the store cannot answer faithfully (a parameter it does not
 * model, a day not yet stored for `/users`, an unknown cursor) returns null
 * and goes to the service as before; day-based answers fill their missing
 * spans first, and an upstream answer that could not be stored goes back to
 * the browser as the service gave it.
 */
import { PATHS } from '../../api/paths';
import { addDays, eachDay, isDay, type Day } from '../../lib/dates';
import { answerCache, type KeptAnswer, type SizedCache } from '../core/cache';
import { json, jsonText, keepCompressed, type HttpResponse } from '../core/response';
import type { StoreDb } from '../store/db';
import * as q from '../store/queries';
import { FillFailed, groupingOf, type DayEndpoint, type SyncEngine } from './engine';

/** How old the store's reports may be before a readiness request looks for new ones. */
export const READINESS_MAX_AGE_MS = 5 * 60_000;

const DAY_PATHS = new Map<string, DayEndpoint>([
  [PATHS.tokens, 'tokens'],
  [PATHS.tools, 'tools'],
  [PATHS.activity, 'activity'],
  [PATHS.productivity, 'productivity'],
]);

/** The query's parameters when each is given once and all are among `allowed`; else null. */
function params(search: string, allowed: readonly string[]): Map<string, string> | null {
  const sp = new URLSearchParams(search);
  const out = new Map<string, string>();
  for (const [k, v] of sp) {
    if (!allowed.includes(k) || out.has(k)) return null;
    out.set(k, v);
  }
  return out;
}

/** A valid range the service would answer (not today, start before end); else null. */
function rangeOf(p: Map<string, string>, latest: Day) {
  const start = p.get('startDate');
  const end = p.get('endDate');
  if (!isDay(start) || !isDay(end) || end < start || end > latest) return null;
  return { start, end };
}

/** Joins stored day bodies (JSON arrays) into one array without parsing them. */
function joinArrays(bodies: readonly string[]): string {
  const parts = bodies.map((b) => b.slice(1, -1)).filter((b) => b.length > 0);
  return `[${parts.join(',')}]`;
}

const envelope = (data: string, meta: Record<string, unknown>): HttpResponse =>
  jsonText(200, `{"data":${data},"meta":${JSON.stringify(meta)}}`);

export function createStoreAnswerer(
  store: StoreDb,
  engine: SyncEngine,
  latestDay: () => Day,
  refreshDays = 2,
  /** The server's one cache of answers (core/cache.ts); a cache of its own by default. */
  recent: SizedCache<KeptAnswer> = answerCache(),
) {
  const { db } = store;

  async function dayAnswer(endpoint: DayEndpoint, search: string): Promise<HttpResponse | null> {
    const p = params(search, ['startDate', 'endDate', 'group_by']);
    const range = p && rangeOf(p, latestDay());
    if (!p || !range) return null;
    const grouping = groupingOf(endpoint, p.get('group_by') ?? null);
    if (grouping === undefined) return null;
    await engine.fillDays(endpoint, grouping, range, false);
    const [rows, orgId] = await Promise.all([
      q.readDays(db, endpoint, grouping, range.start, range.end),
      q.storedOrgId(db),
    ]);
    // A day written by another replica between the fill and this read is still there; a missing one is not served.
    if (rows.length !== eachDay(range.start, range.end).length || orgId === null) return null;
    return envelope(joinArrays(rows.map((r) => r.body)), {
      org_id: orgId,
      start_date: range.start,
      end_date: range.end,
    });
  }

  async function usersAnswer(search: string): Promise<HttpResponse | null> {
    const p = params(search, ['startDate', 'endDate', 'limit', 'cursor']);
    const range = p && rangeOf(p, latestDay());
    if (!p || !range) return null;
    const rawLimit = p.get('limit') ?? '20';
    if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > 100) return null;
    const stored = await q.storedUserDays(db, range.start, range.end);
    if (stored.length !== eachDay(range.start, range.end).length) {
      // Served by the service meanwhile; the walk fills the store for the next visit.
      engine.fillUsers(range, false).catch(() => undefined);
      return null;
    }
    const cursor = p.get('cursor');
    if (cursor !== undefined && !(await q.knownUser(db, cursor))) return null;
    const [page, orgId] = await Promise.all([
      q.readUsersPage(db, store.engine, range, Number(rawLimit), cursor),
      q.storedOrgId(db),
    ]);
    if (orgId === null) return null;
    const meta = {
      org_id: orgId,
      start_date: range.start,
      end_date: range.end,
      has_more: page.hasMore,
      ...(page.hasMore ? { next_cursor: page.last } : {}),
    };
    return envelope(joinArrays(page.rows.map((r) => `[${r}]`)), meta);
  }

  async function readinessAnswer(search: string): Promise<HttpResponse | null> {
    const p = params(search, ['limit', 'startAfter']);
    const rawLimit = p?.get('limit');
    // The service's default limit is not documented: without one, the service answers.
    if (!p || !rawLimit || !/^\d{1,7}$/.test(rawLimit) || Number(rawLimit) < 1) return null;
    await engine.syncReadiness(READINESS_MAX_AGE_MS);
    const reports = await q.readReports(db, Number(rawLimit), p.get('startAfter'));
    if (!reports) return null;
    return jsonText(200, `{"reports":[${reports.join(',')}]}`);
  }

  /** The store's answer to a documented GET, or null for the service to answer. */
  async function compute(path: string, search: string): Promise<HttpResponse | null> {
    try {
      const endpoint = DAY_PATHS.get(path);
      if (endpoint) return await dayAnswer(endpoint, search);
      if (path === PATHS.users) return await usersAnswer(search);
      if (path === PATHS.readiness) return await readinessAnswer(search);
      return null;
    } catch (e) {
      if (e instanceof FillFailed) {
        relayed.add(e.answer);
        return e.answer;
      }
      if (e instanceof q.StoreMismatchError) return json(502, { title: 'Bad Gateway', detail: e.message, status: 502 });
      throw e;
    }
  }
  /** The service's own answers passed on after a failed fill (a 200 may break the contract): never kept. */
  const relayed = new WeakSet<HttpResponse>();
  const keepable = (r: HttpResponse | null): r is HttpResponse => r !== null && r.status === 200 && !relayed.has(r);

  /**
   * Recent answers, as built, with their compressed bodies (`keepCompressed`): many readers of one
   * organization ask for the same ranges. An answer is dropped when this server writes to the store,
   * and after a minute unless every day in it is final (another replica may refresh recent days; final
   * days never change).
   */
  /** Answers being built, so that a crowd of readers asking at once (a minute's expiry) builds each once. */
  const building = new Map<string, { generation: number; answer: Promise<HttpResponse | null> }>();

  function finalRange(path: string, search: string): boolean {
    if (path === PATHS.readiness) return false;
    const end = new URLSearchParams(search).get('endDate');
    return isDay(end) && end <= addDays(latestDay(), -refreshDays);
  }

  /** Builds an answer and keeps it, unless the store was written meanwhile. */
  async function build(key: string, path: string, search: string, generation: number): Promise<HttpResponse | null> {
    const built = await compute(path, search);
    if (!keepable(built) || generation !== engine.activity.generation) return built;
    // The same body as the one it replaces (a minute's expiry, the days unchanged): its compressed forms still hold.
    const old = recent.get(key)?.answer;
    const r = old && old.body === built.body ? old : built;
    // Compressed off the event loop before the first reader gets it, so that no reader compresses it on the loop.
    const compressed = await keepCompressed(r);
    if (generation !== engine.activity.generation) return r;
    const until = finalRange(path, search) ? Infinity : Date.now() + 60_000;
    recent.set(key, { answer: r, stamp: String(generation), until, size: r.body.length + compressed });
    return r;
  }

  /** The store's answer to a documented GET, or null for the service to answer. */
  return function answer(path: string, search: string): Promise<HttpResponse | null> {
    const key = `service ${path}${search}`;
    const generation = engine.activity.generation;
    const hit = recent.get(key);
    if (hit && hit.stamp === String(generation) && Date.now() < hit.until) return Promise.resolve(hit.answer);
    const running = building.get(key);
    // Built from the same store as this reader would read: its answer, a failed fill's relayed answer too (the
    // service was just asked this very question; asking again would double a persistent 503's calls).
    if (running && running.generation === generation) {
      const own = () => compute(path, search);
      return running.answer.then((r) => r ?? own(), own);
    }
    const pending = build(key, path, search, generation).finally(() => {
      if (building.get(key)?.answer === pending) building.delete(key);
    });
    building.set(key, { generation, answer: pending });
    return pending;
  };
}
