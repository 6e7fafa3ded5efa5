/**
 * Opens the store: an embedded SQLite file under DATA_DIR by default (created
 * on first start, no setup step), or PostgreSQL when DATABASE_URL is set, so
 * several replicas share one store. One query layer (Kysely) for both; the
 * migrations run before anything else touches it.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type Dialect } from 'kysely';
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
  /** Resolves when the store answers a query within 2 s (the readiness probe), rejects otherwise. */
  ping(): Promise<void>;
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

async function ping(db: Kysely<Schema>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // ETIMEDOUT: a store that does not answer, for `faultResponse` as for a socket that timed out.
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error('the store did not answer within 2 s'), { code: 'ETIMEDOUT' })),
      2000,
    );
  });
  try {
    await Promise.race([sql`select 1`.execute(db), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The dialect, with a ROLLBACK that never hides the error that ended the transaction: SQLite rolls the
 * transaction back by itself on SQLITE_FULL (Kysely's ROLLBACK then fails with "no transaction is active"),
 * and a PostgreSQL connection that died took its transaction with it (its ROLLBACK fails only then).
 */
function keepingTheCause<D extends Dialect>(dialect: D, rolledBack: () => boolean): D {
  const createDriver = dialect.createDriver.bind(dialect);
  dialect.createDriver = () => {
    const driver = createDriver();
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = (conn) =>
      rollback(conn).catch((e: unknown) => {
        if (!rolledBack()) throw e;
      });
    return driver;
  };
  return dialect;
}

/** Prepared statements the embedded store keeps. */
const STATEMENTS = 256;

export async function openStore(where: StoreLocation): Promise<StoreDb> {
  let store: StoreDb;
  if (where.databaseUrl) {
    // Day strings and counts only: bigint columns are not used, so pg's default parsing is right.
    const pool = new pg.Pool({ connectionString: where.databaseUrl, max: 20 });
    // A connection the server drops (a restart, a failover, pg_terminate_backend) emits an error. Idle, the
    // pool's listener takes it and the pool replaces the connection; checked out (a query, a transaction, the
    // lock below), the query it runs fails with it and the pool drops the connection when it comes back.
    // Unhandled, it would end the process.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<Schema>({ dialect: keepingTheCause(new PostgresDialect({ pool }), () => true) });
    const exclusive = <T>(key: string, fn: () => Promise<T>) =>
      // One pooled connection holds the lock for the duration; the work itself uses the others.
      db.connection().execute(async (conn) => {
        await sql`select pg_advisory_lock(hashtext(${key}))`.execute(conn);
        try {
          return await fn();
        } finally {
          // It fails only when the connection is gone, and the lock with it: what `fn` did or threw stands.
          await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(conn).catch(() => undefined);
        }
      });
    store = {
      db,
      engine: 'postgres',
      location: redact(where.databaseUrl),
      exclusive,
      ping: () => ping(db),
      close: () => db.destroy(),
    };
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
    // Each statement is prepared once and kept (the most recent STATEMENTS of them): Kysely asks for every query's,
    // and preparing the sync's inserts again each time held a twentieth of its thread.
    const prepared = new Map<string, SQLite.Statement>();
    const database = {
      prepare(text: string) {
        let statement = prepared.get(text);
        if (statement) prepared.delete(text);
        else statement = sqlite.prepare(text);
        prepared.set(text, statement);
        if (prepared.size > STATEMENTS) prepared.delete(prepared.keys().next().value!);
        return statement;
      },
      close: () => sqlite.close(),
    };
    const dialect = keepingTheCause(new SqliteDialect({ database }), () => !sqlite.inTransaction);
    const db = new Kysely<Schema>({ dialect });
    store = {
      db,
      engine: 'sqlite',
      location: path,
      exclusive: (_key, fn) => fn(),
      ping: () => ping(db),
      close: () => db.destroy(),
    };
  }
  try {
    await migrateToLatest(store.db as Kysely<unknown>);
  } catch (e) {
    await store.close();
    throw e;
  }
  return store;
}
