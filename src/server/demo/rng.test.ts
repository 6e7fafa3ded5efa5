import { describe, expect, it } from 'vitest';
import { rng, splitInteger } from './rng';

/** The split as first written (largest remainder by a stable sort of the fractions): the demo's data must not move. */
function reference(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (total <= 0 || sum <= 0) return weights.map(() => 0);
  const raw = weights.map((w) => (total * w) / sum);
  const parts = raw.map(Math.floor);
  let rest = total - parts.reduce((a, b) => a + b, 0);
  const order = raw.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; rest > 0; k = (k + 1) % order.length, rest--) parts[order[k]![1]]! += 1;
  return parts;
}

describe("the demo's integer split", () => {
  it('sums back to the total and gives the parts the first version gave, ties to the first', () => {
    expect(splitInteger(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(splitInteger(0, [1, 2])).toEqual([0, 0]);
    expect(splitInteger(5, [0, 0])).toEqual([0, 0]);
    expect(splitInteger(7, [])).toEqual([]);
    const r = rng(42);
    for (let i = 0; i < 20_000; i++) {
      const weights = Array.from({ length: 1 + Math.floor(r() * 6) }, () =>
        r() < 0.2 ? Math.floor(r() * 4) : r() * 10,
      );
      const total = Math.floor(r() * (r() < 0.5 ? 20 : 100_000));
      const got = splitInteger(total, weights);
      expect(got).toEqual(reference(total, weights));
      if (weights.some((w) => w > 0)) expect(got.reduce((a, b) => a + b, 0)).toBe(total);
    }
  });
});
