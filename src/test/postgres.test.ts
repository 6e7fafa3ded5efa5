/** The tests' PostgreSQL is a real server (no mock), and every file gets a database of its own. */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, pgAvailable, pgSkipReason, type FreshDatabase } from './postgres';

describe.skipIf(!pgAvailable())('the test PostgreSQL', () => {
  let db: FreshDatabase;
  let client: pg.Client;

  beforeAll(async () => {
    const fresh = await freshDatabase();
    if (!fresh) throw new Error('pgUrl was provided, yet no database');
    db = fresh;
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  it('is a real PostgreSQL server', async () => {
    const { rows } = await client.query<{ version: string }>('SELECT version()');
    expect(rows[0]?.version).toContain('PostgreSQL');
  });

  it('stores and reads rows in a database of this file only', async () => {
    await client.query('CREATE TABLE t (id int PRIMARY KEY, name text NOT NULL)');
    await client.query('INSERT INTO t VALUES ($1, $2), ($3, $4)', [1, 'a', 2, 'b']);
    const { rows } = await client.query('SELECT id, name FROM t ORDER BY id');
    expect(rows).toEqual([
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
    ]);
    const { rows: dbs } = await client.query<{ db: string }>('SELECT current_database() AS db');
    expect(dbs[0]?.db).toMatch(/^t_[0-9a-f]{16}$/);
  });

  it('drops the database, connections and all', async () => {
    const other = await freshDatabase();
    if (!other) throw new Error('no database');
    const held = new pg.Client({ connectionString: other.url });
    held.on('error', () => {}); // Its connection is terminated by the drop.
    await held.connect();
    await other.drop();
    const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [
      new URL(other.url).pathname.slice(1),
    ]);
    expect(rows).toEqual([]);
    await held.end().catch(() => {});
  });
});

// Says in the report why the tests above didn't run.
if (!pgAvailable()) it.skip(`the test PostgreSQL: ${pgSkipReason}`, () => {});
