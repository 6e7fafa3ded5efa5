/**
 * The read thread's memory of the store's per-user days, column by column and day by day: each
 * stored `/users` day's fact rows (user, picks and numbers as typed arrays), and each stored `/tokens`
 * day's per-user credits by model and tier. A range's merged users table, or its people's spend, is
 * then one pass over the range's days in memory: tens of milliseconds at 5,000 users × 90 days, where
 * grouping the rows in SQL took half a second. A day is read from the store once, and again only when
 * a sync writes it anew (its `synced_at` changes); the days kept are bounded by bytes, least recently
 * used first out.
 *
 * The merge is the browser's (`UserAccumulator.addRow`, rows in day order) written over columns: the
 * same sums in the same order, the email of the first day (else the first one given), the most
 * frequent model (its tier on the latest day with it) and delegation level (ties by name), every
 * language.
 */
import type { Database } from 'better-sqlite3';
import type { Day } from '../../lib/dates';
import { SUMMED_FIELDS, type MergedSums, type MergedUser } from '../../lib/user-merge';
import { priceOf, type PriceList } from '../spend/prices';

/** What the columns are read from (the store, synchronously: this runs in a read thread). */
export interface DaySource {
  /** Each stored `/users` day of [start, end] with what identifies its walk (its `synced_at`). */
  usersDays(start: Day, end: Day): { day: string; version: string }[];
  /**
   * The `/users` fact rows of [start, end], in day order:
   * [day, user_id, user_email, primary_model, primary_model_tier, delegation_level, languages (JSON), ...NUMBERS].
   */
  userRows(start: Day, end: Day): Iterable<unknown[]>;
  /** Each stored `/tokens` day of [start, end] with its version. */
  tokensDays(start: Day, end: Day): { day: string; version: string }[];
  /** The stored `/tokens` day bodies of [start, end] (JSON arrays of the service's day rows). */
  tokensBodies(start: Day, end: Day): Iterable<{ day: string; body: string }>;
}

/** The store's SQLite file as a source (on the read thread's own read-only connection). */
export function sqliteDaySource(db: Database): DaySource {
  const usersDays = db.prepare(
    'SELECT day, synced_at AS version FROM users_day WHERE day >= ? AND day <= ? ORDER BY day',
  );
  const userRows = db
    .prepare(
      `SELECT day, user_id, user_email, primary_model, primary_model_tier, delegation_level, languages, ${DAY_NUMBERS.join(', ')}
       FROM user_day WHERE day >= ? AND day <= ? ORDER BY day`,
    )
    .raw();
  const answerDays = db.prepare(
    `SELECT day, synced_at AS version FROM day_answer
     WHERE endpoint = 'tokens' AND grouping = '' AND day >= ? AND day <= ? ORDER BY day`,
  );
  const answerBodies = db.prepare(
    `SELECT day, body FROM day_answer WHERE endpoint = 'tokens' AND grouping = '' AND day >= ? AND day <= ? ORDER BY day`,
  );
  return {
    usersDays: (start, end) => usersDays.all(start, end) as { day: string; version: string }[],
    userRows: (start, end) => userRows.iterate(start, end) as Iterable<unknown[]>,
    tokensDays: (start, end) => answerDays.all(start, end) as { day: string; version: string }[],
    tokensBodies: (start, end) => answerBodies.iterate(start, end) as Iterable<{ day: string; body: string }>,
  };
}

const SUMS = Object.entries(SUMMED_FIELDS) as [keyof MergedSums, string][];
/** The numbers of a row, as `userRows` gives them: the table's sums, then the ratio it weights by user messages. */
export const DAY_NUMBERS = [...SUMS.map(([, column]) => column), 'autonomy_ratio'] as const;
const RATIO = SUMS.length;
const USER_MESSAGES = SUMS.findIndex(([k]) => k === 'userMessages');

class Interner {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();
  of(v: string): number {
    let i = this.index.get(v);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(v);
      this.index.set(v, i);
    }
    return i;
  }
}

type Numbers = Int32Array | Float64Array;

/** One `/users` day: a row per active user. */
interface UsersDay {
  version: string;
  user: Int32Array;
  /** The email's index; -1 when the row has none. */
  email: Int32Array;
  model: Int32Array;
  tier: Int32Array;
  level: Int32Array;
  langs: Int32Array;
  /** DAY_NUMBERS, in order: integers as Int32Array when they all fit (most do), else Float64Array. */
  numbers: Numbers[];
  bytes: number;
}

