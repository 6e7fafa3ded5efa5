import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, MAX_NAME, parseMapping } from './mapping';
import {
  UNASSIGNED,
  ancestors,
  comparePaths,
  isWithin,
  parentOf,
  teamTree,
  withAncestors,
  type TeamNode,
} from './tree';
import { assignUsers, directByTeam, membersOf, rollUp, topLevel } from '../../test/teams-oracle';

const sum = (a: number, b: number) => a + b;

describe('team paths', () => {
  it('ancestors, parent, within', () => {
    expect(ancestors('A/B/C')).toEqual(['A', 'A/B', 'A/B/C']);
    expect(ancestors('A')).toEqual(['A']);
    expect(parentOf('A/B/C')).toBe('A/B');
    expect(parentOf('A')).toBeNull();
    expect(isWithin('A/B', 'A')).toBe(true);
    expect(isWithin('A', 'A')).toBe(true);
    expect(isWithin('AB', 'A')).toBe(false);
    expect(isWithin('A', 'A/B')).toBe(false);
  });

  it('sorts in tree order, siblings by name case-insensitively', () => {
    const paths = ['b', 'A/z', 'A-x', 'A', 'A/B/c', 'a2', 'A/b2'];
    expect([...paths].sort(comparePaths)).toEqual(['A', 'A/B/c', 'A/b2', 'A/z', 'A-x', 'a2', 'b']);
    expect(withAncestors(['X/Y/Z', 'X/W'])).toEqual(['X', 'X/W', 'X/Y', 'X/Y/Z']);
  });

  it('top-level teams', () => {
    expect(topLevel(['Eng/Infra', 'Data', 'Eng', 'Data/ML/Eval', 'Ops/IT'])).toEqual(['Data', 'Eng', 'Ops']);
    expect(topLevel([])).toEqual([]);
  });

  it('builds the tree, ancestors filled in, each level sorted by name', () => {
    const shape = (nodes: TeamNode[]): unknown =>
      nodes.map((n) => (n.children.length ? { [n.name]: shape(n.children) } : n.name));
    const tree = teamTree(['Eng/Platform/Storage', 'Data', 'Eng/Apps', 'Eng/Platform/Compute', 'Eng/Platform/Storage']);
    expect(shape(tree)).toEqual(['Data', { Eng: ['Apps', { Platform: ['Compute', 'Storage'] }] }]);
    expect(tree[1]!.children[1]).toMatchObject({ path: 'Eng/Platform', name: 'Platform', depth: 2 });
    expect(tree[1]!.children[1]!.children[1]).toMatchObject({ path: 'Eng/Platform/Storage', depth: 3, children: [] });
  });
});

describe('assigning users', () => {
  const parsed = parseMapping(
    [
      'email,user_id,team',
      'ann@acme.com,,Eng/Infra',
      ',usr_2,Data',
      'cy@acme.com,usr_3,Eng',
      // usr_4's email is listed for Sales, but its user_id for Ops: the user_id wins
      'dee@acme.com,,Sales',
      ',usr_4,Ops',
    ].join('\n'),
    'csv',
  );
  if (!parsed.ok) throw new Error(parsed.errors[0]!.message);
  const mapping = parsed.mapping;

  it('matches by user_id first, then by email case-insensitively; the rest are Unassigned', () => {
    const users = [
      { userId: 'usr_1', email: 'Ann@ACME.com' },
      { userId: 'usr_2', email: null },
      { userId: 'usr_3', email: 'someone.else@acme.com' },
      { userId: 'usr_4', email: 'dee@acme.com' },
      { userId: 'usr_5', email: 'nobody@acme.com' },
      { userId: 'usr_6', email: null },
    ];
    expect(Object.fromEntries(assignUsers(mapping, users))).toEqual({
      usr_1: 'Eng/Infra',
      usr_2: 'Data',
      usr_3: 'Eng',
      usr_4: 'Ops',
      usr_5: UNASSIGNED,
      usr_6: UNASSIGNED,
    });
  });

  it('finds the members of a team and of its sub-teams', () => {
    const a = new Map([
      ['u1', 'Eng/Infra'],
      ['u2', 'Eng'],
      ['u3', 'Engine'],
      ['u4', UNASSIGNED],
      ['u5', 'Eng/Infra/Storage'],
    ]);
    expect(membersOf('Eng', a)).toEqual(['u1', 'u2', 'u5']);
    expect(membersOf('Eng/Infra', a)).toEqual(['u1', 'u5']);
    expect(membersOf(UNASSIGNED, a)).toEqual(['u4']);
    expect(membersOf('Nope', a)).toEqual([]);
  });
});

