/**
 * Reads of the embedded store that take long, in a worker thread: better-sqlite3 is synchronous, so
 * building a range's merged users table (about half a second at 5,000 users × 90 days, 4 s at
 * 50,000) in the server's thread would hold every other request meanwhile. The worker opens the
 * same file read-only and runs the very same query code; the server's thread goes on answering
 * (and builds the spend of that range at the same time).
 *
 * Started on first use. If the thread cannot start or fails, the reads run in the server's thread
 * again (logged once): slower, never wrong.
 */
import { Worker } from 'node:worker_threads';
import type { MergedUser } from '../../lib/user-merge';
import type { Logger } from '../core/log';

export interface ReadRequest {
  id: number;
  start: string;
  end: string;
}
export type ReadAnswer =
  | { id: number; users: MergedUser[] }
  | { id: number; error: string }
  | { id: number; ready: true }
  /** The thread could not open the store. */
  | { id: 0; failed: string };

type MergeRead = (start: string, end: string) => Promise<MergedUser[]>;

export interface ReadWorker {
  mergedUsers: MergeRead;
  /** Where the reads run now. */
  state(): 'idle' | 'worker' | 'in-process';
  close(): Promise<void>;
}

/** A read worker on the SQLite file at `path`; `inProcess` is the same read in the server's thread. */
export function createReadWorker(path: string, inProcess: MergeRead, logger: Logger): ReadWorker {
  let worker: Worker | undefined;
  let failed = false;
  let next = 1;
  const waiting = new Map<number, { req: ReadRequest; ok: (u: MergedUser[]) => void; fail: (e: Error) => void }>();

  /** From now on in the server's thread: what was asked of the worker is read again here. */
  function giveUp(why: string) {
    if (!failed) logger.error('store read worker stopped; reading in the server thread', { error: why });
    failed = true;
    const w = worker;
    worker = undefined;
    void w?.terminate();
    for (const [id, p] of waiting) {
      waiting.delete(id);
      inProcess(p.req.start, p.req.end).then(p.ok, p.fail);
    }
  }

  function start(): Worker {
    const w = new Worker(new URL('./read-worker-entry.mjs', import.meta.url), { workerData: { path } });
    // The server ends when it is told to, whatever this thread is doing.
    w.unref();
    w.on('message', (m: ReadAnswer) => {
      if ('ready' in m) return;
      if ('failed' in m) return giveUp(m.failed);
      const p = waiting.get(m.id);
      if (!p) return;
      waiting.delete(m.id);
      if ('error' in m) p.fail(new Error(m.error));
      else p.ok(m.users);
    });
    // What the thread threw arrives as a copy, not always an Error.
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

  return {
    mergedUsers(startDay, endDay) {
      if (failed) return inProcess(startDay, endDay);
      worker ??= start();
      const req = { id: next++, start: startDay, end: endDay };
      const w = worker;
      return new Promise<MergedUser[]>((ok, fail) => {
        waiting.set(req.id, { req, ok, fail });
        w.postMessage(req);
      });
    },
    state: () => (failed ? 'in-process' : worker ? 'worker' : 'idle'),
    async close() {
      const w = worker;
      worker = undefined;
      failed = true;
      for (const [id, p] of waiting) {
        waiting.delete(id);
        p.fail(new Error('the store read worker was closed'));
      }
      await w?.terminate();
    },
  };
}
