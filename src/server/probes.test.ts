/**
 * `/readyz`'s store check: probes close together share one ping of the store (a PostgreSQL ping waits for a
 * connection of the pool, which a sync holds), a failed ping is not kept, and an answer a second old is asked again.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from './core/metrics';
import { createProbes } from './probes';
import { NO_PRICES } from './spend/source';
import type { StoreDb } from './store/db';

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

/**
 * A server answering the probes over a store whose pings are counted, each failing while `down` is set; while `hold`
 * is set a ping waits until it is called.
 */
async function probing() {
  const store: { pings: number; down: boolean; hold?: Promise<void> } = { pings: 0, down: false };
  const fake = {
    ping: async () => {
      store.pings++;
      const failing = store.down;
      await store.hold;
      if (failing) throw new Error('connection refused');
    },
  } as unknown as StoreDb;
  const probes = createProbes({
    metrics: createMetrics(),
    metricsToken: undefined,
    latestDay: () => '2026-11-29',
    store: fake,
    mappingLoaded: () => true,
    stopping: () => false,
    pricesFile: undefined,
    prices: NO_PRICES,
  });
  server = createServer((req, res) => void probes(req, res));
  await new Promise<void>((ok) => server!.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  const readyz = async () => {
    const r = await fetch(`${base}/readyz`);
    return { status: r.status, body: (await r.json()) as { detail?: string } };
  };
  return { store, readyz };
}

describe('/readyz and the store', () => {
  it('shares one ping among the probes of a second, and asks again after it', async () => {
    const { store, readyz } = await probing();
    const answers = await Promise.all(Array.from({ length: 10 }, readyz));
    expect(answers.map((a) => a.status)).toEqual(new Array(10).fill(200));
    expect((await readyz()).status).toBe(200);
    expect(store.pings).toBe(1);
    await new Promise((r) => setTimeout(r, 1_050));
    store.down = true;
    expect(await readyz()).toEqual({
      status: 503,
      body: expect.objectContaining({ detail: 'Not ready: store: it does not answer.' }),
    });
    expect(store.pings).toBe(2);
  });

  it('keeps a newer ping when an older one fails late', async () => {
    const { store, readyz } = await probing();
    let release = () => {};
    store.hold = new Promise<void>((r) => (release = r));
    store.down = true;
    const slow = readyz();
    await new Promise((r) => setTimeout(r, 1_050));
    store.hold = undefined;
    store.down = false;
    // A second on: the held ping is too old to share, a new one answers.
    expect((await readyz()).status).toBe(200);
    release();
    expect((await slow).status).toBe(503);
    // The old ping's failure leaves the newer answer shared.
    expect((await readyz()).status).toBe(200);
    expect(store.pings).toBe(2);
  });

  it('keeps no failed ping: the next probe asks the store again', async () => {
    const { store, readyz } = await probing();
    store.down = true;
    expect((await readyz()).status).toBe(503);
    store.down = false;
    expect((await readyz()).status).toBe(200);
    expect(store.pings).toBe(2);
  });
});
