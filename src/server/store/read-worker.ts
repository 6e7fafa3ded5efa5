/**
 * Reads of the embedded store that take long, in a worker thread: better-sqlite3 is synchronous, so
 * building a range's merged users table or pricing its people's `/tokens` credits in the server's
 * thread would hold every other request meanwhile, static files included. The worker opens the same
 * file read-only and keeps the days it reads in memory, column by column (day-columns.ts): a range's
 * table is then a pass over memory (tens of milliseconds at 5,000 users × 90 days), and the server's
 * thread goes on answering meanwhile.
 *
 * It does one read at a time: the reads a reader waits for first, then the tables built ahead and the
 * days read ahead. If the thread cannot start, fails, or leaves a read unanswered for a minute, the
 * reads run in the server's thread again (logged once), from SQL: slower, never wrong.
 */
import { Worker } from 'node:worker_threads';

/**
 * The thread's entry: from source (tsx, Vitest) a plain-JavaScript shim that loads the TypeScript through tsx;
 * in the compiled server (`dist-server/`, scripts/build-server.ts) the thread's own compiled file.
 */
const THREAD_ENTRY = import.meta.url.endsWith('.ts')
  ? new URL('./read-worker-entry.mjs', import.meta.url)
  : new URL('./store/read-worker-thread.js', import.meta.url);
import type { MergedUser } from '../../lib/user-merge';
import type { Logger } from '../core/log';
import type { PriceList } from '../spend/prices';
import { toMergedUsers, type MergedColumns } from './day-columns';

export type ReadRequest =
  | { id: number; kind: 'merged'; start: string; end: string }
  | { id: number; kind: 'spend'; start: string; end: string; prices: PriceList }
  | { id: number; kind: 'preload'; what: 'users' | 'tokens'; start: string; end: string };
export type ReadAnswer =
  | { id: number; users: MergedUser[] }
  /** The thread's table, as columns (typed arrays cross without a copy); made rows in the server's thread. */
  | { id: number; columns: MergedColumns }
  | { id: number; spend: Map<string, number> }
  | { id: number; preloaded: boolean }
  | { id: number; error: string }
  /** The thread could not open the store. */
  | { id: 0; failed: string };

/**
 * The reads, as the server's thread does them (the worker's stand-in). `background`: a read for a
 * table built ahead, which waits behind the reads a reader is waiting for.
 */
export interface StoreReads {
  mergedUsers(start: string, end: string, background?: boolean): Promise<MergedUser[]>;
  /** Each user's spend over the range at these prices, by user id. */
  spendByUser(start: string, end: string, prices: PriceList, background?: boolean): Promise<Map<string, number>>;
}

export interface ReadWorker extends StoreReads {
  /**
   * Has the thread read the `/users` or `/tokens` days of [start, end] into its memory ahead of any reader,
   * after every read a reader waits for: false when it has no room left for them (or reads in this thread).
   */
  preload(what: 'users' | 'tokens', start: string, end: string): Promise<boolean>;
  /** Starts the thread now (loading its code takes most of a second), so that the first read does not wait for it. */
  start(): void;
  /** Where the reads run now. */
  state(): 'idle' | 'worker' | 'in-process';
  close(): Promise<void>;
}

/** A read left unanswered this long means the thread is stuck: the reads go back to the server's thread. */
const READ_TIMEOUT_MS = 60_000;

type Pending = { req: ReadRequest; ok: (a: ReadAnswer) => void; fail: (e: Error) => void; timer?: NodeJS.Timeout };

