/**
 * Whether the store holds every day of a range for the users endpoints, and
 * if not, the walk that fills it: started by the first request that needs it,
 * shared by the requests that follow, waited for briefly (a small
 * organization's range is usually there before the answer is due), and its
 * failure told once to whoever asks next, so a Retry starts a new walk.
 */
import { PATHS } from '../../api/paths';
import { describeZodError } from '../../api/errors';
import { usersResponseSchema } from '../../api/schemas';
import type { FillProgress } from '../../api/users';
import { daysBetween, type DayRange } from '../../lib/dates';
import { AnswerError, errorResponse, faultResponse } from '../core/errors';
import type { Logger } from '../core/log';
import type { HttpResponse } from '../core/response';
import type { StoreDb } from '../store/db';
import { StoreMismatchError } from '../store/queries';
import { rangeVersion, type RangeVersion } from '../store/users-queries';
import { FillFailed, type Fetched, type SyncEngine } from '../sync/engine';

export type RangeState =
  { complete: true; version: RangeVersion } | { complete: false; version: RangeVersion; progress: FillProgress };

/** Failures are told once; one nobody came back for is forgotten after this long. */
const FAILURE_KEPT_MS = 5 * 60_000;

/**
 * What the reader is told when the walk could not store the service's answer:
 * the service's own error as it gave it, or what was wrong with a 200 that
 * could not be stored (it names the endpoint and the field, as the browser
 * would have on its own walk); anything else is logged, and the reader told its request id.
 */
export function failureAnswer(e: unknown, logger: Logger): HttpResponse {
  if (e instanceof FillFailed) {
    const a: Fetched = e.answer;
    if (a.status !== 200) return a;
    if (a.incomplete) return errorResponse(502, `The answer of ${PATHS.users} was cut off before it ended.`);
    let body: unknown;
    try {
      body = JSON.parse(a.body);
    } catch {
      return errorResponse(502, `${PATHS.users} did not return valid JSON, so the users could not be stored.`);
    }
    const parsed = usersResponseSchema.safeParse(body);
    const why = parsed.success ? 'an unexpected shape' : describeZodError(parsed.error);
    return errorResponse(502, `${PATHS.users} returned data of an unexpected shape: ${why}.`);
  }
  if (e instanceof StoreMismatchError) return errorResponse(502, e.message);
  return faultResponse(e, logger, 'read the users from the service into its store');
}

interface Fill {
  done: Promise<void>;
  failure?: unknown;
}

export function createRangeFiller(store: StoreDb, engine: SyncEngine, waitMs: number, logger: Logger) {
  const fills = new Map<string, Fill>();
  const keyOf = (r: DayRange) => `${r.start}…${r.end}`;

  function start(r: DayRange): Fill {
    const key = keyOf(r);
    const fill: Fill = { done: engine.fillUsers(r, false) };
    fill.done.then(
      () => {
        if (fills.get(key) === fill) fills.delete(key);
      },
      (e: unknown) => {
        fill.failure = e;
        setTimeout(() => fills.get(key) === fill && fills.delete(key), FAILURE_KEPT_MS).unref?.();
      },
    );
    fills.set(key, fill);
    return fill;
  }

  function progress(r: DayRange, v: RangeVersion): FillProgress {
    const days = daysBetween(r.start, r.end) + 1;
    const activity = [...engine.activity.running.values()].find((l) => l.startsWith('users ') && l.includes('(page'));
    return {
      days,
      storedDays: v.storedDays,
      activity: activity ?? null,
      detail:
        `The users of ${r.start} … ${r.end} are still being read from the service ` +
        `(${v.storedDays} of ${days} days stored${activity ? `; now: ${activity}` : ''}). Ask again in a moment.`,
    };
  }

  /**
   * The range's state once its days are all stored, or after waiting `waitMs`
   * for the walk that stores them; throws `AnswerError` when the walk failed.
   */
  async function ensure(r: DayRange): Promise<RangeState> {
    const days = daysBetween(r.start, r.end) + 1;
    let version = await rangeVersion(store.db, r.start, r.end);
    if (version.storedDays >= days) return { complete: true, version };
    const key = keyOf(r);
    let fill = fills.get(key);
    if (fill && 'failure' in fill) {
      fills.delete(key);
      throw new AnswerError(failureAnswer(fill.failure, logger));
    }
    fill ??= start(r);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = await Promise.race([
      fill.done.then(
        () => 'done' as const,
        (e: unknown) => ({ failure: e }),
      ),
      new Promise<'waiting'>((resolve) => (timer = setTimeout(() => resolve('waiting'), waitMs))),
    ]);
    clearTimeout(timer);
    if (typeof waited === 'object') {
      if (fills.get(key) === fill) fills.delete(key);
      throw new AnswerError(failureAnswer(waited.failure, logger));
    }
    version = await rangeVersion(store.db, r.start, r.end);
    if (version.storedDays >= days) return { complete: true, version };
    return { complete: false, version, progress: progress(r, version) };
  }

  /** The range's version when all its days are stored; undefined otherwise (and nothing is started). */
  async function peek(r: DayRange): Promise<RangeVersion | undefined> {
    const version = await rangeVersion(store.db, r.start, r.end);
    return version.storedDays >= daysBetween(r.start, r.end) + 1 ? version : undefined;
  }

  return { ensure, peek };
}
