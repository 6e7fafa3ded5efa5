/**
 * The merged users table of a range, kept in memory once built: a small LRU
 * keyed by the range and valid for one version of its stored days (a walk of
 * any of them makes a new version). Sorting, filtering and paging work on
 * that copy, and remember their last results, so the next page of a sorted,
 * filtered table costs a slice.
 */
import type { DayRange } from '../../lib/dates';
import {
  USER_COLUMN_VALUES,
  facetValues,
  filterUsers,
  type MergedUser,
  type UserColumnId,
  type UserFacets,
  type UserFilter,
} from '../../lib/user-merge';

export type SortDir = 'asc' | 'desc';

const collator = new Intl.Collator('en-US');

/**
 * The users in the column's order, like the browser's tables sort (numbers by
 * value, text by locale); people without a value (no day in the range, no
 * team) come last either way, and ties keep the id order in both directions.
 */
export function sortUsers(users: readonly MergedUser[], column: UserColumnId, dir: SortDir): MergedUser[] {
  const value = USER_COLUMN_VALUES[column];
  const keyed = users.map((u, i) => ({ v: value(u), i }));
  const sign = dir === 'asc' ? 1 : -1;
  const textual = keyed.some((k) => typeof k.v === 'string');
  const compare = textual
    ? (a: unknown, b: unknown) => collator.compare(a as string, b as string)
    : (a: unknown, b: unknown) => (a as number) - (b as number);
  keyed.sort((a, b) =>
    a.v === null || b.v === null
      ? Number(a.v === null) - Number(b.v === null) || a.i - b.i
      : sign * compare(a.v, b.v) || a.i - b.i,
  );
  return keyed.map((k) => users[k.i]!);
}

/** A range's merged table: the rows in user id order, their facets, and remembered sorts and filters. */
export class UsersTable {
  readonly facets: UserFacets;
  private sorts = new Map<string, MergedUser[]>();
  private filtered = new Map<string, MergedUser[]>();

  constructor(readonly users: readonly MergedUser[]) {
    this.facets = facetValues(users);
  }

  sorted(column: UserColumnId, dir: SortDir): readonly MergedUser[] {
    const key = `${column}:${dir}`;
    let s = this.sorts.get(key);
    if (!s) {
      s = sortUsers(this.users, column, dir);
      remember(this.sorts, key, s, 8);
    }
    return s;
  }

  /** The sorted rows the filter keeps (a filter that keeps everything is the sorted list itself). */
  view(column: UserColumnId, dir: SortDir, f: UserFilter): readonly MergedUser[] {
    const all = this.sorted(column, dir);
    const who = f.who ?? 'active';
    if (who === 'all' && !f.search.trim() && !f.delegation && !f.tier && !f.language) return all;
    const key = JSON.stringify([column, dir, f.search.trim().toLowerCase(), f.delegation, f.tier, f.language, who]);
    let v = this.filtered.get(key);
    if (!v) {
      v = filterUsers(all, f);
      remember(this.filtered, key, v, 16);
    }
    return v;
  }
}

/** Sets a key as the most recent one, dropping the oldest beyond `max`. */
function remember<K, V>(m: Map<K, V>, key: K, value: V, max: number) {
  m.delete(key);
  m.set(key, value);
  while (m.size > max) m.delete(m.keys().next().value as K);
}

interface Entry {
  version: string;
  table: Promise<UsersTable>;
  /** Once built: how many users it holds (what the cache's budget counts). */
  size: number;
}

/**
 * Tables of recent ranges, built by `build` at most once per range and
 * version (concurrent requests share the build). Bounded by entries and by
 * users held: at 50,000 users a table is some 25 MB.
 */
export function createTableCache(
  build: (r: DayRange, version: string, background: boolean) => Promise<MergedUser[]>,
  limits = { entries: 8, users: 250_000 },
) {
  const entries = new Map<string, Entry>();
  const keyOf = (r: DayRange) => `${r.start}…${r.end}`;

  function trim() {
    let users = 0;
    for (const e of entries.values()) users += e.size;
    for (const [k, e] of entries) {
      if (entries.size <= limits.entries && users <= limits.users) break;
      if (entries.size === 1) break;
      entries.delete(k);
      users -= e.size;
    }
  }

  return {
    /** The table of the range at this version of its days; `background`: built ahead, after what readers wait for. */
    get(r: DayRange, version: string, background = false): Promise<UsersTable> {
      const key = keyOf(r);
      const hit = entries.get(key);
      if (hit && hit.version === version) {
        remember(entries, key, hit, Infinity);
        return hit.table;
      }
      const entry: Entry = { version, size: 0, table: undefined as never };
      entry.table = build(r, version, background).then(
        (users) => {
          entry.size = users.length;
          trim();
          return new UsersTable(users);
        },
        (e: unknown) => {
          if (entries.get(key) === entry) entries.delete(key);
          throw e;
        },
      );
      remember(entries, key, entry, Infinity);
      return entry.table;
    },
    /** The last table built for the range, whatever its version (a stale answer while its days are walked again). */
    async latest(r: DayRange): Promise<UsersTable | undefined> {
      const e = entries.get(keyOf(r));
      return e ? e.table.catch(() => undefined) : undefined;
    },
    clear: () => entries.clear(),
  };
}

export type TableCache = ReturnType<typeof createTableCache>;