/** A read worker on the SQLite file at `path`; `inProcess` does the same reads in the server's thread. */
export function createReadWorker(
  path: string,
  inProcess: StoreReads,
  logger: Logger,
  opts: { /** Bytes the thread's kept days may hold (day-columns.ts). */ maxBytes?: number } = {},
): ReadWorker {
  let worker: Worker | undefined;
  let failed = false;
  let next = 1;
  /** The read the thread is doing (one at a time: SQLite reads one way per connection anyway). */
  const waiting = new Map<number, Pending>();
  /** Reads not yet handed to the thread: those a reader waits for first, then the ones built ahead. */
  const queued: { now: Pending[]; later: Pending[] } = { now: [], later: [] };

  /** A request read in the server's thread, answered as the worker would. */
  const here = (r: ReadRequest): Promise<ReadAnswer> =>
    r.kind === 'merged'
      ? inProcess.mergedUsers(r.start, r.end).then((users) => ({ id: r.id, users }))
      : r.kind === 'spend'
        ? inProcess.spendByUser(r.start, r.end, r.prices).then((spend) => ({ id: r.id, spend }))
        : // The server's thread keeps no days in memory: nothing to read ahead.
          Promise.resolve({ id: r.id, preloaded: false });

  /** From now on in the server's thread: what was asked of the worker is read again here. */
  function giveUp(why: string) {
    if (!failed) logger.error('store read worker stopped; reading in the server thread', { error: why });
    failed = true;
    const w = worker;
    worker = undefined;
    void w?.terminate();
    const left = [...waiting.values(), ...queued.now.splice(0), ...queued.later.splice(0)];
    waiting.clear();
    for (const p of left) {
      clearTimeout(p.timer);
      here(p.req).then(p.ok, p.fail);
    }
  }

  /** Hands the thread its next read when it is free. */
  function pump() {
    if (failed || waiting.size > 0) return;
    const p = queued.now.shift() ?? queued.later.shift();
    if (!p) return;
    try {
      worker ??= spawn();
    } catch (e) {
      queued.now.unshift(p);
      return giveUp(e instanceof Error ? e.message : String(e));
    }
    p.timer = setTimeout(() => giveUp(`no answer in ${READ_TIMEOUT_MS / 1000} s`), READ_TIMEOUT_MS);
    p.timer.unref();
    waiting.set(p.req.id, p);
    worker.postMessage(p.req);
  }

  function spawn(): Worker {
    const w = new Worker(THREAD_ENTRY, {
      workerData: { path, maxBytes: opts.maxBytes },
    });
    // The server ends when it is told to, whatever this thread is doing.
    w.unref();
    w.on('message', (m: ReadAnswer) => {
      if ('failed' in m) return giveUp(m.failed);
      const p = waiting.get(m.id);
      if (!p) return;
      waiting.delete(m.id);
      clearTimeout(p.timer);
      if ('error' in m) p.fail(new Error(m.error));
      else p.ok(m);
      pump();
    });
    // What the thread threw arrives as a copy: not always an Error, sometimes only its code.
    w.on('error', (e: unknown) => {
      const x = (e ?? {}) as { message?: unknown; code?: unknown };
      giveUp(String(x.message ?? x.code ?? e));
    });
    w.on('exit', (code) => {
      if (worker === w) giveUp(`the thread exited (code ${code})`);
    });
    return w;
  }

  function ask(req: ReadRequest, background: boolean): Promise<ReadAnswer> {
    if (failed) return here(req);
    return new Promise<ReadAnswer>((ok, fail) => {
      (background ? queued.later : queued.now).push({ req, ok, fail });
      pump();
    });
  }

  return {
    async mergedUsers(s, e, background = false) {
      const a = await ask({ id: next++, kind: 'merged', start: s, end: e }, background);
      return 'columns' in a ? toMergedUsers(a.columns) : 'users' in a ? a.users : [];
    },
    async spendByUser(s, e, prices, background = false) {
      const a = await ask({ id: next++, kind: 'spend', start: s, end: e, prices }, background);
      return 'spend' in a ? a.spend : new Map();
    },
    async preload(what, s, e) {
      const a = await ask({ id: next++, kind: 'preload', what, start: s, end: e }, true);
      return 'preloaded' in a && a.preloaded;
    },
    start() {
      if (failed || worker) return;
      try {
        worker = spawn();
      } catch (e) {
        giveUp(e instanceof Error ? e.message : String(e));
      }
    },
    state: () => (failed ? 'in-process' : worker ? 'worker' : 'idle'),
    async close() {
      const w = worker;
      worker = undefined;
      failed = true;
      const left = [...waiting.values(), ...queued.now.splice(0), ...queued.later.splice(0)];
      waiting.clear();
      for (const p of left) {
        clearTimeout(p.timer);
        p.fail(new Error('the store read worker was closed'));
      }
      await w?.terminate();
    },
  };
}
