/** Where the store lives and how the sync behaves, from the environment. */
import { join } from 'node:path';
import { intSetting } from '../core/config';

export interface StoreConfig {
  /** PostgreSQL (`postgres://…`), shared by replicas; undefined for the embedded store. */
  databaseUrl: string | undefined;
  /** The embedded store's folder (`:memory:` for a throwaway one, as the browser tests use). */
  dataDir: string;
  /** The latest days asked for again on each sync (they may still be completed upstream). */
  refreshDays: number;
  /** Backfill on start and sync daily after the UTC day ends. */
  background: boolean;
  /** Longest span asked for in one request. */
  maxSpanDays: number;
  /**
   * The analytics copy's file (`ANALYTICS_FILE`; `temporary`: a file of the process's own, removed at close), kept
   * across restarts; beside PostgreSQL without it, `DATA_DIR`'s `analytics.duckdb` when DATA_DIR is set, else
   * `temporary`. Undefined: the embedded store's folder's `analytics.duckdb`.
   */
  analyticsFile?: string;
}

export function readStoreConfig(env: NodeJS.ProcessEnv = process.env): StoreConfig {
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:port/database)');
  }
  const background = env.SYNC_BACKGROUND ?? '1';
  if (background !== '0' && background !== '1') throw new Error('SYNC_BACKGROUND must be 0 or 1');
  // Beside PostgreSQL a replica keeps its copy only where it is told to: one folder per replica (two processes never
  // share a copy's file).
  const beside = databaseUrl
    ? env.DATA_DIR && env.DATA_DIR !== ':memory:'
      ? join(env.DATA_DIR, 'analytics.duckdb')
      : 'temporary'
    : undefined;
  return {
    databaseUrl,
    dataDir: env.DATA_DIR || './data',
    analyticsFile: env.ANALYTICS_FILE || beside,
    refreshDays: intSetting(env, 'SYNC_REFRESH_DAYS', 2, 0, 30),
    background: background === '1',
    maxSpanDays: intSetting(env, 'SYNC_MAX_SPAN_DAYS', 31, 1, 366),
  };
}
