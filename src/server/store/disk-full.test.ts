/**
 * A full disk on the embedded store, made real with SQLite's `max_page_count` on a small store: the error
 * that reaches the writer is SQLite's own SQLITE_FULL (so it is answered 507, the disk named), not the
 * failed ROLLBACK after SQLite had already rolled the transaction back; nothing stored before is lost, and
 * once there is room again the next write is stored.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
