import { describe, expect, it } from 'vitest';
import { sharpDrop } from './rules';

describe('a sharp drop of a team’s active people', () => {
  it('is 30 % or more, from at least 5 people', () => {
    expect(sharpDrop(10, 7)).toBe(true);
    expect(sharpDrop(10, 8)).toBe(false);
    expect(sharpDrop(4, 0)).toBe(false); // too few to say
    expect(sharpDrop(5, 3)).toBe(true);
  });
});
