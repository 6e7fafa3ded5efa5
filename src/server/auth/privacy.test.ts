import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rollUp } from '../../test/teams-oracle';
import { foldSmall, parentOf, shownTeamOf, shownTeams, teamTree, UNASSIGNED, type TeamNode } from '../teams/tree';
import { readAuthConfig } from './config';
import { privacyLens, pseudonym, readPrivacyConfig } from './privacy';

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
      t('Eng', 11, [t('Eng/Web', 7, [t('Eng/Web/A', 2)]), t('Eng/Ops', 4, [t('Eng/Ops/Db', 1)])]),
      t('Sales', 2),
      t('Marketing', 3),
    ];
    const { teams, folded } = foldSmall(tree, shownTeams(tree, 4));
    expect(teams).toEqual([t('Eng', 11, [t('Eng/Web', 7), t('Eng/Ops', 4)])]);
    // Eng/Web/A, Eng/Ops/Db, Sales, Marketing.
    expect(folded).toBe(4);
    expect(foldSmall(tree, shownTeams(tree, 1))).toEqual({ teams: tree, folded: 0 });
  });

  it('leaves out a sub-team too when its parent less the sub-teams shown would single out fewer than k people', () => {
    // Eng less Eng/Big is Eng/Solo's one person; Ops less nothing shown is its six.
    const tree = [
      t('Eng', 5, [t('Eng/Big', 4), t('Eng/Solo', 1)]),
      t('Ops', 6, [t('Ops/Tiny', 2)]),
      t('Unassigned', 100),
    ];
    const shown = shownTeams(tree, 3);
    expect([...shown].sort()).toEqual(['Eng', 'Ops', 'Unassigned']);
    expect(shownTeamOf('Eng/Big', shown)).toBe('Eng');
    expect(shownTeamOf('Eng/Solo', shown)).toBe('Eng');
    expect(shownTeamOf('Ops/Tiny', shown)).toBe('Ops');
    expect(shownTeamOf('Unassigned', shown)).toBe('Unassigned');
    // The organization less its top-level teams shown is Sales' two: the smallest shown (Eng) goes with them.
    const org = [t('Eng', 5, [t('Eng/Big', 4), t('Eng/Solo', 1)]), t('Ops', 6), t('Sales', 2)];
    expect([...shownTeams(org, 3)].sort()).toEqual(['Ops']);
    expect(shownTeamOf('Eng/Big', shownTeams(org, 3))).toBeNull();
  });

  it('on any tree and k, shows no team of 1 to k−1 members, nor any whose rest beside its shown sub-teams is', () => {
    const scenario = fc.record({
      teams: fc.uniqueArray(
        fc.array(fc.constantFrom('A', 'B', 'C', 'D'), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/')),
        { minLength: 1, maxLength: 14 },
      ),
      direct: fc.array(fc.nat({ max: 9 }), { minLength: 15, maxLength: 15 }),
      k: fc.integer({ min: 2, max: 8 }),
    });
    fc.assert(
      fc.property(scenario, ({ teams, direct, k }) => {
        // Each team's own people, Unassigned's among them; the tree's counts are those rolled up.
        const own = new Map([...teams, UNASSIGNED].map((p, i) => [p, direct[i]!]));
        const rolled = rollUp(own, (a, b) => a + b, 0);
        const counted = (n: TeamNode): Node => ({
          path: n.path,
          members: rolled.get(n.path)!,
          children: n.children.map(counted),
        });
        const groups = [...teamTree(teams).map(counted), t(UNASSIGNED, own.get(UNASSIGNED)!)];
        const shown = shownTeams(groups, k);
        const all = (ns: readonly Node[]): Node[] => ns.flatMap((n) => [n, ...all(n.children)]);
        const total = groups.reduce((n, g) => n + g.members, 0);
        const rest = (members: number, children: readonly Node[]) =>
          members - children.filter((c) => shown.has(c.path)).reduce((n, c) => n + c.members, 0);
        const fine = (n: number) => n === 0 || n >= k;
        for (const n of all(groups)) {
          if (!shown.has(n.path)) continue;
          expect(fine(n.members), n.path).toBe(true);
          expect(fine(rest(n.members, n.children)), n.path).toBe(true);
          // Shown teams make a tree: a team shown is top-level or its parent is shown.
          const parent = parentOf(n.path);
          if (parent !== null) expect(shown.has(parent), n.path).toBe(true);
        }
        // The organization's figures are always shown: its rest too leaves no one or k people or more.
        if (total >= k) expect(fine(rest(total, groups))).toBe(true);
        // What is shown is what foldSmall leaves, and each person's team shown is the nearest shown up the tree.
        const kept = all(foldSmall(groups, shown).teams).map((n) => n.path);
        expect(kept.sort()).toEqual([...shown].sort());
        for (const n of all(groups)) {
          const label = shownTeamOf(n.path, shown);
          if (label !== null)
            expect(shown.has(label) && (n.path === label || n.path.startsWith(`${label}/`))).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
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
