/** `GET /api/sync`: what the store holds, what the sync is doing, and its last error. */
import type { StoreDb } from '../store/db';
import { storeSummary } from '../store/queries';
import type { SyncEngine } from './engine';
import type { Scheduler } from './scheduler';

export async function syncStatus(store: StoreDb, engine: SyncEngine, scheduler: Scheduler | undefined) {
  const { current, last } = scheduler?.status() ?? {};
  return {
    store: store.engine,
    stored: await storeSummary(store.db),
    running: [...engine.activity.running.values()],
    currentRun: current ?? null,
    lastRun: last ?? null,
    upstreamRequests: engine.activity.upstreamRequests,
    upstreamByPath: engine.activity.upstreamByPath,
    lastError: engine.activity.lastError ?? null,
  };
}