describe('roll-ups', () => {
  it('gives each team its own figure plus its sub-teams', () => {
    const direct = new Map([
      ['Eng', 1],
      ['Eng/Infra/Storage', 10],
      ['Eng/Infra', 100],
      ['Eng/Apps', 1000],
      ['Data/ML', 5],
      [UNASSIGNED, 7],
    ]);
    expect(Object.fromEntries(rollUp(direct, sum, 0))).toEqual({
      Data: 5,
      'Data/ML': 5,
      Eng: 1111,
      'Eng/Apps': 1000,
      'Eng/Infra': 110,
      'Eng/Infra/Storage': 10,
      [UNASSIGNED]: 7,
    });
    expect(rollUp(new Map(), sum, 0).size).toBe(0);
  });

  it('rolls up distinct users as a set union, not a sum', () => {
    const union = (a: ReadonlySet<string>, b: ReadonlySet<string>) => new Set([...a, ...b]);
    const zero: ReadonlySet<string> = new Set();
    const direct = new Map<string, ReadonlySet<string>>([
      ['A/B', new Set(['u1', 'u2'])],
      ['A/C', new Set(['u2', 'u3'])], // u2 is active in both (say, moved on a later day)
    ]);
    const up = rollUp(direct, union, zero);
    expect([...up.get('A')!].sort()).toEqual(['u1', 'u2', 'u3']);
    expect(zero.size).toBe(0); // the shared zero is never changed
  });

  it('adds per-user figures into each user’s own team, an unknown user into Unassigned', () => {
    const a = new Map([
      ['u1', 'Eng/Infra'],
      ['u2', 'Eng/Infra'],
      ['u3', 'Eng'],
    ]);
    const perUser: [string, number][] = [
      ['u1', 2],
      ['u2', 3],
      ['u3', 4],
      ['u9', 5],
    ];
    expect(Object.fromEntries(directByTeam(a, perUser, sum, 0))).toEqual({
      'Eng/Infra': 5,
      Eng: 4,
      [UNASSIGNED]: 5,
    });
  });
});

describe('a wide and a deep mapping near the limits', () => {
  /** A name of exactly the longest length a mapping takes, in the order of `i`. */
  const name = (word: string, i: number) => `${word} ${String(i).padStart(5, '0')} `.padEnd(MAX_NAME, 'x');
  const n = 5_000;
  const tops = Array.from({ length: n }, (_, i) => name('Top', i));
  const subs = Array.from({ length: n }, (_, i) => `${tops[0]}/${name('Sub', i)}`);
  // A chain of the deepest teams, and beside each of its teams a leaf.
  const chain = ancestors(Array.from({ length: MAX_DEPTH }, (_, i) => name('Level', i)).join('/'));
  const sides = chain.slice(0, -1).map((p, k) => `${p}/${name('Side', k)}`);

  it('builds the tree, its order and the roll-ups of 10,000 sibling teams and of teams 20 levels deep', () => {
    const teams = [...tops, ...subs, ...chain, ...sides];
    const rows = teams.map((t, i) => `u${i}@acme.com,"${t}"`).reverse();
    const parsed = parseMapping(['email,team', ...rows].join('\n'), 'csv');
    if (!parsed.ok) throw new Error(parsed.errors[0]!.message);
    // Tree order: the chain's teams each before its side leaf ("Level" < "Side"), then Top 0 with its subs.
    const order = [...chain, ...[...sides].reverse(), tops[0]!, ...subs, ...tops.slice(1)];
    expect(parsed.mapping.teams).toEqual(order);
    expect(withAncestors(teams)).toEqual(order);

    const tree = teamTree(parsed.mapping.teams);
    expect(tree.map((t) => t.path)).toEqual([chain[0], ...tops]);
    expect(tree[1]!.children.map((t) => [t.path, t.name, t.depth])).toEqual(subs.map((s, i) => [s, name('Sub', i), 2]));
    for (let k = 0, node = tree[0]!; k < MAX_DEPTH; k++, node = node.children[0]!) {
      expect([node.path, node.name, node.depth]).toEqual([chain[k], name('Level', k), k + 1]);
      expect(node.children.map((c) => c.path)).toEqual(k + 1 < MAX_DEPTH ? [chain[k + 1], sides[k]] : []);
    }

    // One member per team: a team counts itself and every team below it.
    const rolled = rollUp(new Map(teams.map((t) => [t, 1])), sum, 0);
    expect(rolled.size).toBe(teams.length);
    expect(rolled.get(tops[0]!)).toBe(n + 1);
    expect(rolled.get(tops[1]!)).toBe(1);
    chain.forEach((p, k) => expect(rolled.get(p)).toBe(2 * (MAX_DEPTH - k) - 1));
  });

  it('takes the paths’ own length, however deep: a chain of 1,500 levels, past any mapping’s limit', () => {
    const levels = 1_500;
    const all = ancestors(Array.from({ length: levels }, (_, i) => `L${i}`).join('/'));
    expect(all).toHaveLength(levels);
    expect(withAncestors([...all].reverse())).toEqual(all);
    let nodes = teamTree(all);
    for (let k = 0; k < levels; k++, nodes = nodes[0]!.children) {
      expect(nodes.map((t) => [t.path, t.name, t.depth])).toEqual([[all[k], `L${k}`, k + 1]]);
    }
    expect(nodes).toEqual([]);
    const rolled = rollUp(new Map([[all.at(-1)!, 1]]), sum, 0);
    expect([...rolled.keys()]).toEqual(all);
    expect([...rolled.values()].every((v) => v === 1)).toBe(true);
  });
});
