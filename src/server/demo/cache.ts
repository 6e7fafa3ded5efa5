/** Byte-bounded cache of finished bodies: the data set never changes for a given "today". */
export class BodyCache {
  private map = new Map<string, string>();
  private size = 0;
  constructor(private readonly maxChars: number) {}
  get(k: string) {
    const v = this.map.get(k);
    if (v !== undefined) {
      // Re-inserted, so the map's order is least recently used first.
      this.map.delete(k);
      this.map.set(k, v);
    }
    return v;
  }
  set(k: string, v: string) {
    // One huge body must not push out everything else.
    if (v.length > this.maxChars / 4) return;
    this.map.set(k, v);
    this.size += v.length;
    for (const [key, val] of this.map) {
      if (this.size <= this.maxChars) break;
      this.map.delete(key);
      this.size -= val.length;
    }
  }
  clear() {
    this.map.clear();
    this.size = 0;
  }
}
