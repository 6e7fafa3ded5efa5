/**
 * The store's answers are compressed once, not once per reader: every reader of
 * a kept answer gets the same bytes (brotli when it accepts it, else gzip),
 * and a write of the sync gives the next reader the new body's bytes, never
 * the old ones.
 */
import type { ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PATHS } from '../../api/paths';
import { addDays } from '../../lib/dates';
import { send, type HttpResponse } from '../core/response';
import { DEFAULT_KEYS } from '../demo/auth';
import { createDemoService } from '../demo/service';
import { openStore, type StoreDb } from '../store/db';
import { claimStore } from '../store/queries';
import { createSyncEngine, type Fetched } from './engine';
import { createStoreAnswerer } from './serve';

/** Every compression the server makes, counted (and still made). */
const zlib = vi.hoisted(() => ({ calls: { gzip: 0, gzipSync: 0, brotliCompress: 0 } }));
vi.mock('node:zlib', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:zlib')>();
  const counted =
    <A extends unknown[], R>(name: keyof typeof zlib.calls, f: (...args: A) => R) =>
    (...args: A): R => {
      zlib.calls[name]++;
      return f(...args);
    };
  return {
    ...actual,
    gzip: counted('gzip', actual.gzip),
    gzipSync: counted('gzipSync', actual.gzipSync),
    brotliCompress: counted('brotliCompress', actual.brotliCompress),
  };
});
const compressions = () => zlib.calls.gzip + zlib.calls.gzipSync + zlib.calls.brotliCompress;

const TODAY = '2026-03-20';
const demo = createDemoService({
  seed: 'compressed-test',
  users: 40,
  repos: 6,
  reportsPerRepo: 8,
  today: TODAY,
  keys: DEFAULT_KEYS,
});
const LATEST = demo.latestDay();
const direct = (path: string, search: string) =>
  demo.handle({ method: 'GET', url: path + search, headers: { authorization: 'Bearer demo-owner' } });

/** What Chromium sends to this server (brotli is offered over HTTPS and to localhost). */
const BROWSER = 'gzip, deflate, br, zstd';

/** Writes an answer with `send` to a stand-in response: status, headers and what was given to `end`. */
function wire(r: HttpResponse, acceptEncoding: string, head = false) {
  const headers: Record<string, string | number> = {};
  let sent: Buffer | string | undefined;
  const res = {
    statusCode: 0,
    setHeader: (k: string, v: string | number) => void (headers[k] = v),
    end: (b?: Buffer | string) => void (sent = b),
  };
  send(res as unknown as ServerResponse, r, head, acceptEncoding);
  return { status: res.statusCode, headers, sent };
}

/** The body a client reads from what was written. */
function decoded(w: ReturnType<typeof wire>): string {
  const coding = w.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(w.sent as Buffer).toString('utf8');
  if (coding === 'gzip') return gunzipSync(w.sent as Buffer).toString('utf8');
  return String(w.sent);
}

