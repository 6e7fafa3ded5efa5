/**
 * Opens the store: an embedded SQLite file under DATA_DIR by default (created
 * on first start, no setup step), or PostgreSQL when DATABASE_URL is set, so
 * several replicas share one store. One query layer (Kysely) for both; the
 * migrations run before anything else touches it.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { migrateToLatest } from './migrations';
import type { Schema } from './schema';

export type Engine = 'sqlite' | 'postgres';

export interface StoreDb {
  db: Kysely<Schema>;
  engine: Engine;
  /** Where it is, for logs: a file path, or the database URL without its password. */
  location: string;
  /**
   * Runs `fn` while holding a lock named `key` across every server sharing this
   * store (a PostgreSQL advisory lock); the embedded store has one server.
   */
  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface StoreLocation {
  /** `postgres://…`: PostgreSQL. */
  databaseUrl?: string;
  /** The embedded store's folder; `:memory:` for a throwaway one. */
  dataDir?: string;
  /** The embedded store's file name in that folder. */
  file?: string;
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    // libpq also takes the password as a parameter.
    for (const k of [...u.searchParams.keys()]) if (/pass/i.test(k)) u.searchParams.set(k, '***');
    return u.toString();
  } catch {
    return 'postgres (unparsable URL)';
  }
}

export async function openStore(where: StoreLocation): Promise<StoreDb> {
  let store: StoreDb;
  if (where.databaseUrl) {
    // Day strings and counts only: bigint columns are not used, so pg's default parsing is right.
    const pool = new pg.Pool({ connectionString: where.databaseUrl, max: 20 });
    // An idle connection the server drops (a restart, a failover) is replaced on the next query; unhandled,
    // its error would end the process.
    pool.on('error', () => undefined);
    const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
    const exclusive = <T>(key: string, fn: () => Promise<T>) =>
      // One pooled connection holds the lock for the duration; the work itself uses the others.
      db.connection().execute(async (conn) => {
        await sql`select pg_advisory_lock(hashtext(${key}))`.execute(conn);
        try {
          return await fn();
        } finally {
          await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(conn);
        }
      });
    store = { db, engine: 'postgres', location: redact(where.databaseUrl), exclusive, close: () => db.destroy() };
  } else {
    const dir = where.dataDir ?? './data';
    let path = ':memory:';
    if (dir !== ':memory:') {
      mkdirSync(dir, { recursive: true });
      path = join(dir, where.file ?? 'dashboard.sqlite');
    }
    const sqlite = new SQLite(path);
    // WAL: readers never wait for the sync's writes; NORMAL is durable across a process crash.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: sqlite }) });
    store = { db, engine: 'sqlite', location: path, exclusive: (_key, fn) => fn(), close: () => db.destroy() };
  }
  try {
    await migrateToLatest(store.db as Kysely<unknown>);
  } catch (e) {
    await store.close();
    throw e;
  }
  return store;
}
