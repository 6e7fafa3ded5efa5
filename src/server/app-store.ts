/**
 * The store of the upstream the server reads (main.ts, the commands and the tests open it before the app): one
 * embedded file per upstream, or a shared PostgreSQL that refuses a second upstream; and what the app runs beside
 * its routes when it has one (the sync, the analytics copy, the users pages).
 */
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { openAnalytics } from './analytics/engine';
import { createUsersTables } from './analytics/users';
import type { answerCache } from './core/cache';
import { errorText, type Logger } from './core/log';
import type { Quiet } from './core/quiet';
import type { HttpResponse } from './core/response';
import type { createStoreFeatures } from './features';
import { priceListKey } from './spend/prices';
import type { PricesSource } from './spend/source';
import { dayAnswerCount } from './store/teams-queries';
import { createSyncEngine, type Fetched } from './sync/engine';
import { createScheduler, type Scheduler } from './sync/scheduler';
import { createStoreAnswerer } from './sync/serve';
import { syncStatus } from './sync/status';
import { ask, type Origin } from './upstream/proxy';
import { createUsersRoutes, type Placing } from './users/routes';
import type { ServerConfig } from './config';
import type { StoreConfig } from './store/config';
import { openStore, type StoreDb } from './store/db';
import { claimStore, holdsCopiedDays } from './store/queries';

/** Which upstream a store holds: its hosts, or the demo's seed and size (and whatever changes its data). */
export function upstreamIdentity(config: ServerConfig): string {
  const d = config.demo;
  if (d) {
    const extra = `${d.today ? ` today=${d.today}` : ''}${d.hostile ? ' hostile' : ''}`;
    return `demo seed=${d.seed} users=${d.users} repos=${d.repos} reports=${d.reportsPerRepo}${extra}`;
  }
  // The key names the organization as much as the host does: another key is another store (by a fingerprint,
  // never the key itself).
  const key = config.apiKey ? createHash('sha256').update(config.apiKey).digest('hex').slice(0, 12) : '-';
  return `service analytics=${config.analyticsBaseUrl?.href ?? '-'} readiness=${config.readinessBaseUrl?.href ?? '-'} key=${key}`;
}

/**
 * The store, when the server holds the key (`API_KEY`, or the demo's own): with
 * keys pasted by each user the server stays a pass-through and stores nothing,
 * so one key's answers are never served to another. The embedded store keeps
 * one file per upstream; a shared PostgreSQL refuses a second upstream.
 */
export async function openAppStore(config: ServerConfig, store: StoreConfig): Promise<StoreDb | undefined> {
  if (!config.demo && !config.apiKey) return undefined;
  const identity = upstreamIdentity(config);
  const file = `store-${createHash('sha256').update(identity).digest('hex').slice(0, 12)}.sqlite`;
  const db = await openStore({ databaseUrl: store.databaseUrl, dataDir: store.dataDir, file });
  try {
    await claimStore(db.db, identity);
  } catch (e) {
    await db.close();
    throw e;
  }
  return db;
}

export interface StoreSideOptions {
  store: StoreDb;
  storeConfig?: StoreConfig;
  config: Pick<ServerConfig, 'apiKey' | 'upstreamRetries'>;
  /** The service (or the demo), each answer counted. */
  origin: Origin<HttpResponse>;
  logger: Logger;
  latestDay: () => string;
  /** The server's one cache of answers: the store's answers to the service's paths are kept in it. */
  answers: ReturnType<typeof answerCache>;
  /** Whether readers are being answered: what is made ahead of them waits for none to be. */
  quiet: Quiet;
  prices: PricesSource;
  place: () => Placing | null;
  /** The features the store makes possible, made after this (they read its sync and copy). */
  features: () => ReturnType<typeof createStoreFeatures> | undefined;
  /** What a reader's first page needs beside the copy, made once before `/readyz` first says ready. */
  ahead: () => Promise<void>;
}

/**
 * What a server with a store runs beside its routes: the sync and its scheduler, the store's answers to the
 * service's paths, the analytics copy (caught up at start and after each sync step) and the users pages' routes.
 */