describe('compressed answers from the store', () => {
  let store: StoreDb;
  beforeEach(async () => {
    store = await openStore({ dataDir: ':memory:' });
    await claimStore(store.db, 'demo seed=compressed-test');
  });
  afterEach(async () => {
    await store.close();
  });

  function setup() {
    let alter: ((path: string, r: Fetched) => Fetched) | undefined;
    const fetcher = async (path: string, search: string): Promise<Fetched> => {
      const r = direct(path, search);
      return alter ? alter(path, r) : r;
    };
    const engine = createSyncEngine(store, fetcher, {
      latestDay: () => LATEST,
      refreshDays: 2,
      maxSpanDays: 31,
      usersPageSize: 25,
      reportsPageSize: 25,
    });
    const answer = createStoreAnswerer(store, engine, () => LATEST);
    return { engine, answer, alterWith: (f: typeof alter) => (alter = f) };
  }

  const range = { start: addDays(LATEST, -9), end: LATEST };
  const search = `?startDate=${range.start}&endDate=${range.end}`;
  /** The range stored: an answer read while its days were being written is not kept. */
  const stored = async (engine: ReturnType<typeof setup>['engine']) => engine.fillDays('tokens', '', range, false);

  it('compresses a kept answer once: every later reader gets the same bytes, in the coding it accepts', async () => {
    const { engine, answer } = setup();
    await stored(engine);
    const first = (await answer(PATHS.tokens, search))!;
    expect(first.body.length).toBeGreaterThan(1024);
    expect(JSON.parse(first.body)).toEqual(JSON.parse(direct(PATHS.tokens, search).body));
    const br = wire(first, BROWSER);
    const gz = wire(first, 'gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    for (const w of [br, gz]) {
      expect(decoded(w)).toBe(first.body);
      expect(w.headers['content-length']).toBe((w.sent as Buffer).length);
      expect(w.headers.vary).toBe('accept-encoding');
    }

    const before = compressions();
    for (let i = 0; i < 50; i++) {
      const again = (await answer(PATHS.tokens, search))!;
      expect(again).toBe(first);
      // The very bytes made the first time, not a copy made again.
      expect(wire(again, BROWSER).sent).toBe(br.sent);
      expect(wire(again, 'gzip').sent).toBe(gz.sent);
    }
    expect(compressions()).toBe(before);

    // HEAD: the headers of the coded body, no body.
    const head = wire(first, BROWSER, true);
    expect(head.sent).toBeUndefined();
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe((br.sent as Buffer).length);
  });

  it('a crowd of readers of an answer not yet kept builds and compresses it once', async () => {
    const { engine, answer } = setup();
    await stored(engine);
    const before = { ...zlib.calls };
    const all = await Promise.all(Array.from({ length: 30 }, () => answer(PATHS.tokens, search)));
    expect(new Set(all).size).toBe(1);
    // Once each for gzip and brotli, off the event loop; nothing compressed on it.
    expect(zlib.calls.gzip - before.gzip).toBe(1);
    expect(zlib.calls.brotliCompress - before.brotliCompress).toBe(1);
    expect(zlib.calls.gzipSync - before.gzipSync).toBe(0);
    expect(decoded(wire(all[0]!, BROWSER))).toBe(all[0]!.body);
  });

  it('an answer read again after its minute, unchanged, keeps the bytes it had', async () => {
    const { engine, answer } = setup();
    await stored(engine);
    const first = (await answer(PATHS.tokens, search))!;
    const bytes = wire(first, BROWSER).sent;
    const before = compressions();
    const later = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 61_000);
    try {
      const again = (await answer(PATHS.tokens, search))!;
      expect(again).toBe(first);
      expect(wire(again, BROWSER).sent).toBe(bytes);
    } finally {
      later.mockRestore();
    }
    expect(compressions()).toBe(before);
  });

  it('after the sync writes, readers get the new body and its bytes, never the old ones', async () => {
    const { engine, answer, alterWith } = setup();
    await stored(engine);
    const old = (await answer(PATHS.tokens, search))!;
    const oldBr = wire(old, BROWSER);
    const oldGz = wire(old, 'gzip');
    expect(old.body).not.toContain('987654321');

    // The service revises its recent days; the sync asks for them again and writes them.
    alterWith((path, r) => {
      if (path !== PATHS.tokens) return r;
      const body = JSON.parse(r.body) as { data: { billable_tokens: number }[] };
      for (const row of body.data) row.billable_tokens = 987654321;
      return { ...r, body: JSON.stringify(body) };
    });
    await engine.fillDays('tokens', '', range, true);

    const now = (await answer(PATHS.tokens, search))!;
    expect(now).not.toBe(old);
    expect(now.body).toContain('987654321');
    for (const coding of [BROWSER, 'gzip']) {
      const w = wire(now, coding);
      expect(decoded(w)).toBe(now.body);
      expect(w.sent).not.toBe(coding === 'gzip' ? oldGz.sent : oldBr.sent);
    }
    // Kept in turn: the next reader gets these bytes again.
    const again = (await answer(PATHS.tokens, search))!;
    expect(again).toBe(now);
    expect(wire(again, BROWSER).sent).toBe(wire(now, BROWSER).sent);
  });
});

describe('send', () => {
  const big: HttpResponse = { status: 200, headers: {}, body: JSON.stringify({ data: 'x'.repeat(4000) }) };

  it('honours what the client accepts: q=0 refuses a coding, and identity is sent as it is', () => {
    expect(wire(big, 'gzip;q=0').headers['content-encoding']).toBeUndefined();
    expect(wire(big, 'identity').headers['content-encoding']).toBeUndefined();
    expect(wire(big, '').sent).toBe(big.body);
    expect(wire(big, 'br;q=0, gzip').headers['content-encoding']).toBe('gzip');
    // Brotli only for answers kept compressed; any other answer is gzipped when it may be.
    expect(wire(big, BROWSER).headers['content-encoding']).toBe('gzip');
    expect(decoded(wire(big, BROWSER))).toBe(big.body);
  });

  it('leaves a small answer uncompressed', () => {
    const small: HttpResponse = { status: 200, headers: {}, body: '{"ok":true}' };
    const w = wire(small, BROWSER);
    expect(w.headers['content-encoding']).toBeUndefined();
    expect(w.sent).toBe(small.body);
  });
});
