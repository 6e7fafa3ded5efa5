/**
 * The demo service as the dashboard's origin, called in-process instead of
 * over HTTP. Its injected latency and hangs are bounded by the same timeout
 * as a real upstream, so they end in the same 504; a truncated answer goes
 * on to `writeDemoResponse`, which the composition root (app.ts) uses to
 * write the demo's answers.
 */
import { setImmediate as letGo } from 'node:timers/promises';
import { timeoutAnswer, type Origin } from '../upstream/proxy';
import type { DemoResponse } from './faults';
import type { DemoService } from './service';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function embeddedOrigin(demo: DemoService, timeoutMs: number): Origin<DemoResponse> {
  return async ({ method, path, search, authorization }) => {
    // A turn of the event loop first, as a real service's answer takes: a sync asking thousands of
    // questions in a row would otherwise run as one chain of promises, and the server would answer
    // no one (a page, a health check, the analytics engine) until the whole backfill was done.
    await letGo();
    // The organization is built a part at a time after the server starts: its first questions wait for it.
    await demo.ready();
    // Without a key from the server or the browser, the demo's own owner key: the demo needs no setup.
    const r = demo.handle({
      method,
      url: path + search,
      headers: { authorization: authorization ?? 'Bearer demo-owner' },
    });
    // And the answer read in a turn of its own, as a real one arrives: a year's day of 50,000 people made and then
    // read in one go held health checks for half a second.
    await letGo();
    if (r.fault === 'hang' || (r.delayMs ?? 0) >= timeoutMs) {
      await sleep(timeoutMs);
      return timeoutAnswer(timeoutMs);
    }
    if (r.delayMs) await sleep(r.delayMs);
    return r;
  };
}
