/**
 * The per-user `/users` facts of a range, in memory and column by column (one row per user and active day,
 * their numbers as typed arrays), which the highlights and the digest still read; every other per-person
 * figure comes from the analytics engine (src/server/analytics), where these will go too.
 *
 * `createFactsCache` keeps the facts of the last few ranges, each valid for one version of its stored
 * days (a sync that writes any of them makes a new version), and fills missing days from the service
 * first, as the store's own answers do.
 */
import { eachDay, type Day } from '../../lib/dates';
import type { StoreDb } from '../store/db';
import { teamFactRows, TEAM_FACT_COLUMNS, type TeamFactColumn, type TeamFactRow } from '../store/teams-queries';
import { rangeVersion } from '../store/users-queries';
import type { SyncEngine } from '../sync/engine';

export interface Facts {
  /** The days loaded, first to last, every one of them. */
  days: Day[];
  dayIndex: Map<Day, number>;
  /** The users seen in the rows, by index, with an email when any row has one. */
  userIds: string[];
  emails: (string | null)[];
  /** `/users` rows: the user's index, the day's index, and each fact column. */
  rows: { user: Int32Array; day: Int32Array; cols: Record<TeamFactColumn, Float64Array> };
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Index of a value in a growing list. */
function interner() {
  const index = new Map<string, number>();
  const list: string[] = [];
  return {
    list,
    index,
    of(v: string): number {
      let i = index.get(v);
      if (i === undefined) {
        i = list.length;
        list.push(v);
        index.set(v, i);
      }
      return i;
    },
  };
}

/** The facts of the days [first, last] from the store's rows (by user then day). */
export function buildFacts(first: Day, last: Day, rows: readonly TeamFactRow[]): Facts {
  const days = eachDay(first, last);
  const dayIndex = new Map(days.map((d, i) => [d, i]));
  const users = interner();
  const emails: (string | null)[] = [];
  const userOf = (id: string, email: unknown) => {
    const u = users.of(id);
    if (u === emails.length) emails.push(null);
    if (typeof email === 'string' && email !== '' && emails[u] === null) emails[u] = email;
    return u;
  };

  const n = rows.length;
  const rowUser = new Int32Array(n);
  const rowDay = new Int32Array(n);
  const cols = Object.fromEntries(TEAM_FACT_COLUMNS.map((c) => [c, new Float64Array(n)])) as Record<
    TeamFactColumn,
    Float64Array
  >;
  let kept = 0;
  for (const r of rows) {
    const d = dayIndex.get(r.day);
    if (d === undefined) continue;
    rowUser[kept] = userOf(r.user_id, r.user_email);
    rowDay[kept] = d;
    for (const c of TEAM_FACT_COLUMNS) cols[c][kept] = num(r[c]);
    kept++;
  }

  const cut = <T extends Int32Array | Float64Array>(a: T) => a.subarray(0, kept) as T;
  return {
    days,
    dayIndex,
    userIds: users.list,
    emails,
    rows: {
      user: cut(rowUser),
      day: cut(rowDay),
      cols: Object.fromEntries(TEAM_FACT_COLUMNS.map((c) => [c, cut(cols[c])])) as Record<TeamFactColumn, Float64Array>,
    },
  };
}

/** Ranges whose facts are kept, at most (the highlights' five weeks, the digest's two)… */
const KEPT_RANGES = 4;
/** …and bytes of typed arrays they hold together (the newest range is kept whatever its size). */
const KEPT_BYTES = 256 * 1024 * 1024;

/** The bytes a range's facts hold in typed arrays. */
export function factsBytes(f: Facts): number {
  let n = f.rows.user.byteLength + f.rows.day.byteLength;
  for (const c of Object.values(f.rows.cols)) n += c.byteLength;
  return n;
}

/**
 * The facts of a range, filled from the service when days are missing, then kept while the range's
 * stored days do not change. Concurrent requests for one range share one load.
 */
export function createFactsCache(store: StoreDb, engine: SyncEngine) {
  const kept = new Map<string, { version: string; facts: Promise<Facts>; bytes: number }>();

  /** Drops the least recently used ranges beyond the count or the byte budget (never the newest). */
  function evict() {
    let bytes = 0;
    for (const e of kept.values()) bytes += e.bytes;
    for (const [key, e] of kept) {
      if (kept.size <= 1 || (kept.size <= KEPT_RANGES && bytes <= KEPT_BYTES)) break;
      kept.delete(key);
      bytes -= e.bytes;
    }
  }

  async function version(first: Day, last: Day) {
    const users = await rangeVersion(store.db, first, last);
    return `${users.storedDays}|${users.syncedAt ?? ''}`;
  }

  const load = async (first: Day, last: Day): Promise<Facts> =>
    buildFacts(first, last, await teamFactRows(store.db, first, last));

  /**
   * The `/users` facts of [first, last]. Throws the sync's `FillFailed` when the service could not fill the
   * range.
   */
  async function get(first: Day, last: Day): Promise<Facts> {
    const range = { start: first, end: last };
    await engine.fillUsers(range, false);
    const key = `${first}…${last}`;
    const v = await version(first, last);
    const hit = kept.get(key);
    if (hit && hit.version === v) {
      kept.delete(key);
      kept.set(key, hit);
      return hit.facts;
    }
    const entry = { version: v, facts: load(first, last), bytes: 0 };
    kept.set(key, entry);
    evict();
    // A sync that wrote some of these days while they were read leaves a mix: answer with it, keep it not.
    entry.facts
      .then(
        async (loaded) => {
          entry.bytes = factsBytes(loaded);
          evict();
          if ((await version(first, last)) !== v && kept.get(key) === entry) kept.delete(key);
        },
        () => kept.get(key) === entry && kept.delete(key),
      )
      .catch(() => kept.get(key) === entry && kept.delete(key));
    return entry.facts;
  }

  return { get };
}

export type FactsCache = ReturnType<typeof createFactsCache>;