/**
 * One `/tokens` day: each `by_user` element's credits per model and tier (`key` -1: an element without
 * a per-model split), an element's entries one after another, `starts` marking the first of each.
 */
interface TokensDay {
  version: string;
  user: Int32Array;
  key: Int32Array;
  credits: Float64Array;
  starts: Uint8Array;
  bytes: number;
}

/**
 * Reads a span of days from the store, keeping (`keep`) each day `wanted` gives a version for (the
 * version to keep it under; undefined for a day not stored, or kept as it is).
 */
type ReadSpan<T> = (
  first: Day,
  last: Day,
  wanted: (day: string) => string | undefined,
  keep: (day: string, cols: T) => void,
) => void;

/** What every kept day has: the version it was read at, and the bytes its arrays hold. */
interface KeptDay {
  version: string;
  bytes: number;
}

const tokensDay = (version: string, user: number[], key: number[], credits: number[], starts: number[]): TokensDay => ({
  version,
  user: Int32Array.from(user),
  key: Int32Array.from(key),
  credits: Float64Array.from(credits),
  starts: Uint8Array.from(starts),
  bytes: user.length * 17,
});

/** A column in an array of its own size: integers that fit in 32 bits in half the bytes. */
function compact(values: Float64Array): Numbers {
  for (const v of values) if (!Number.isInteger(v) || v < -0x80000000 || v > 0x7fffffff) return values.slice();
  return Int32Array.from(values);
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Growable columns for one day as it is read. */
class DayBuilder {
  n = 0;
  cap = 1024;
  ints: Int32Array[] = Array.from({ length: 6 }, () => new Int32Array(this.cap));
  nums: Float64Array[] = DAY_NUMBERS.map(() => new Float64Array(this.cap));
  push(ints: number[], nums: number[]) {
    if (this.n === this.cap) {
      this.cap *= 2;
      this.ints = this.ints.map((a) => grow(a, this.cap));
      this.nums = this.nums.map((a) => grow(a, this.cap));
    }
    for (let k = 0; k < 6; k++) this.ints[k]![this.n] = ints[k]!;
    for (let k = 0; k < nums.length; k++) this.nums[k]![this.n] = nums[k]!;
    this.n++;
  }
  done(version: string): UsersDay {
    const [user, email, model, tier, level, langs] = this.ints.map((a) => a.slice(0, this.n));
    const numbers = this.nums.map((a) => compact(a.subarray(0, this.n)));
    let bytes = 6 * 4 * this.n;
    for (const a of numbers) bytes += a.byteLength;
    return {
      version,
      user: user!,
      email: email!,
      model: model!,
      tier: tier!,
      level: level!,
      langs: langs!,
      numbers,
      bytes,
    };
  }
}
function grow<T extends Int32Array | Float64Array>(a: T, cap: number): T {
  const next = new (a.constructor as new (n: number) => T)(cap);
  next.set(a);
  return next;
}

/** Contiguous runs of the given days (sorted), as [first, last] pairs. */
function spans(days: string[], all: readonly string[]): [string, string][] {
  const at = new Map(all.map((d, i) => [d, i]));
  const out: [string, string][] = [];
  let prev = -2;
  for (const d of days) {
    const i = at.get(d)!;
    if (i === prev + 1) out[out.length - 1]![1] = d;
    else out.push([d, d]);
    prev = i;
  }
  return out;
}

export interface DayColumnsOptions {
  /** Bytes of typed arrays the kept days may hold, `/users` and `/tokens` days together. */
  maxBytes?: number;
}

export function createDayColumns(source: DaySource, opts: DayColumnsOptions = {}) {
  const maxBytes = opts.maxBytes ?? 384 * 1024 * 1024;
  const users = new Interner();
  const emails = new Interner();
  const models = new Interner();
  const tiers = new Interner();
  const levels = new Interner();
  /** Languages arrays as stored (JSON text), and each one's languages' indexes. */
  const langSets = new Interner();
  const langSetMembers: number[][] = [];
  const languages = new Interner();
  /** (model, tier) pairs of `/tokens` days. */
  const modelKeys = new Interner();
  const modelKeyParts: [string, string][] = [];

  const usersDays = new Map<string, UsersDay>();
  const tokensDays = new Map<string, TokensDay>();
  let bytes = 0;

  /** Marks a day as just used: the last to go when the budget is passed. */
  function touch<T extends KeptDay>(m: Map<string, T>, day: string, value: T) {
    m.delete(day);
    m.set(day, value);
  }
  /** Days read ahead that no reader has used since: the first to go. */
  const aheadOnly = new Set<string>();
  const USERS = 'users';
  const TOKENS = 'tokens';
  const mapOf = (kind: string): Map<string, KeptDay> => (kind === USERS ? usersDays : tokensDays);
  /** A day just read: for a reader, or ahead of any. */
  function kept(kind: string, day: string, ahead: boolean) {
    if (ahead) aheadOnly.add(`${kind} ${day}`);
    else aheadOnly.delete(`${kind} ${day}`);
  }
  /** A day a reader uses: the last to go. */
  function used(kind: string, day: string, cols: KeptDay) {
    aheadOnly.delete(`${kind} ${day}`);
    touch(mapOf(kind), day, cols);
  }

  /** Forgets a kept day. */
  function drop(kind: string, day: string) {
    const m = mapOf(kind);
    bytes -= m.get(day)?.bytes ?? 0;
    m.delete(day);
    aheadOnly.delete(`${kind} ${day}`);
  }

  /**
   * Drops days beyond the budget, never those of `keep` (the range being read): first the days read ahead
   * that no reader has used, then the least recently used.
   */
  function evict(keep: ReadonlySet<string>) {
    for (const key of [...aheadOnly]) {
      if (bytes <= maxBytes) return;
      const [kind, day] = key.split(' ') as [string, string];
      if (!keep.has(day)) drop(kind, day);
    }
    for (const kind of [USERS, TOKENS]) {
      for (const day of [...mapOf(kind).keys()]) {
        if (bytes <= maxBytes) return;
        if (!keep.has(day)) drop(kind, day);
      }
    }
  }

  function langSetOf(text: string): number {
    const i = langSets.of(text);
    if (i === langSetMembers.length) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = [];
      }
      const list = Array.isArray(parsed) ? parsed.filter((l): l is string => typeof l === 'string') : [];
      langSetMembers.push([...new Set(list.map((l) => languages.of(l)))]);
    }
    return i;
  }

  /** Keeps a day's columns (in place of what was kept for it). */
  function put<T extends KeptDay>(kind: string, m: Map<string, T>, day: string, cols: T, ahead: boolean) {
    bytes += cols.bytes - (m.get(day)?.bytes ?? 0);
    touch(m, day, cols);
    kept(kind, day, ahead);
  }

  /**
   * The days of [start, end] as stored now (`stored`), each read from the store (`readSpan`, a span of
   * days at a time) unless it is kept as it is; a stored day that brought nothing (nobody active) is kept
   * empty. `ahead`: read before any reader asks (see `preload`).
   */
  function load<T extends KeptDay>(
    kind: string,
    m: Map<string, T>,
    stored: { day: string; version: string }[],
    readSpan: ReadSpan<T>,
    empty: (version: string) => T,
    ahead: boolean,
  ): { day: string; cols: T }[] {
    const versions = new Map(stored.map((s) => [s.day, s.version]));
    const wanted = (day: string) => {
      const v = versions.get(day);
      return v !== undefined && m.get(day)?.version !== v ? v : undefined;
    };
    const stale = stored.filter((s) => wanted(s.day) !== undefined).map((s) => s.day);
    for (const [first, last] of spans(
      stale,
      stored.map((s) => s.day),
    )) {
      readSpan(first as Day, last as Day, wanted, (day, cols) => put(kind, m, day, cols, ahead));
      for (const d of stale) {
        const v = d >= first && d <= last ? wanted(d) : undefined;
        if (v !== undefined) put(kind, m, d, empty(v), ahead);
      }
    }
    const out = stored.flatMap((s) => {
      const cols = m.get(s.day);
      if (!cols) return [];
      if (!ahead) used(kind, s.day, cols);
      return [{ day: s.day, cols }];
    });
    if (!ahead) evict(new Set(stored.map((s) => s.day)));
    return out;
  }

  /** The `/users` days of [start, end] as stored now. */
  function loadUsers(start: Day, end: Day, ahead = false): { day: string; cols: UsersDay }[] {
    const readSpan: ReadSpan<UsersDay> = (first, last, wanted, keep) => {
      let day = '';
      let version: string | undefined;
      let b: DayBuilder | undefined;
      const flush = () => b && keep(day, b.done(version!));
      const ints = [0, 0, 0, 0, 0, 0];
      const nums = DAY_NUMBERS.map(() => 0);
      for (const r of source.userRows(first, last)) {
        const d = r[0] as string;
        if (d !== day) {
          flush();
          day = d;
          // A day between two stored ones may hold rows of a walk under way: not a stored day yet.
          version = wanted(d);
          b = version === undefined ? undefined : new DayBuilder();
        }
        if (!b) continue;
        const email = r[2];
        ints[0] = users.of(String(r[1]));
        ints[1] = typeof email === 'string' ? emails.of(email) : -1;
        ints[2] = models.of(typeof r[3] === 'string' ? r[3] : '');
        ints[3] = tiers.of(typeof r[4] === 'string' ? r[4] : '');
        ints[4] = levels.of(typeof r[5] === 'string' ? r[5] : '');
        ints[5] = langSetOf(typeof r[6] === 'string' ? r[6] : '[]');
        for (let k = 0; k < nums.length; k++) nums[k] = num(r[7 + k]);
        b.push(ints, nums);
      }
      flush();
    };
    const empty = (version: string) => new DayBuilder().done(version);
    return load(USERS, usersDays, source.usersDays(start, end), readSpan, empty, ahead);
  }

  /** The `/tokens` days of [start, end] as stored now. */
  function loadTokens(start: Day, end: Day, ahead = false): { day: string; cols: TokensDay }[] {
    const readSpan: ReadSpan<TokensDay> = (first, last, wanted, keep) => {
      for (const { day, body } of source.tokensBodies(first, last)) {
        const version = wanted(day);
        if (version === undefined) continue;
        const user: number[] = [];
        const key: number[] = [];
        const credits: number[] = [];
        const starts: number[] = [];
        for (const row of JSON.parse(body) as { by_user?: unknown }[]) {
          if (!Array.isArray(row.by_user)) continue;
          for (const el of row.by_user as Record<string, unknown>[]) {
            if (typeof el.user_id !== 'string') continue;
            const u = users.of(el.user_id);
            if (!Array.isArray(el.by_model) || el.by_model.length === 0) {
              user.push(u);
              key.push(-1);
              credits.push(num(el.billable_tokens));
              starts.push(1);
              continue;
            }
            let start = 1;
            for (const m of el.by_model as Record<string, unknown>[]) {
              const model = String(m.model_id ?? '');
              const tier = String(m.model_tier ?? '');
              const k = modelKeys.of(`${model}\u0000${tier}`);
              if (k === modelKeyParts.length) modelKeyParts.push([model, tier]);
              user.push(u);
              key.push(k);
              credits.push(num(m.billable_tokens));
              starts.push(start);
              start = 0;
            }
          }
        }
        keep(day, tokensDay(version, user, key, credits, starts));
      }
    };
    const empty = (version: string) => tokensDay(version, [], [], [], []);
    return load(TOKENS, tokensDays, source.tokensDays(start, end), readSpan, empty, ahead);
  }

  /** Each interned user's place in user id order (code units), made again when new users have come. */
  let rank = new Int32Array(0);
  function idOrder(): Int32Array {
    if (rank.length !== users.list.length) {
      const order = users.list.map((_, i) => i).sort((a, b) => (users.list[a]! < users.list[b]! ? -1 : 1));
      rank = new Int32Array(order.length);
      for (const [place, u] of order.entries()) rank[u] = place;
    }
    return rank;
  }

  const api = {
    /**
     * One row per user active in [start, end], in user id order, as the browser merges their rows: as
     * columns (typed arrays and small dictionaries), which cross to another thread far quicker than
     * as objects (`toMergedUsers` makes the rows).
     */
    mergedColumns(start: Day, end: Day): MergedColumns {
      const days = loadUsers(start, end);
      const n = users.list.length;
      const sums = new Float64Array(n * DAY_NUMBERS.length);
      const count = new Int32Array(n);
      const first = new Int32Array(n);
      const last = new Int32Array(n);
      const email = new Int32Array(n).fill(-2);
      const fallback = new Int32Array(n).fill(-1);
      // Each user's distinct models, levels and languages sets: short lists threaded through growable arrays.
      const pairs = new PairLists(n);
      for (let d = 0; d < days.length; d++) {
        const c = days[d]!.cols;
        const rows = c.user.length;
        // Column by column: each column's sums (one per user) stay in the processor's cache.
        for (let k = 0; k < RATIO; k++) addInto(sums, k * n, c.user, c.numbers[k]!);
        const ratio = c.numbers[RATIO]!;
        const userMessages = c.numbers[USER_MESSAGES]!;
        for (let i = 0; i < rows; i++) {
          const u = c.user[i]!;
          sums[RATIO * n + u]! += ratio[i]! * userMessages[i]!;
          if (count[u] === 0) first[u] = d;
          count[u]!++;
          last[u] = d;
          const e = c.email[i]!;
          if (email[u] === -2) email[u] = e;
          if (fallback[u] === -1 && e >= 0 && emails.list[e] !== '') fallback[u] = e;
          pairs.see(MODEL, u, c.model[i]!, c.tier[i]!);
          pairs.see(LEVEL, u, c.level[i]!, 0);
          pairs.see(LANGS, u, c.langs[i]!, 0);
        }
      }
      // The active users, in user id order (code units, whatever the database's collation).
      const rank = idOrder();
      const active: number[] = [];
      for (let u = 0; u < n; u++) if (count[u]! > 0) active.push(u);
      active.sort((a, b) => rank[a]! - rank[b]!);
      const m = active.length;
      const out: MergedColumns = {
        userIds: new Array<string>(m),
        emails: new Array<string | null>(m),
        sums: new Float64Array(RATIO * m),
        autonomy: new Float64Array(m),
        activeDays: new Int32Array(m),
        firstDay: new Int32Array(m),
        lastDay: new Int32Array(m),
        days: days.map((d) => d.day),
        model: new Int32Array(m),
        models: models.list.slice(),
        tier: new Int32Array(m),
        tiers: tiers.list.slice(),
        level: new Int32Array(m),
        levels: levels.list.slice(),
        languages: new Int32Array(m),
        languageLists: [],
      };
      const listOf = new Map<string, number>();
      const oneSet = new Map<number, number>();
      const list = (names: string[]) => {
        const key = names.join('\u0000');
        let id = listOf.get(key);
        if (id === undefined) {
          id = out.languageLists.length;
          out.languageLists.push(names);
          listOf.set(key, id);
        }
        return id;
      };
      for (let i = 0; i < m; i++) {
        const u = active[i]!;
        const e = email[u]!;
        out.userIds[i] = users.list[u]!;
        // The first day's email (an empty one too), else the first one given later.
        out.emails[i] = e >= 0 ? emails.list[e]! : fallback[u]! >= 0 ? emails.list[fallback[u]!]! : null;
        for (let k = 0; k < RATIO; k++) out.sums[k * m + i] = sums[k * n + u]!;
        const userMessages = sums[USER_MESSAGES * n + u]!;
        out.autonomy[i] = userMessages > 0 ? sums[RATIO * n + u]! / userMessages : 0;
        out.activeDays[i] = count[u]!;
        out.firstDay[i] = first[u]!;
        out.lastDay[i] = last[u]!;
        const model = pairs.mostFrequent(MODEL, u, models.list);
        out.model[i] = model;
        out.tier[i] = model < 0 ? -1 : pairs.extraOf(MODEL, u, model);
        out.level[i] = pairs.mostFrequent(LEVEL, u, levels.list);
        // Every language of every day: most people keep one set, whose sorted list is made once.
        const sets: number[] = [];
        pairs.each(LANGS, u, (set) => sets.push(set));
        if (sets.length === 1) {
          let id = oneSet.get(sets[0]!);
          if (id === undefined) {
            id = list([...new Set(langSetMembers[sets[0]!]!.map((l) => languages.list[l]!))].sort());
            oneSet.set(sets[0]!, id);
          }
          out.languages[i] = id;
        } else {
          const names = new Set<string>();
          for (const set of sets) for (const l of langSetMembers[set]!) names.add(languages.list[l]!);
          out.languages[i] = list([...names].sort());
        }
      }
      return out;
    },

    /** The same as rows (for tests, and where no thread is crossed). */
    mergedUsers(start: Day, end: Day): MergedUser[] {
      return toMergedUsers(api.mergedColumns(start, end));
    },

    /** Each user's spend over [start, end] at these prices (the price in force on each day), by user id. */
    spendByUser(start: Day, end: Day, prices: PriceList): Map<string, number> {
      const days = loadTokens(start, end);
      const spent = new Float64Array(users.list.length);
      const seen = new Uint8Array(users.list.length);
      for (const { day, cols } of days) {
        const price = new Float64Array(modelKeyParts.length).fill(-1);
        const fallbackPrice = priceOf(prices, day, '', '');
        // An element's models are added up first, then to its user (as the server's own facts do).
        let element = 0;
        for (let i = 0; i < cols.user.length; i++) {
          const k = cols.key[i]!;
          let p: number;
          if (k < 0) p = fallbackPrice;
          else {
            p = price[k]!;
            if (p < 0) p = price[k] = priceOf(prices, day, modelKeyParts[k]![0], modelKeyParts[k]![1]);
          }
          element += (cols.credits[i]! * p) / 1e6;
          if (i + 1 === cols.user.length || cols.starts[i + 1]) {
            spent[cols.user[i]!]! += element;
            seen[cols.user[i]!] = 1;
            element = 0;
          }
        }
      }
      const out = new Map<string, number>();
      for (let u = 0; u < spent.length; u++) if (seen[u]) out.set(users.list[u]!, spent[u]!);
      return out;
    },

    /**
     * Reads the days of [start, end] ahead of any reader (`users` or `tokens` days), while there is room:
     * false, reading nothing, once the days kept fill most of the budget (days read ahead never push out
     * the ones readers use).
     */
    preload(what: 'users' | 'tokens', start: Day, end: Day): boolean {
      if (bytes >= maxBytes * 0.8) return false;
      const before = new Set(mapOf(what).keys());
      const read = what === 'users' ? loadUsers(start, end, true) : loadTokens(start, end, true);
      if (bytes <= maxBytes) return true;
      // Over the budget: the days just read go again (oldest first), never the ones readers use.
      for (const { day } of read) {
        if (bytes <= maxBytes) break;
        if (!before.has(day)) drop(what, day);
      }
      return false;
    },

    /** Bytes of typed arrays held, and days kept (for tests and the bench). */
    held: () => ({ bytes, usersDays: usersDays.size, tokensDays: tokensDays.size }),
  };
  return api;
}

