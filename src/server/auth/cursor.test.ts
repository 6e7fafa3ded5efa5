import { describe, expect, it } from 'vitest';
import { cursorSealer } from './cursor';

const SECRET = 'a-session-secret-of-at-least-32-characters!';

describe('the /users cursor given to a reader whose rows are limited', () => {
  const cursors = cursorSealer(SECRET);

  it('names nobody, and opens only here to the cursor it seals', () => {
    const sealed = cursors.seal('usr_0042');
    expect(sealed).toMatch(/^[\w-]+$/);
    expect(sealed).not.toContain('usr_0042');
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain('usr_0042');
    expect(cursors.seal('usr_0042')).not.toBe(sealed); // two pages of one person look unrelated
    expect(cursors.open(sealed)).toBe('usr_0042');
    expect(cursorSealer(SECRET).open(sealed)).toBe('usr_0042'); // another replica, the same secret
    // Another secret, a changed character, a person's id or nothing at all: not a cursor of ours.
    const changed = sealed.slice(0, -2) + (sealed.endsWith('AA') ? 'BB' : 'AA');
    for (const other of [cursorSealer(`${SECRET}!`).seal('usr_0042'), changed, 'usr_0042', '', 'AAAA'])
      expect(cursors.open(other), other).toBeNull();
  });
});
