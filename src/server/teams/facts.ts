/**
 * The per-user facts of a range, in memory and column by column, from which every team figure is
 * computed: the `/users` rows (one per user and active day, their numbers as typed arrays) and the
 * `/tokens` days' `by_user` elements with their `by_model` split (the only per-user source of credits
 * per model and of input and output tokens). A team is then a mask over the users, and any team's
 * answer is one pass over these arrays: switching team never touches the store.
 *
 * `createFactsCache` keeps the facts of the last few ranges, each valid for one version of its stored
 * days (a sync that writes any of them makes a new version), and fills missing days from the service
 * first, as the store's own answers do.
 */
import { eachDay, type Day } from '../../lib/dates';
import type { StoreDb } from '../store/db';
import { readDays } from '../store/queries';
import {
  dayAnswerVersion,
  teamFactRows,
  TEAM_FACT_COLUMNS,
  type TeamFactColumn,
  type TeamFactRow,
} from '../store/teams-queries';
import { rangeVersion } from '../store/users-queries';
import type { SyncEngine } from '../sync/engine';
import type { ByUserElement, ModelElement } from '../analytics/engine';

export interface Facts {
  /** The days loaded, first to last, every one of them. */
  days: Day[];
  dayIndex: Map<Day, number>;
  /** The users seen in the rows or in `by_user`, by index, with an email when any row has one. */
  userIds: string[];
  emails: (string | null)[];
  /** `/users` rows: the user's index, the day's index, and each fact column. */
  rows: { user: Int32Array; day: Int32Array; cols: Record<TeamFactColumn, Float64Array> };
  /** `/tokens` `by_user` elements: user, day, credits, and where their `by_model` entries are. */
  tokens: { user: Int32Array; day: Int32Array; billable: Float64Array; modelsFrom: Int32Array };
  /** The `by_model` entries of every element, in element order. */
  models: {
    model: Int32Array;
    tier: Int32Array;
    billable: Float64Array;
    input: Float64Array;
    output: Float64Array;
  };
  modelIds: string[];
  tiers: string[];
  /** Each day's `/tokens` row for the whole organization as the service gave it, without `by_user` (undefined: no row). */
  orgTokenDays: (Record<string, unknown> | undefined)[];
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

/** Growable typed columns (doubling), trimmed at the end. */
class Column<T extends Int32Array | Float64Array> {
  length = 0;
  constructor(
    private data: T,
    private readonly make: (n: number) => T,
  ) {}
  push(v: number) {
    if (this.length === this.data.length) {
      const next = this.make(Math.max(16, this.data.length * 2));
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  /** The values, in an array of their own size (a view would keep the doubled buffer alive). */
  done(): T {
    return this.data.slice(0, this.length) as T;
  }
}
const ints = () => new Column(new Int32Array(1024), (n) => new Int32Array(n));
const floats = () => new Column(new Float64Array(1024), (n) => new Float64Array(n));

/**
 * The facts of the days [first, last] from the store's rows (by user then day) and `/tokens` day
 * bodies (JSON arrays of the service's day rows, already checked against the contract when stored).
 */
export function buildFacts(
  first: Day,
  last: Day,
  rows: readonly TeamFactRow[],
  tokenBodies: readonly { day: string; body: string }[],
): Facts {
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

  const models = interner();
  const tiers = interner();
  const t = { user: ints(), day: ints(), billable: floats(), modelsFrom: ints() };
  const m = { model: ints(), tier: ints(), billable: floats(), input: floats(), output: floats() };
  const orgTokenDays: (Record<string, unknown> | undefined)[] = days.map(() => undefined);
  for (const { day, body } of tokenBodies) {
    const d = dayIndex.get(day as Day);
    if (d === undefined) continue;
    for (const row of JSON.parse(body) as { by_user?: unknown }[]) {
      const org: Record<string, unknown> = { ...row };
      delete org.by_user;
      orgTokenDays[d] = org;
      if (!Array.isArray(row.by_user)) continue;
      for (const el of row.by_user as ByUserElement[]) {
        if (typeof el.user_id !== 'string') continue;
        t.user.push(userOf(el.user_id, el.user_email));
        t.day.push(d);
        t.billable.push(num(el.billable_tokens));
        t.modelsFrom.push(m.model.length);
        if (!Array.isArray(el.by_model)) continue;
        for (const me of el.by_model as ModelElement[]) {
          m.model.push(models.of(String(me.model_id ?? '')));
          m.tier.push(tiers.of(String(me.model_tier ?? '')));
          m.billable.push(num(me.billable_tokens));
          m.input.push(num(me.input_tokens));
          m.output.push(num(me.output_tokens));
        }
      }
    }
  }
  t.modelsFrom.push(m.model.length);

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
    tokens: { user: t.user.done(), day: t.day.done(), billable: t.billable.done(), modelsFrom: t.modelsFrom.done() },
    models: {
      model: m.model.done(),
      tier: m.tier.done(),
      billable: m.billable.done(),
      input: m.input.done(),
      output: m.output.done(),
    },
    modelIds: models.list,
    tiers: tiers.list,
    orgTokenDays,
  };
}

/**
 * Ranges whose facts are kept, at most… A landing page with a team reads about eight: the range and the
 * period before it (and both together, for spend), the month so far, the weeks the highlights look
 * back over, the activity's 29 days before the range, for both `/users` and `/tokens` facts.
 */
const KEPT_RANGES = 12;
/** …and bytes of typed arrays they hold together (the newest range is kept whatever its size). */
const KEPT_BYTES = 256 * 1024 * 1024;

/** The bytes a range's facts hold in typed arrays. */
export function factsBytes(f: Facts): number {
  let n = f.rows.user.byteLength + f.rows.day.byteLength;
  for (const c of Object.values(f.rows.cols)) n += c.byteLength;
  for (const a of Object.values(f.tokens)) n += a.byteLength;
  for (const a of Object.values(f.models)) n += a.byteLength;
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

  async function version(first: Day, last: Day, tokens: boolean) {
    if (tokens) return dayAnswerVersion(store.db, 'tokens', '', first, last);
    const users = await rangeVersion(store.db, first, last);
    return `${users.storedDays}|${users.syncedAt ?? ''}`;
  }

  async function load(first: Day, last: Day, tokens: boolean): Promise<Facts> {
    const [rows, bodies] = await Promise.all([
      tokens ? [] : teamFactRows(store.db, first, last),
      tokens ? readDays(store.db, 'tokens', '', first, last) : [],
    ]);
    return buildFacts(first, last, rows, bodies);
  }

  /**
   * The facts of [first, last]: from `users`, the `/users` rows; from `tokens`, the `/tokens` days and
   * their split per user and model (each fills only what it reads). Throws the sync's `FillFailed`
   * when the service could not fill the range.
   */
  async function get(first: Day, last: Day, from: 'users' | 'tokens'): Promise<Facts> {
    const range = { start: first, end: last };
    const tokens = from === 'tokens';
    await (tokens ? engine.fillDays('tokens', '', range, false) : engine.fillUsers(range, false));
    const key = `${first}…${last}${tokens ? ' tokens' : ''}`;
    const v = await version(first, last, tokens);
    const hit = kept.get(key);
    if (hit && hit.version === v) {
      kept.delete(key);
      kept.set(key, hit);
      return hit.facts;
    }
    const entry = { version: v, facts: load(first, last, tokens), bytes: 0 };
    kept.set(key, entry);
    evict();
    // A sync that wrote some of these days while they were read leaves a mix: answer with it, keep it not.
    entry.facts
      .then(
        async (loaded) => {
          entry.bytes = factsBytes(loaded);
          evict();
          if ((await version(first, last, tokens)) !== v && kept.get(key) === entry) kept.delete(key);
        },
        () => kept.get(key) === entry && kept.delete(key),
      )
      .catch(() => kept.get(key) === entry && kept.delete(key));
    return entry.facts;
  }

  return { get };
}

export type FactsCache = ReturnType<typeof createFactsCache>;
