import type { HttpResponse } from './response';
/**
 * What the server keeps to answer again (the routes' answers, the store's, the demo's bodies): bounded by the
 * total size of what it holds and, if asked, by a count, the least recently used going first. One entry
 * larger than `maxEntrySize` is not kept at all: it must not push out everything else.
 */
export class SizedCache<V> {
  private readonly kept = new Map<string, V>();
  private total = 0;
  /** The key last read or written: a run of hits on it need not reorder the map. */
  private newest: string | undefined;

  constructor(
    private readonly o: { maxSize: number; maxEntries?: number; maxEntrySize?: number; sizeOf: (v: V) => number },
  ) {}

  get(key: string): V | undefined {
    const v = this.kept.get(key);
    if (v !== undefined && key !== this.newest) {
      this.kept.delete(key);
      this.kept.set(key, v);
      this.newest = key;
    }
    return v;
  }

  set(key: string, v: V): void {
    if (this.o.sizeOf(v) > (this.o.maxEntrySize ?? Infinity)) return;
    this.delete(key);
    this.kept.set(key, v);
    this.newest = key;
    this.total += this.o.sizeOf(v);
    for (const k of this.kept.keys()) {
      if (this.total <= this.o.maxSize && this.kept.size <= (this.o.maxEntries ?? Infinity)) break;
      this.delete(k);
    }
  }

  delete(key: string): void {
    const old = this.kept.get(key);
    if (old === undefined) return;
    this.kept.delete(key);
    this.total -= this.o.sizeOf(old);
    if (this.newest === key) this.newest = undefined;
  }

  clear(): void {
    this.kept.clear();
    this.total = 0;
    this.newest = undefined;
  }
}

/**
 * An answer kept to be sent again, in the server's one cache of answers (`answerCache`): its keeper reads it
 * back while the `stamp` it was made at (a version of the data it comes from) still holds, and until `until`.
 */
export interface KeptAnswer {
  answer: HttpResponse;
  stamp: string;
  until: number;
  /** Characters of the body and bytes of its compressed forms. */
  size: number;
}

/**
 * The server's one cache of answers (the route table's and the store's answers to the service's paths): one
 * budget for all, the least recently used going first; an answer over a quarter of it is not kept.
 */
export const answerCache = (maxSize = 64 * 2 ** 20) =>
  new SizedCache<KeptAnswer>({ maxSize, maxEntrySize: maxSize / 4, sizeOf: (e) => e.size });
