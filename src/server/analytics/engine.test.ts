/**
 * The analytics engine's copy of the store, on both stores: a catch-up says how many days it copied, and the
 * embedded store (whose driver holds the event loop while it reads) is read a bounded number of rows at a time.
 */
import { INTEGER, type DuckDBType } from '@duckdb/node-api';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { userRow as row } from '../../test/fixtures';
import { putUsersDay } from '../../test/store-days';
import { STORE_ENGINES } from '../../test/stores';
import { silentLogger } from '../core/log';
import { openAnalytics } from './engine';
import { openStore } from '../store/db';
import { startUsersWalk } from '../store/queries';

const opened: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of opened.reverse()) await c();
});

// The fixtures' row, of a person and day of its own.
const userRow = (userId: string, date: string) => row({ user_id: userId, user_email: `${userId}@acme.example`, date });

/** The rows each read of `user_day` gave. */
function readsOfUserDay(): KyselyPlugin & { reads: number[] } {
  const ids = new WeakSet<object>();
  const reads: number[] = [];
  return {
    reads,
    transformQuery(args: PluginTransformQueryArgs) {
      if (args.node.kind === 'SelectQueryNode' && JSON.stringify(args.node.from).includes('"user_day"'))
        ids.add(args.queryId);
      return args.node;
    },
    async transformResult(args: PluginTransformResultArgs) {
      if (ids.has(args.queryId)) reads.push(args.result.rows.length);
      return args.result;
    },
  };
}

describe.each(STORE_ENGINES)('the analytics copy on the $name store', ({ available, open }) => {
  it.skipIf(!available)(
    'copies a day of more people than one read takes, whole, the embedded store read a part at a time',
    async () => {
      const s = await open();
      opened.push(() => s.store.close().then(s.drop));
      const people = Array.from({ length: 4_500 }, (_, i) => `u${String(i).padStart(5, '0')}`);
      await putUsersDay(
        s.store,
        '2026-02-02',
        people.map((id) => userRow(id, '2026-02-02')),
        'v1',
      );
      await putUsersDay(
        s.store,
        '2026-02-03',
        people.slice(0, 10).map((id) => userRow(id, '2026-02-03')),
        'v1',
      );
      const plugin = readsOfUserDay();
      const analytics = await openAnalytics(
        { ...s.store, db: s.store.db.withPlugin(plugin) },
        { file: ':memory:', logger: silentLogger },
      );
      opened.push(() => analytics.close());
      expect(await analytics.catchUp()).toBe(2);
      expect(
        await analytics.rows(
          'SELECT day::VARCHAR AS day, count(*)::INTEGER AS n FROM person_day GROUP BY day ORDER BY day',
        ),
      ).toEqual([
        { day: '2026-02-02', n: 4_500 },
        { day: '2026-02-03', n: 10 },
      ]);
      expect(plugin.reads.reduce((a, b) => a + b, 0)).toBe(4_510);
      if (s.store.engine === 'sqlite') expect(Math.max(...plugin.reads)).toBeLessThanOrEqual(2_000);
      // Nothing changed: nothing copied.
      expect(await analytics.catchUp()).toBe(0);
    },
  );

  it.skipIf(!available)(
    'keeps a day walked again as it was, and what was made from the copy, until the walk stores other rows',
    async () => {
      const s = await open();
      opened.push(() => s.store.close().then(s.drop));
      const day = '2026-02-02';
      const rows = ['a', 'b', 'c'].map((id) => userRow(id, day));
      await putUsersDay(s.store, day, rows, 'v1');
      const analytics = await openAnalytics(s.store, { file: ':memory:', logger: silentLogger });
      opened.push(() => analytics.close());
      await analytics.catchUp();
      const count = async () =>
        (await analytics.rows<{ n: number }>('SELECT count(*)::INTEGER AS n FROM person_day'))[0]!.n;
      const g0 = analytics.generation();

      // The sync walks the day again: while it runs the store serves it no more, the copy keeps it as it was.
      await startUsersWalk(s.store.db, day, day);
      await analytics.catchUp();
      await analytics.catchUp({ start: day, end: day });
      expect(await count()).toBe(3);
      expect(analytics.generation()).toBe(g0);
      // Stored again with the same rows: copied (its version moved), nothing made from the copy is made again.
      await putUsersDay(s.store, day, rows, 'v2');
      await s.store.db.deleteFrom('users_walk').execute();
      expect(await analytics.catchUp()).toBe(1);
      expect(analytics.generation()).toBe(g0);
      // Stored with other rows: the copy changed.
      await putUsersDay(s.store, day, rows.slice(0, 2), 'v3');
      expect(await analytics.catchUp()).toBe(1);
      expect(await count()).toBe(2);
      expect(analytics.generation()).toBeGreaterThan(g0);
      // Gone from the store with no walk under way: dropped.
      const g1 = analytics.generation();
      await s.store.db.deleteFrom('users_day').execute();
      expect(await analytics.catchUp()).toBe(1);
      expect(await count()).toBe(0);
      expect(analytics.generation()).toBeGreaterThan(g1);
    },
  );
});

describe('the analytics engine closed', () => {
  it('refuses a table made after close, and one queued behind it, never running either on a closed connection', async () => {
    const store = await openStore({ dataDir: ':memory:' });
    const analytics = await openAnalytics(store, { file: ':memory:', logger: silentLogger });
    const columns: [string, DuckDBType][] = [['x', INTEGER]];
    // One making under way, one queued behind it, then close (its turn comes before the queued one's), then another.
    const first = analytics.replaceTable('first', columns, [[1]]);
    const queued = analytics.replaceTable('queued', columns, [[2]]);
    const closing = analytics.close();
    await first;
    await expect(queued).rejects.toThrow('the analytics engine is closed');
    await closing;
    await expect(analytics.replaceTable('after', columns, [[3]])).rejects.toThrow('the analytics engine is closed');
    await store.close();
  });
});
