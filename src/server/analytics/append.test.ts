import { describe, expect, it } from 'vitest';
import { numbering } from './append';

describe('the copy’s numbering of people', () => {
  it('goes on from the largest number kept, at any size, and forgets what a failed write gave without reusing it', () => {
    // 200,000 people: more than a spread into Math.max takes.
    const n = numbering(
      'person',
      Array.from({ length: 200_000 }, (_, i) => [i + 1, `u${i}`]),
    );
    expect(n.of('u5')).toBe(6);
    expect(n.of('new')).toBe(200_001);
    n.settle(false);
    expect(n.of('other')).toBe(200_002);
    expect(n.of('new')).toBe(200_003);
    n.settle(true);
    expect(n.of('new')).toBe(200_003);
  });
});
