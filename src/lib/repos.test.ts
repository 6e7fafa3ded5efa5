import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesRepo } from './repos';

/** The meaning of a pattern, by dynamic programming: `*` is any run of characters other than `/`. */
function reference(pattern: string, key: string): boolean {
  // at[j]: whether the pattern read so far matches the key's first j characters.
  let at = Array.from({ length: key.length + 1 }, (_, j) => j === 0);
  for (const p of pattern) {
    const next = Array.from({ length: key.length + 1 }, () => false);
    for (let j = 0; j <= key.length; j++) {
      if (p === '*') next[j] = at[j]! || (j > 0 && next[j - 1]! && key[j - 1] !== '/');
      else next[j] = j > 0 && at[j - 1]! && key[j - 1] === p;
    }
    at = next;
  }
  return at[key.length]!;
}

describe('matchesRepo', () => {
  it('matches a * within one path segment only', () => {
    expect(matchesRepo('github.com/acme/data-*', 'github.com/acme/data-lake')).toBe(true);
    expect(matchesRepo('github.com/acme/data-*', 'github.com/acme/data-')).toBe(true);
    expect(matchesRepo('github.com/acme/data-*', 'github.com/acme/data/lake')).toBe(false);
    expect(matchesRepo('github.com/*/api', 'github.com/acme/api')).toBe(true);
    expect(matchesRepo('github.com/*/api', 'github.com/acme/x/api')).toBe(false);
    expect(matchesRepo('github.com/acme/*-api-*', 'github.com/acme/web-api-v2')).toBe(true);
    expect(matchesRepo('github.com/acme/*-api-*', 'github.com/acme/web-ap-v2')).toBe(false);
    expect(matchesRepo('github.com/acme/a*a', 'github.com/acme/a')).toBe(false);
    expect(matchesRepo('github.com/acme/a*b*b', 'github.com/acme/ab')).toBe(false);
    expect(matchesRepo('github.com/acme/a**b', 'github.com/acme/ab')).toBe(true);
    expect(matchesRepo('github.com/acme/api', 'github.com/acme/api')).toBe(true);
    expect(matchesRepo('github.com/acme/api', 'github.com/acme/apis')).toBe(false);
  });

  it('answers a pattern of hundreds of stars against a long name without backtracking', () => {
    // A regular expression of `[^/]*` per star takes exponential time here; the matcher is linear.
    const pattern = `github.com/acme/${'*'.repeat(300)}x`;
    expect(matchesRepo(pattern, `github.com/acme/${'a'.repeat(10_000)}`)).toBe(false);
    expect(matchesRepo(pattern, `github.com/acme/${'a'.repeat(10_000)}x`)).toBe(true);
    const pieces = `github.com/acme/${'a*'.repeat(300)}b`;
    expect(matchesRepo(pieces, `github.com/acme/${'a'.repeat(10_000)}`)).toBe(false);
    expect(matchesRepo(pieces, `github.com/acme/${'a'.repeat(10_000)}b`)).toBe(true);
  });

  it('agrees with the dynamic-programming meaning on any small pattern and name', () => {
    const text = (max: number) => fc.string({ unit: fc.constantFrom('a', 'b', '/', '*'), maxLength: max });
    // A name made from the pattern (its stars filled in), one character dropped or not, matches or nearly does.
    const near = (p: string) =>
      fc
        .tuple(fc.array(fc.string({ unit: fc.constantFrom('a', 'b', '/'), maxLength: 3 })), fc.nat(16), fc.boolean())
        .map(([fills, cut, drop]) => {
          let i = 0;
          const k = p.replace(/\*/g, () => fills[i++] ?? '');
          return drop ? k.slice(0, cut) + k.slice(cut + 1) : k;
        });
    fc.assert(
      fc.property(
        text(12).chain((p) => fc.tuple(fc.constant(p), fc.oneof(text(14), near(p)))),
        ([p, k]) => {
          expect(matchesRepo(p, k), `${p} ~ ${k}`).toBe(reference(p, k));
        },
      ),
      { numRuns: 20_000 },
    );
  });
});