export type DayColumns = ReturnType<typeof createDayColumns>;

/** A merged users table as columns: row i's fields at index i (sums: field k of row i at k × rows + i). */
export interface MergedColumns {
  userIds: string[];
  emails: (string | null)[];
  /** The table's sums, in SUMMED_FIELDS order. */
  sums: Float64Array;
  autonomy: Float64Array;
  activeDays: Int32Array;
  /** Indexes into `days`. */
  firstDay: Int32Array;
  lastDay: Int32Array;
  days: string[];
  /** Indexes into `models`, `tiers` and `levels` (-1: none). */
  model: Int32Array;
  models: string[];
  tier: Int32Array;
  tiers: string[];
  level: Int32Array;
  levels: string[];
  /** Indexes into `languageLists` (each sorted). */
  languages: Int32Array;
  languageLists: string[][];
}

/** The typed arrays' buffers, handed over (not copied) when the columns cross to another thread. */
export const transferablesOf = (c: MergedColumns): ArrayBuffer[] =>
  [c.sums, c.autonomy, c.activeDays, c.firstDay, c.lastDay, c.model, c.tier, c.level, c.languages].map(
    (a) => a.buffer as ArrayBuffer,
  );

const SUM_AT = Object.fromEntries(SUMS.map(([k], i) => [k, i])) as Record<keyof MergedSums, number>;

