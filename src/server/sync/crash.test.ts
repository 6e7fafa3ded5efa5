/**
 * A sync killed with SIGKILL mid-walk (a real process, the same code the server
 * runs) loses nothing already written and stores nothing twice: the next sync
 * resumes the walk from its saved cursor and the store ends up holding exactly
 * the service's rows.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../api/paths';
import { DEFAULT_KEYS } from '../demo/auth';
import { createDemoService } from '../demo/service';

const ENV = {
  DEMO_SEED: 'crash',
  DEMO_USERS: '900',
  DEMO_REPOS: '3',
  DEMO_TODAY: '2026-03-01',
  SYNC_REFRESH_DAYS: '2',
};
const RANGE = { from: '2026-01-20', to: '2026-02-15' };
const dir = mkdtempSync(join(tmpdir(), 'store-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runSync(extra: Record<string, string>): ChildProcess {
  return spawn(
    process.execPath,
    ['--import', 'tsx', 'src/server/sync-cli.ts', '--from', RANGE.from, '--to', RANGE.to],
    { env: { ...process.env, ...ENV, DATA_DIR: dir, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

const exited = (p: ChildProcess) =>
  new Promise<number | null>((resolve) => p.on('exit', (code, signal) => resolve(signal ? -1 : code)));

function storeFile(): string | undefined {
  const f = readdirSync(dir).find((n) => n.endsWith('.sqlite'));
  return f && join(dir, f);
}

/** Reads the store as it is on disk (WAL lets a reader in while the sync writes). */
function peek<T>(query: string): T | undefined {
  const file = storeFile();
  if (!file) return undefined;
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(query).get() as T | undefined;
  } catch {
    return undefined; // tables not created yet
  } finally {
    db.close();
  }
}

/** Every /users row of the range, as the service itself answers. */
function referenceRows() {
  const demo = createDemoService({
    seed: ENV.DEMO_SEED,
    users: Number(ENV.DEMO_USERS),
    repos: 3,
    reportsPerRepo: 20,
    today: ENV.DEMO_TODAY,
    keys: DEFAULT_KEYS,
  });
  const rows: string[] = [];
  let cursor = '';
  for (;;) {
    const q = new URLSearchParams({ startDate: RANGE.from, endDate: RANGE.to, limit: '100' });
    if (cursor) q.set('cursor', cursor);
    const r = demo.handle({
      method: 'GET',
      url: `${PATHS.users}?${q}`,
      headers: { authorization: 'Bearer demo-owner' },
    });
    const body = JSON.parse(r.body) as {
      data: { user_id: string; date: string }[];
      meta: { has_more: boolean; next_cursor?: string };
    };
    for (const row of body.data) rows.push(`${row.date}|${row.user_id}|${JSON.stringify(row)}`);
    if (!body.meta.has_more) return rows.sort();
    cursor = body.meta.next_cursor!;
  }
}

describe('a sync killed mid-walk', () => {
  it('resumes from its cursor after SIGKILL, losing nothing and storing nothing twice', async () => {
    // Slow answers, so the kill lands between pages of a walk.
    const first = runSync({ DEMO_LATENCY_MS: '40' });
    const done = exited(first);
    let walk: { cursor: string; pages: number } | undefined;
    const deadline = Date.now() + 60_000;
    while (!walk && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 15));
      walk = peek<{ cursor: string; pages: number }>('select cursor, pages from users_walk where pages >= 2 limit 1');
    }
    expect(walk, 'a walk had written two pages').toBeDefined();
    first.kill('SIGKILL');
    expect(await done).toBe(-1);
    const keptBefore = peek<{ n: number }>('select count(*) as n from user_day')!.n;
    expect(keptBefore).toBeGreaterThan(0);

    const second = runSync({});
    let log = '';
    second.stdout!.on('data', (c: Buffer) => (log += c.toString()));
    second.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    expect(await exited(second), log).toBe(0);
    // The walk the kill interrupted went on from its saved cursor.
    const summary = JSON.parse(log.split('\n').find((l) => l.includes('"sync done"'))!) as { resumedWalks: number };
    expect(summary.resumedWalks).toBe(1);

    const db = new SQLite(storeFile()!, { readonly: true });
    const stored = (
      db.prepare('select day, user_id, row from user_day order by day, user_id').all() as {
        day: string;
        user_id: string;
        row: string;
      }[]
    ).map((r) => `${r.day}|${r.user_id}|${r.row}`);
    const walks = db.prepare('select count(*) as n from users_walk').get() as { n: number };
    const days = db.prepare('select count(*) as n from users_day').get() as { n: number };
    db.close();
    expect(walks.n).toBe(0);
    expect(days.n).toBe(27);
    expect(stored.sort()).toEqual(referenceRows());
  }, 120_000);
});
