/**
 * Tables made in the engine's scratch schema for a key (a range, a day judged on), kept while their version holds,
 * the least recently asked dropped beyond a bound. Concurrent asks for one key and version share one making.
 */
import type { Analytics } from './engine';

/** How long a table replaced or pushed out is kept: a reader may still be on it. */
const DROP_AFTER_MS = 60_000;

let made = 0;

export interface ScratchTable<T> {
  /** The table's name, `scratch.<prefix>_<n>`. */
  name: string;
  version: string;
  /** Settles once the table is made, with what its making gave. */
  table: Promise<T>;
}

export function createScratchTables<T>(a: Analytics, prefix: string, entries: number) {
  const kept = new Map<string, ScratchTable<T>>();

  /** Drops tables a while after their making settles (one not made yet has no table). */
  function drop(gone: readonly ScratchTable<T>[]) {
    for (const e of gone)
      void e.table
        .then(
          () => undefined,
          () => undefined,
        )
        .then(() => {
          setTimeout(
            () => void a.rows(`DROP TABLE IF EXISTS ${e.name}`).catch(() => undefined),
            DROP_AFTER_MS,
          ).unref?.();
        });
  }

  return {
    /** The key's table at `version`, made by `make` (given its name) unless it is kept; a failed making is forgotten. */
    get(key: string, version: string, make: (name: string) => Promise<T>): ScratchTable<T> {
      const hit = kept.get(key);
      kept.delete(key);
      if (hit && hit.version === version) {
        kept.set(key, hit);
        return hit;
      }
      const name = `scratch.${prefix}_${++made}`;
      const entry: ScratchTable<T> = { version, name, table: make(name) };
      entry.table.catch(() => {
        if (kept.get(key) === entry) kept.delete(key);
        drop([entry]);
      });
      kept.set(key, entry);
      // The table it replaces and the oldest beyond the bound go.
      const gone = hit ? [hit] : [];
      for (const [k, e] of kept) {
        if (kept.size <= entries) break;
        kept.delete(k);
        gone.push(e);
      }
      drop(gone);
      return entry;
    },
    /** The last table made for the key, whatever its version. */
    peek: (key: string): ScratchTable<T> | undefined => kept.get(key),
  };
}