/** The rows of a table given as columns, in its order, with the fields in the order the merge gives them. */
export function toMergedUsers(c: MergedColumns): MergedUser[] {
  const m = c.userIds.length;
  const out = new Array<MergedUser>(m);
  const sum = (k: keyof MergedSums, i: number) => c.sums[SUM_AT[k] * m + i]!;
  const name = (list: string[], i: number) => (i < 0 ? '' : list[i]!);
  for (let i = 0; i < m; i++) {
    out[i] = {
      userId: c.userIds[i]!,
      email: c.emails[i]!,
      activeDays: c.activeDays[i]!,
      firstDay: c.days[c.firstDay[i]!]!,
      lastDay: c.days[c.lastDay[i]!]!,
      credits: sum('credits', i),
      toolCalls: sum('toolCalls', i),
      sessions: sum('sessions', i),
      messages: sum('messages', i),
      userMessages: sum('userMessages', i),
      assistantMessages: sum('assistantMessages', i),
      filesCreated: sum('filesCreated', i),
      filesEdited: sum('filesEdited', i),
      commits: sum('commits', i),
      prs: sum('prs', i),
      mcpCalls: sum('mcpCalls', i),
      skillCalls: sum('skillCalls', i),
      slashCommands: sum('slashCommands', i),
      hooks: sum('hooks', i),
      autonomyRatio: c.autonomy[i]!,
      primaryModel: name(c.models, c.model[i]!),
      primaryModelTier: name(c.tiers, c.tier[i]!),
      delegationLevel: name(c.levels, c.level[i]!),
      languages: c.languageLists[c.languages[i]!]!.slice(),
    };
  }
  return out;
}

