/** How hard the server leans on the service: which answers it retries and when, and how many requests at once. */
import { parseRetryAfter } from '../../api/errors';

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const MAX_RETRY_WAIT_MS = 5_000;

/**
 * How long to wait before retrying, or null not to retry: a Retry-After the
 * service sent is honoured (but not beyond 5 s: then its answer goes back to
 * the browser), otherwise exponential backoff with jitter.
 */
export function retryDelay(
  r: { status: number; headers: Record<string, string>; local?: boolean },
  attempt: number,
  retries: number,
): number | null {
  if (r.local || !RETRY_STATUSES.has(r.status) || attempt >= retries) return null;
  const header = r.headers['retry-after'];
  if (header !== undefined) {
    const secs = parseRetryAfter(header);
    if (secs === undefined || secs * 1000 > MAX_RETRY_WAIT_MS) return null;
    return secs * 1000;
  }
  return Math.min(MAX_RETRY_WAIT_MS, 200 * 2 ** attempt + Math.random() * 100);
}

/** A counting semaphore: at most `max` holders at once, the rest wait in order. */
export class Limiter {
  private active = 0;
  private queue: (() => void)[] = [];
  constructor(readonly max: number) {}
  async run<T>(f: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((r) => this.queue.push(r));
    this.active++;
    try {
      return await f();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }
}
