/**
 * What an orchestrator and a monitor ask, unauthenticated and for any `Host` (a kubelet probes by address),
 * never calling the service and never logged a request at a time:
 * - `/livez`: the process answers;
 * - `/readyz` (and its old name `/api/health`): the store open and migrated (it answers a query), the
 *   mapping and the price list loaded, the analytics copy caught up with the store's days once since start (a
 *   replica whose copy is behind would make its readers wait for it); 503 naming what is missing;
 * - `/metrics`: Prometheus's text (core/metrics.ts), behind `METRICS_TOKEN` when it is set.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorResponse } from './core/errors';
import type { Metrics } from './core/metrics';
import { json, send } from './core/response';
import { daysBetween, type Day } from '../lib/dates';
import type { PricesSource } from './spend/source';
import type { StoreDb } from './store/db';
import { storedDayCounts } from './store/queries';
import type { SyncEngine } from './sync/engine';

export interface ProbeSources {
  metrics: Metrics;
  metricsToken: string | undefined;
  latestDay: () => Day;
  store?: StoreDb;
  engine?: SyncEngine;
  /** Whether the team mapping in force has been read (an uploaded one comes from the store at start). */
  mappingLoaded: () => boolean;
  /** Whether the analytics copy has caught up with the store since start; undefined: not asked for. */
  copyCaughtUp?: () => boolean;
  /** Told to stop (SIGTERM): no new readers. */
  stopping: () => boolean;
  /** PRICES_FILE is set, and the list in force, if any. */
  pricesFile: string | undefined;
  prices: PricesSource;
}

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export const PROBE_PATHS = new Set(['/livez', '/readyz', '/api/health', '/metrics']);

/** Answers a probe and returns true, or returns false for any other request. */
export function createProbes(p: ProbeSources) {
  const { metrics, metricsToken, store, engine } = p;
  // The store's answer shared by the probes of a second: on PostgreSQL a ping waits for a connection of the pool, which
  // a sync's writes hold, and probes every few hundred milliseconds each waited (a restarted replica's p99, 130 ms).
  let answered: { at: number; ping: Promise<void> } | undefined;
  const ping = () => {
    if (!store) return Promise.resolve();
    if (!answered || performance.now() - answered.at > 1000) {
      const entry = { at: performance.now(), ping: store.ping() };
      answered = entry;
      // A failure is not kept: the next probe asks again.
      entry.ping.catch(() => answered === entry && (answered = undefined));
    }
    return answered.ping;
  };
  /** Each check, with null when ready or why not (never internal text: the probe is unauthenticated). */
  const checks: Record<string, () => Promise<string | null>> = {
    server: async () => (p.stopping() ? 'stopping' : null),
    store: async () =>
      ping().then(
        () => null,
        () => 'it does not answer',
      ),
    'team mapping': async () => (p.mappingLoaded() ? null : 'not read yet'),
    // Read from a flag, never by asking the copy: the probe answers at once while the copy is being made.
    'analytics copy': async () => (!p.copyCaughtUp || p.copyCaughtUp() ? null : 'catching up with the store'),
    'price list': async () => (p.pricesFile && !p.prices.current().prices ? 'none in force' : null),
  };
  const caughtUp = p.copyCaughtUp;
  if (caughtUp)
    metrics.gauge(
      'dashboard_analytics_copy_caught_up',
      'Whether the analytics copy has caught up with the store since start (1) or is still being made (0).',
      [],
      async (set) => set({}, caughtUp() ? 1 : 0),
    );
  if (store && engine) {
    // One read a scrape, whichever gauge asks first.
    let read: { at: number; counts: ReturnType<typeof storedDayCounts> } | undefined;
    const counts = () => {
      if (!read || Date.now() - read.at > 1000) {
        const counts = storedDayCounts(store.db);
        // A failed read is not kept: the next scrape asks the store again.
        counts.catch(() => {
          if (read?.counts === counts) read = undefined;
        });
        read = { at: Date.now(), counts };
      }
      return read.counts;
    };
    /** Each endpoint and grouping's days, `/users` among them. */
    const dayRows = async () => {
      const c = await counts();
      const users = { endpoint: 'users', groupBy: '', days: c.users.days, last: c.users.last };
      return [...c.analytics.map((a) => ({ ...a, groupBy: a.groupBy ?? '' })), users];
    };
    metrics.gauge('dashboard_store_up', 'Whether the store answered this scrape (1) or not (0).', [], async (set) =>
      set(
        {},
        await counts().then(
          () => 1,
          () => 0,
        ),
      ),
    );
    metrics.gauge(
      'dashboard_sync_lag_days',
      'Days between the latest day (yesterday, UTC) and the newest stored, by endpoint.',
      ['endpoint', 'group_by'],
      async (set) => {
        for (const d of await dayRows())
          if (d.last) set({ endpoint: d.endpoint, group_by: d.groupBy }, daysBetween(d.last, p.latestDay()));
      },
    );
    metrics.gauge(
      'dashboard_store_days',
      'Days stored, by endpoint and grouping.',
      ['endpoint', 'group_by'],
      async (set) => {
        for (const d of await dayRows()) set({ endpoint: d.endpoint, group_by: d.groupBy }, d.days);
      },
    );
    metrics.gauge('dashboard_store_readiness_reports', 'Readiness reports stored.', [], async (set) =>
      set({}, (await counts()).readinessReports),
    );
    metrics.gauge(
      'dashboard_sync_last_error_timestamp_seconds',
      'When the sync last failed (0: never, since start).',
      [],
      async (set) => set({}, engine.activity.lastError ? Date.parse(engine.activity.lastError.at) / 1000 : 0),
    );
    metrics.gauge('dashboard_sync_running', 'Fills running now.', [], async (set) =>
      set({}, engine.activity.running.size),
    );
  }

  async function readiness() {
    const results = await Promise.all(
      Object.entries(checks).map(async ([name, check]) => [name, await check().catch(() => 'failed')] as const),
    );
    const missing = results.filter(([, why]) => why !== null).map(([name, why]) => `${name}: ${why}`);
    return missing.length === 0
      ? json(200, { status: 'ok' })
      : errorResponse(503, `Not ready: ${missing.join('; ')}.`, { 'cache-control': 'no-store' });
  }

  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const path = (req.url ?? '/').split('?', 1)[0]!;
    if (!PROBE_PATHS.has(path)) return false;
    const head = req.method === 'HEAD';
    if (path === '/livez') send(res, json(200, { status: 'ok' }), head);
    else if (path === '/metrics') {
      const auth = req.headers.authorization ?? '';
      if (metricsToken && !sameSecret(auth, `Bearer ${metricsToken}`))
        send(res, errorResponse(401, 'The metrics need the token set in METRICS_TOKEN, as a bearer token.'), head);
      else
        void metrics.registry.metrics().then(
          (body) => send(res, { status: 200, headers: { 'content-type': metrics.registry.contentType }, body }, head),
          () => send(res, errorResponse(503, 'The metrics could not be collected just now.'), head),
        );
    } else void readiness().then((r) => send(res, r, head));
    return true;
  };
}
