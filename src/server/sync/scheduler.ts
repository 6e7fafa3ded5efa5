/**
 * The background sync: on start a backfill from the history start, newest
 * first (so recent ranges are ready first), and again each day shortly after
 * the UTC day ends. Each run asks again for the refresh window's days. A
 * failure is logged and recorded, and the run goes on with the next range;
 * but a store that cannot be reached (a restart, a failover) is waited for
 * first: the fill is tried again with backoff, a few times. (The service's
 * refusals are not: the upstream retry policy has asked again already.)
 */
import { HISTORY_START, type Day, type DayRange } from '../../lib/dates';
import { faultKind } from '../core/errors';
import { errorText, type Logger } from '../core/log';
import { DAY_ENDPOINTS, type DayEndpoint, type SyncEngine } from './engine';
import { newestFirst } from './spans';

/** Days per backfill step: two weeks of every endpoint, then the two weeks before (bounds the memory one step holds). */
const STEP_DAYS = 14;
/** After midnight UTC, wait this long: the service's day may take a moment to close. */
const AFTER_MIDNIGHT_MS = 15 * 60_000;
/** A fill that could not reach the store is tried again this often: after 1, 2, 4, 8 and 16 s (31 s in all). */
const RETRIES = 5;

export interface SyncRun {
  range: DayRange;
  startedAt: string;
  finishedAt: string | undefined;
  failures: number;
}

/**
 * `stored`: told after each step of a run (its days are in the store), so that what is kept ready from the
 * store (the users tables, the analytics copy) follows the backfill.
 */
export function createScheduler(
  engine: SyncEngine,
  latestDay: () => Day,
  logger: Logger,
  stored?: () => void,
  /** The first wait before a fill is tried again; doubled each time. */
  retryMs = 1000,
  /** Told after each whole run (the backfill at start, then each daily one): the alerts are checked then. */
  finished?: (r: SyncRun) => void,
) {
  let current: SyncRun | undefined;
  let last: SyncRun | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  /** Every endpoint, `/users` and readiness over the range, newest step first. */
  async function run(range: DayRange): Promise<SyncRun> {
    const r: SyncRun = { range, startedAt: new Date().toISOString(), finishedAt: undefined, failures: 0 };
    current = r;
    const attempt = async (fill: () => Promise<void>) => {
      for (let n = 0; ; n++) {
        try {
          return await fill();
        } catch (e) {
          const again = faultKind(e) === 'store-unavailable' && n < RETRIES && !stopped;
          const retryInMs = again ? retryMs * 2 ** n : undefined;
          logger.error('sync step failed', { error: errorText(e), retryInMs });
          if (!again) {
            r.failures++;
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, retryInMs));
        }
      }
    };
    try {
      for (const step of newestFirst(range, STEP_DAYS)) {
        if (stopped) break;
        const fills = Object.entries(DAY_ENDPOINTS).flatMap(([endpoint, groupings]) =>
          groupings.map((g) => attempt(() => engine.fillDays(endpoint as DayEndpoint, g, step, true))),
        );
        await Promise.all([...fills, attempt(() => engine.fillUsers(step, true))]);
        stored?.();
      }
      if (!stopped) await attempt(() => engine.syncReadiness());
    } finally {
      r.finishedAt = new Date().toISOString();
      current = undefined;
      last = r;
      logger.info('sync finished', { start: range.start, end: range.end, failures: r.failures });
    }
    if (!stopped) finished?.(r);
    return r;
  }

  const everything = (): DayRange => ({ start: HISTORY_START, end: latestDay() });

  function scheduleNext() {
    if (stopped) return;
    const now = Date.now();
    const nextMidnight = Math.floor(now / 86_400_000 + 1) * 86_400_000;
    timer = setTimeout(
      () => {
        void run(everything()).finally(scheduleNext);
      },
      nextMidnight + AFTER_MIDNIGHT_MS - now,
    );
    timer.unref?.();
  }

  return {
    run,
    /** Backfill now, then daily. */
    start() {
      void run(everything()).finally(scheduleNext);
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
    status: () => ({ current, last }),
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