export function createStoreSide(o: StoreSideOptions) {
  const { store, logger, latestDay, prices } = o;
  const sc = o.storeConfig;
  /** Whether a catch-up of every stored day has finished since start: the copy then holds what the store held. */
  let copyCaughtUp = false;
  /** Whether readers may be sent here (`/readyz`): the copy caught up and, on a restart, the first sync run's. */
  let ready = false;
  let failedAtStart = false;
  /** The scheduler's first whole run, once it is started (main.ts; a test's or a command's app never starts it). */
  let started = false;
  let firstRunDone = () => {};
  const firstRun = new Promise<void>((ok) => (firstRunDone = ok));
  const authorization = o.config.apiKey ? `Bearer ${o.config.apiKey}` : undefined;
  const fetcher = async (path: string, search: string): Promise<Fetched> => {
    const r = await ask(o.origin, { method: 'GET', path, search, authorization }, o.config.upstreamRetries);
    // A demo answer cut off on its way is relayed as it is, never stored.
    return { ...r, incomplete: 'fault' in r && r.fault === 'truncated' };
  };
  const refreshDays = sc?.refreshDays ?? 2;
  const sync = createSyncEngine(store, fetcher, {
    logger,
    latestDay,
    refreshDays,
    maxSpanDays: sc?.maxSpanDays ?? 31,
    usersPageSize: 100,
    reportsPageSize: 100,
  });
  const fromStore = createStoreAnswerer(store, sync, latestDay, refreshDays, o.answers);
  // Every per-person figure from the analytics engine (src/server/analytics), its copy of the store beside the
  // embedded store's file, or where ANALYTICS_FILE or DATA_DIR says beside PostgreSQL (a temporary file of its own
  // without them).
  const analytics = openAnalytics(store, {
    file:
      sc?.analyticsFile ??
      (store.engine === 'postgres'
        ? 'temporary'
        : store.location !== ':memory:'
          ? join(dirname(store.location), 'analytics.duckdb')
          : ':memory:'),
    logger,
    tempDirectory: join(tmpdir(), 'agent-usage-dashboard-analytics'),
  });
  /** Brings the whole copy up to the store's; the days it copied. */
  const catchUpAll = async () => {
    const days = await (await analytics).catchUp();
    // Once, at start: at 50,000 people counting the teams' members took seconds of the first teams page after it.
    if (!copyCaughtUp)
      await o
        .ahead()
        .catch((e: unknown) => logger.error('making what the first pages read ahead failed', { error: errorText(e) }));
    copyCaughtUp = true;
    // A start whose own catch-up failed is ready once a later one (after a sync step) has caught up.
    if (failedAtStart) ready = true;
    return days;
  };
  const tables = analytics.then((a) => createUsersTables(a));
  // A copy that cannot be opened is the users pages' error, said to their readers: not the process's end.
  tables.catch(() => undefined);
  // A server that syncs in the background (not a test's or a command's) brings the copy up to date with itself,
  // and says when it has (`/readyz`): a reader sent to it meanwhile would wait for the days it asks for.
  if (sc?.background) {
    // A store without a day has nothing to copy: ready at once, not once the copy is opened.
    const held = holdsCopiedDays(store.db).catch(() => true);
    void held.then((h) => void (h || (ready = true)));
    const began = performance.now();
    void catchUpAll().then(
      async (days) => {
        logger.info('the analytics copy caught up with the store', { days, ms: Math.round(performance.now() - began) });
        // A restart's sync walks its latest days again: readers come once it has and the copy with it, not beside
        // them (a restarted PostgreSQL replica's first pages took twice as long), or 30 s later all the same.
        // What the first pages read is made again for what the run stored (nothing to do when it stored the same).
        if ((await held) && started)
          await Promise.race([
            firstRun.then(catchUpAll).then(() => o.ahead()),
            delay(30_000, undefined, { ref: false }),
          ]).catch(() => undefined);
        ready = true;
      },
      (e: unknown) => {
        // A catch-up after a sync step may have caught up meanwhile.
        if (copyCaughtUp) ready = true;
        failedAtStart = true;
        logger.error('the analytics copy could not be brought up to date', { error: errorText(e) });
      },
    );
  }
  // The users pages' endpoints (src/server/users): the merged table and one user's days.
  const usersRoutes = createUsersRoutes({
    tables,
    store,
    engine: sync,
    latestDay,
    refreshDays,
    logger,
    prewarm: sc?.background,
    idle: o.quiet.idle,
    place: o.place,
    shownTeams: async (k) => o.features()?.teams.shownTeams(k) ?? { teams: new Set<string>(), key: 'none' },
    spend: {
      list: () => prices.current().prices ?? null,
      // The range's `/tokens` days are filled first: the version then says what the spend was priced from (what
      // the days hold is the analytics copy's, which a users table's version says too).
      version: async (r) => {
        await sync.fillDays('tokens', '', r, false);
        const list = prices.current().prices;
        return `${list ? priceListKey(list) : ''}|${await dayAnswerCount(store.db, 'tokens', '', r.start, r.end)}`;
      },
      stored: (r) => sync.daysStored('tokens', '', r),
    },
  });
  // Started by main.ts when SYNC_BACKGROUND allows; `npm run sync` runs it once.
  // After each step of a sync: the analytics copy, the users tables built ahead, and who is in which team.
  const stored = () => {
    void catchUpAll().catch(() => undefined);
    void usersRoutes.warm();
    void o
      .features()
      ?.teams?.warm()
      .catch((e: unknown) => logger.error('counting the teams ahead failed', { error: errorText(e) }));
  };
  // After each whole run of the background sync, the alerts are checked on what it stored.
  const bg = sc?.background === true;
  const runs = createScheduler(
    sync,
    latestDay,
    logger,
    bg ? stored : undefined,
    undefined,
    bg
      ? // The first run's alerts checked before a restarted server says it is ready: their figures beside its first
        // pages took as long as those pages.
        () => void Promise.resolve(o.features()?.checkAlerts()).finally(firstRunDone)
      : undefined,
  );
  const scheduler: Scheduler = {
    ...runs,
    start() {
      started = true;
      runs.start();
    },
  };
  return {
    sync,
    fromStore,
    scheduler,
    analytics,
    usersRoutes,
    status: () => syncStatus(store, sync, scheduler),
    /** Whether readers may be sent here: the copy caught up and, on a restart, the first sync run's (`/readyz`). */
    ready: () => ready,
  };
}
