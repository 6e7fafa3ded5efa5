/** Small deterministic random tools: every draw derives from a seed and a path. */

/** FNV-1a over the parts: a 32-bit seed for one (seed, kind, index…) path. */
export function hashSeed(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const s = String(part);
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0x2f; // separator, so ("ab","c") differs from ("a","bc")
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export interface Rng {
  /** Uniform in [0, 1). */
  (): number;
}

/** mulberry32: fast, good enough for simulated data, fully reproducible. */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const between = (r: Rng, lo: number, hi: number) => lo + (hi - lo) * r();

/** Standard normal by Box–Muller. */
export function normal(r: Rng): number {
  const u = 1 - r();
  const v = r();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Picks an index with probability proportional to its weight. */
export function weighted(r: Rng, weights: readonly number[]): number {
  let total = 0;
  for (const w of weights) total += w;
  let x = r() * total;
  for (let i = 0; i < weights.length; i++) {
    x -= weights[i]!;
    if (x < 0) return i;
  }
  return weights.length - 1;
}

/**
 * Splits an integer total into integer parts proportional to weights, exactly
 * (largest remainder: the parts with the largest fractions, the first of equal
 * ones first, get one more), so parts always sum back to the total. Written
 * with plain loops: the demo splits millions of totals in a year's sync, and
 * the arrays and sort of tuples it made held a twentieth of the server's thread.
 */
export function splitInteger(total: number, weights: readonly number[]): number[] {
  const n = weights.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += weights[i]!;
  const parts = new Array<number>(n).fill(0);
  if (total <= 0 || sum <= 0) return parts;
  let rest = total;
  const fractions = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const x = (total * weights[i]!) / sum;
    parts[i] = Math.floor(x);
    fractions[i] = x - parts[i]!;
    rest -= parts[i]!;
  }
  if (rest <= 0) return parts;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => fractions[b]! - fractions[a]! || a - b);
  for (let k = 0; rest > 0; k = (k + 1) % n, rest--) parts[order[k]!]! += 1;
  return parts;
}

/** A hex string of `n` characters. */
export function hex(r: Rng, n: number): string {
  let s = '';
  while (s.length < n)
    s += Math.floor(r() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  return s.slice(0, n);
}

/** A version-4-shaped UUID from the generator. */
export function uuid(r: Rng): string {
  const h = hex(r, 32);
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
