/**
 * Real PostgreSQL for tests: the throwaway cluster that ./postgres-setup.ts (vitest globalSetup) starts once per run.
 * Each test file takes a database of its own with `freshDatabase()`, so files run in parallel without sharing state:
 *
 *   describe.skipIf(!pgAvailable())('…', () => {
 *     let db: FreshDatabase;
 *     beforeAll(async () => { db = (await freshDatabase())!; });
 *     afterAll(() => db.drop());
 *   });
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export interface FreshDatabase {
  /** postgres:// URL of the new, empty database (superuser `postgres`, no password). */
  url: string;
  /** Ends its connections and drops it. */
  drop: () => Promise<void>;
}

/** The cluster's URL (its `postgres` database), or null when PostgreSQL isn't installed on this machine. */
export const pgUrl = (): string | null => inject('pgUrl') ?? null;

/** Whether the cluster runs: for `describe.skipIf(!pgAvailable())`. */
export const pgAvailable = (): boolean => pgUrl() !== null;

/** Why PostgreSQL tests skip, for a test's name. */
export const pgSkipReason = 'PostgreSQL is not installed here (Debian: apt-get install postgresql)';

async function asAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates a new, uniquely named, empty database in the test cluster; null when there is no cluster. */
export async function freshDatabase(): Promise<FreshDatabase | null> {
  const adminUrl = pgUrl();
  if (adminUrl === null) return null;
  const name = `t_${randomBytes(8).toString('hex')}`;
  await asAdmin(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    drop: async () => {
      if (dropped) return;
      dropped = true;
      // WITH (FORCE) terminates the database's connections first (PostgreSQL 13+).
      await asAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
