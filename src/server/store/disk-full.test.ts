/**
 * A full disk on the embedded store, made real with SQLite's `max_page_count` on a small store: the error
 * that reaches the writer is SQLite's own SQLITE_FULL (so it is answered 507, the disk named), not the
 * failed ROLLBACK after SQLite had already rolled the transaction back; nothing stored before is lost, and
 * once there is room again the next write is stored. The analytics copy's (DuckDB's) full disk is a 507 too:
 * made real on a small tmpfs where the test may mount one (as root), else skipped.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { eachDay } from '../../lib/dates';
import { faultResponse } from '../core/errors';
import { silentLogger } from '../core/log';
import { openStore } from './db';
import { claimStore, readDays, writeDays } from './queries';

const dir = mkdtempSync(join(tmpdir(), 'store-full-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the embedded store on a full disk', () => {
  it('says SQLITE_FULL, loses nothing stored, and writes again once there is room', async () => {
    const store = await openStore({ dataDir: dir, file: 'full.sqlite' });
    try {
      await claimStore(store.db, 'demo seed=full');
      const pages = async () =>
        (await sql<{ n: number }>`select page_count as n from pragma_page_count()`.execute(store.db)).rows[0]!.n;
      // Room for a few more pages only; each day below takes one (a single-row write: when it cannot grow the
      // file, SQLite rolls the whole transaction back by itself).
      await sql.raw(`pragma max_page_count = ${(await pages()) + 6}`).execute(store.db);
      const body = (day: string) => JSON.stringify([{ date: day, note: day.repeat(300) }]);
      const written: string[] = [];
      let error: unknown;
      for (const day of eachDay('2026-02-01', '2026-02-28')) {
        try {
          await writeDays(store.db, 'tokens', '', [{ day, body: body(day), final: true }], 'org-1');
          written.push(day);
        } catch (e) {
          error = e;
          break;
        }
      }
      expect(written.length).toBeGreaterThan(0);
      expect((error as { code?: string }).code).toBe('SQLITE_FULL');
      expect(faultResponse(error, silentLogger, 'store the days').status).toBe(507);

      const stored = await readDays(store.db, 'tokens', '', '2026-02-01', '2026-02-28');
      expect(stored.map((d) => [d.day, d.body])).toEqual(written.map((d) => [d, body(d)]));

      await sql.raw('pragma max_page_count = 1000000').execute(store.db);
      const next = eachDay('2026-02-01', '2026-02-28')[written.length]!;
      await writeDays(store.db, 'tokens', '', [{ day: next, body: body(next), final: true }], 'org-1');
      const after = await readDays(store.db, 'tokens', '', next, next);
      expect(after.map((d) => d.body)).toEqual([body(next)]);
      await store.ping();
    } finally {
      await store.close();
    }
  });
});

describe('the analytics copy (DuckDB) on a full disk', () => {
  // DuckDB's errors are plain Errors with no code: a full disk is said in the system's words.
  const full = () => new Error('IO Error: Could not write file "/data/analytics.duckdb": No space left on device');

  it('is answered 507 by its words, wrapped or not; another IO Error is no full disk', () => {
    expect(faultResponse(full(), silentLogger, 'compute the users table').status).toBe(507);
    expect(faultResponse(new Error('the copy failed', { cause: full() }), silentLogger, 'x').status).toBe(507);
    const denied = new Error('IO Error: Cannot open file "/data/analytics.duckdb": Permission denied');
    expect(faultResponse(denied, silentLogger, 'compute the users table').status).toBe(500);
  });

  it('is answered 507 when DuckDB really runs out of room (a small tmpfs; skipped where it cannot be mounted)', async (ctx) => {
    const at = mkdtempSync(join(tmpdir(), 'duckdb-full-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', at], { stdio: 'ignore' });
    } catch {
      rmSync(at, { recursive: true, force: true });
      ctx.skip('mounting a tmpfs is not permitted here');
    }
    try {
      const instance = await DuckDBInstance.create(join(at, 'analytics.duckdb'));
      const c = await instance.connect();
      let error: unknown;
      try {
        await c.run("CREATE TABLE t AS SELECT range AS i, repeat('x', 100) || range AS s FROM range(100000)");
        await c.run('CHECKPOINT');
      } catch (e) {
        error = e;
      } finally {
        c.closeSync();
        instance.closeSync();
      }
      expect((error as Error).message).toMatch(/Could not write file .*: No space left on device/);
      expect(faultResponse(error, silentLogger, 'compute the users table').status).toBe(507);
    } finally {
      execFileSync('umount', [at]);
      rmSync(at, { recursive: true, force: true });
    }
  });
});
