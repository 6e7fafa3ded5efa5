/**
 * The sync engine's failures: which fills waiting behind a failed one are given its failure (the service's
 * refusals, not a broken answer about other days), and what `GET /api/sync` says of the last one (a plain
 * sentence; the internal text only in the log). The demo service is the upstream, in-process, and the
 * embedded store is in memory.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse } from '../core/errors';
import { createLogger } from '../core/log';
import { DEFAULT_KEYS } from '../demo/auth';
import { createDemoService } from '../demo/service';
import { openStore, type StoreDb } from '../store/db';
import { claimStore } from '../store/queries';
import { createSyncEngine, FillFailed, type Fetched } from './engine';

/** A write to the store that fails with this error, when set. */
const writes = vi.hoisted(() => ({ fail: undefined as Error | undefined }));
vi.mock('../store/queries', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../store/queries')>();
  return {
    ...actual,
    writeDays: (...args: Parameters<typeof actual.writeDays>) => {
      if (writes.fail) return Promise.reject(writes.fail);
      return actual.writeDays(...args);
    },
  };
});

const demo = createDemoService({
  seed: 'engine-test',
  users: 20,
  repos: 4,
  reportsPerRepo: 4,
  today: '2026-04-01',
  keys: DEFAULT_KEYS,
});
const direct = (path: string, search: string) =>
  demo.handle({ method: 'GET', url: path + search, headers: { authorization: 'Bearer demo-owner' } }) as Fetched;

const A = { start: '2026-03-01', end: '2026-03-07' };
const B = { start: '2026-03-08', end: '2026-03-14' };

let store: StoreDb;
beforeEach(async () => {
  store = await openStore({ dataDir: ':memory:' });
  await claimStore(store.db, 'demo seed=engine-test');
});
afterEach(async () => {
  writes.fail = undefined;
  await store.close();
});

/**
 * An engine whose upstream answers the days starting at `A.start` with `first` once `release` is called
 * (every other question as the demo does), and that counts what it is asked.
 */
function setup(first: (path: string, search: string) => Fetched) {
  const asked: string[] = [];
  const logs: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((ok) => (release = ok));
  const engine = createSyncEngine(
    store,
    async (path, search) => {
      asked.push(search);
      if (new URLSearchParams(search).get('startDate') !== A.start) return direct(path, search);
      await held;
      return first(path, search);
    },
    {
      latestDay: () => '2026-03-31',
      refreshDays: 2,
      maxSpanDays: 31,
      usersPageSize: 10,
      reportsPageSize: 10,
      logger: createLogger((l) => logs.push(l)),
    },
  );
  /** Fills A, and B once A's request is under way (B waits for the lock), then lets A's answer come. */
  async function both() {
    const a = engine.fillDays('tokens', '', A, false);
    while (asked.length === 0) await sleep(5);
    const b = engine.fillDays('tokens', '', B, false);
    await sleep(50); // B has found its days missing and queued behind A
    release();
    return Promise.allSettled([a, b]);
  }
  return { engine, asked, logs, both };
}

const failure = (s: PromiseSettledResult<void>) => {
  expect(s.status).toBe('rejected');
  const e = (s as PromiseRejectedResult).reason as unknown;
  expect(e).toBeInstanceOf(FillFailed);
  return e as FillFailed;
};

describe('a fill that waited behind a failed fill of the same kind', () => {
  it.each([
    ['a 200 whose body breaks the schema', (): Fetched => ({ status: 200, headers: {}, body: '{"data":"rows?"}' })],
    [
      'a body cut off on its way',
      (path: string, search: string): Fetched => ({ ...direct(path, search), incomplete: true }),
    ],
  ])('fills its own days when the failure was %s (a broken answer is about its days only)', async (_, first) => {
    const { engine, asked, both } = setup(first);
    const [a, b] = await both();
    expect(failure(a).answer.status).toBe(200);
    expect(b.status).toBe('fulfilled');
    expect(asked.some((s) => s.includes(`startDate=${B.start}`))).toBe(true);
    expect(await engine.daysStored('tokens', '', B)).toBe(true);
    expect(await engine.daysStored('tokens', '', A)).toBe(false);
  });

  it.each([429, 500, 503])(
    'is given the service’s refusal (%i) without asking again: a refusing service is not asked more',
    async (status) => {
      const { asked, both } = setup(() => errorResponse(status, 'Try again later.'));
      const [a, b] = await both();
      expect(failure(b)).toBe(failure(a));
      expect(failure(a).answer.status).toBe(status);
      expect(asked).toHaveLength(1);
    },
  );
});

describe('the last error /api/sync shows', () => {
  const label = `tokens ${A.start}…${A.end}`;
  it('names the service’s refusal by its status and the service’s own detail', async () => {
    const { engine, both } = setup(() => errorResponse(503, 'The service is down for maintenance.'));
    await both();
    expect(engine.activity.lastError?.message).toBe(
      `${label}: the service answered 503: The service is down for maintenance.`,
    );
  });

  it('says what was wrong with an answer that could not be stored', async () => {
    const { engine, both } = setup(() => ({ status: 200, headers: {}, body: '{"data":"rows?"}' }));
    await both();
    expect(engine.activity.lastError?.message).toBe(
      `${label}: the service’s answer was not of the documented shape, so it was not stored`,
    );
  });

  it.each([
    [
      'a store that cannot be reached',
      Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432'), { code: 'ECONNREFUSED' }),
      'the store cannot be reached',
    ],
    [
      'a full disk',
      Object.assign(new Error('database or disk is full at /srv/private/data.db'), { code: 'SQLITE_FULL' }),
      'the store’s disk is full',
    ],
    [
      'anything else',
      new Error('relation "secret_table" does not exist (db.internal.example:5432)'),
      'an internal error (see the server log)',
    ],
  ])('says %s in a plain sentence; the internal text is in the log only', async (_, error, said) => {
    const { engine, logs } = setup(direct);
    writes.fail = error;
    await expect(engine.fillDays('tokens', '', B, false)).rejects.toBe(error);
    const shown = engine.activity.lastError!.message;
    expect(shown).toBe(`tokens ${B.start}…${B.end}: ${said}`);
    expect(shown).not.toContain(error.message);
    expect(
      logs.some((l) => l.includes('"level":"error"') && l.includes(JSON.stringify(error.message).slice(1, -1))),
    ).toBe(true);
  });
});