/** Adds each row's value to its user's sum (at `at + user`): one loop per kind of column, so each stays monomorphic. */
function addInto(sums: Float64Array, at: number, user: Int32Array, values: Numbers) {
  if (values instanceof Int32Array) addInts(sums, at, user, values);
  else addFloats(sums, at, user, values);
}
function addInts(sums: Float64Array, at: number, user: Int32Array, values: Int32Array) {
  for (let i = 0; i < values.length; i++) sums[at + user[i]!]! += values[i]!;
}
function addFloats(sums: Float64Array, at: number, user: Int32Array, values: Float64Array) {
  for (let i = 0; i < values.length; i++) sums[at + user[i]!]! += values[i]!;
}

const MODEL = 0;
const LEVEL = 1;
const LANGS = 2;

/**
 * Per user and kind, the distinct values seen with their counts (and, for models, the tier of the
 * latest day): linked lists in growable typed arrays, a handful of entries per user.
 */
class PairLists {
  private head: Int32Array;
  private next = new Int32Array(4096);
  private value = new Int32Array(4096);
  private count = new Int32Array(4096);
  private extra = new Int32Array(4096);
  private size = 0;
  constructor(users: number) {
    this.head = new Int32Array(users * 3).fill(-1);
  }
  see(kind: number, u: number, v: number, extra: number) {
    const h = u * 3 + kind;
    for (let p = this.head[h]!; p >= 0; p = this.next[p]!) {
      if (this.value[p] === v) {
        this.count[p]!++;
        // Rows come in day order: the last one seen is the latest day's.
        this.extra[p] = extra;
        return;
      }
    }
    if (this.size === this.next.length) {
      const cap = this.size * 2;
      this.next = grow(this.next, cap);
      this.value = grow(this.value, cap);
      this.count = grow(this.count, cap);
      this.extra = grow(this.extra, cap);
    }
    const p = this.size++;
    this.value[p] = v;
    this.count[p] = 1;
    this.extra[p] = extra;
    this.next[p] = this.head[h]!;
    this.head[h] = p;
  }
  /** The value seen most often; ties go to the first name in code-unit order (`mostFrequent`). -1: none. */
  mostFrequent(kind: number, u: number, names: readonly string[]): number {
    let best = -1;
    let n = -1;
    for (let p = this.head[u * 3 + kind]!; p >= 0; p = this.next[p]!) {
      const c = this.count[p]!;
      const v = this.value[p]!;
      if (c > n || (c === n && names[v]! < names[best]!)) [best, n] = [v, c];
    }
    return best;
  }
  extraOf(kind: number, u: number, v: number): number {
    for (let p = this.head[u * 3 + kind]!; p >= 0; p = this.next[p]!) if (this.value[p] === v) return this.extra[p]!;
    return -1;
  }
  each(kind: number, u: number, f: (v: number) => void) {
    for (let p = this.head[u * 3 + kind]!; p >= 0; p = this.next[p]!) f(this.value[p]!);
  }
}
