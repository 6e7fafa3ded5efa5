import { describe, expect, it } from 'vitest';
import { readAuthConfig } from './config';
import { foldSmall, privacyLens, pseudonym, readPrivacyConfig } from './privacy';

const SECRET = 'a-privacy-secret-of-at-least-32-characters';

describe('pseudonyms', () => {
  it('are the same for the same id under the same secret (another process, another replica), and differ otherwise', () => {
    const a = pseudonym(SECRET, 'usr_0wl8rekp');
    expect(a).toMatch(/^Person [0-9a-f]{10}$/);
    // A fixed value: HMAC-SHA256 of the id under the secret, so every process with the secret names them alike,
    // and a change of the derivation (which would rename everyone) fails here.
    expect(a).toBe('Person 04604601d1');
    expect(pseudonym(SECRET, 'usr_0wl8rekq')).not.toBe(a);
    expect(pseudonym(`${SECRET}!`, 'usr_0wl8rekp')).not.toBe(a);
  });

  it('do not collide over 50,000 people', () => {
    const names = new Set(Array.from({ length: 50_000 }, (_, i) => pseudonym(SECRET, `usr_${i}`)));
    expect(names.size).toBe(50_000);
  });

  it('replace both the id and the email of a person, keeping the figures', () => {
    const lens = privacyLens({ minGroup: 3, secret: SECRET });
    expect(lens.person({ userId: 'u1', email: 'kim@acme.example', credits: 7 })).toEqual({
      userId: pseudonym(SECRET, 'u1'),
      email: null,
      credits: 7,
    });
    expect([0, 1, 2, 3].map(lens.tooFew)).toEqual([false, true, true, false]);
  });
});

describe('folding small teams', () => {
  interface Node {
    path: string;
    members: number;
    children: Node[];
  }
  const t = (path: string, members: number, children: Node[] = []): Node => ({ path, members, children });

  it('leaves out each team under k members and its sub-teams, keeping the counts of the teams shown', () => {
    const tree = [
      t('Eng', 10, [t('Eng/Web', 7, [t('Eng/Web/A', 2)]), t('Eng/Ops', 3, [t('Eng/Ops/Db', 1)])]),
      t('Sales', 2),
    ];
    const { teams, folded } = foldSmall(tree, 4);
    expect(teams).toEqual([t('Eng', 10, [t('Eng/Web', 7)])]);
    // Eng/Web/A, Eng/Ops (and its Db), Sales.
    expect(folded).toBe(4);
    expect(foldSmall(tree, 1)).toEqual({ teams: tree, folded: 0 });
  });
});

describe('PRIVACY_MIN_GROUP', () => {
  const signIn = {
    OIDC_ISSUER: 'https://id.example',
    OIDC_CLIENT_ID: 'c',
    OIDC_CLIENT_SECRET: 's',
    PUBLIC_URL: 'https://dash.example',
    SESSION_SECRET: 'a-session-secret-of-at-least-32-characters!',
  };

  it('is off by default, and takes a whole number of 2 or more, keyed by PRIVACY_SECRET else SESSION_SECRET', () => {
    expect(readAuthConfig(signIn)!.privacy).toBeUndefined();
    expect(readAuthConfig({ ...signIn, PRIVACY_MIN_GROUP: '5' })!.privacy).toEqual({
      minGroup: 5,
      secret: signIn.SESSION_SECRET,
    });
    expect(readPrivacyConfig({ PRIVACY_MIN_GROUP: '2', PRIVACY_SECRET: SECRET }, signIn.SESSION_SECRET)).toEqual({
      minGroup: 2,
      secret: SECRET,
    });
  });

  it('stops the server naming the setting when its value is not a group size, or when sign-in is off', () => {
    for (const bad of ['1', '0', '-3', '2.5', 'five', '3 people'])
      expect(() => readAuthConfig({ ...signIn, PRIVACY_MIN_GROUP: bad }), bad).toThrow(
        /^PRIVACY_MIN_GROUP must be a whole number of people, 2 or more/,
      );
    expect(() => readAuthConfig({ PRIVACY_MIN_GROUP: '5' })).toThrow(
      /^PRIVACY_MIN_GROUP needs sign-in \(OIDC_ISSUER\)/,
    );
    expect(() => readAuthConfig({ ...signIn, PRIVACY_MIN_GROUP: '5', PRIVACY_SECRET: 'short' })).toThrow(
      /^PRIVACY_SECRET must be at least 32 characters/,
    );
    expect(() => readAuthConfig({ ...signIn, PRIVACY_SECRET: SECRET })).toThrow(
      /^PRIVACY_SECRET is set without PRIVACY_MIN_GROUP/,
    );
  });
});
