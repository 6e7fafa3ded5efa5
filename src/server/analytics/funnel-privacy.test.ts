/**
 * Privacy mode's decision for the funnel against brute force, on small organizations: every group of people (cells
 * of a unit's starters of a week, and a unit's members who are not starters) whose figures are a combination of the
 * figures given, found by trying each group against the span of the rows, weeks and the tree's members.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWithin } from '../teams/tree';
import { decideFunnel, leakOf, type FunnelGrid, type FunnelShown } from './funnel-privacy';

const TEAMS = ['A', 'A/B', 'C'];
const WEEKS = ['2026-03-02', '2026-03-09', '2026-03-16'];
/** The trees privacy mode may show: each team with those above it. */
const TREES = [[], ['A'], ['C'], ['A', 'C'], ['A', 'A/B'], ['A', 'A/B', 'C']];
const within = (unit: string, group: string) => group === '' || (unit !== '' && isWithin(unit, group));

interface Org {
  k: number;
  tree: string[];
  /** Each team's starters by week, and its members who are not starters. */
  starters: Record<string, number[]>;
  others: Record<string, number>;
}

function gridOf(o: Org, start: FunnelShown): FunnelGrid {
  const own = (t: string) => (o.starters[t] ?? []).reduce((s, n) => s + n, 0) + (o.others[t] ?? 0);
  return {
    k: o.k,
    treeShown: new Set(o.tree),
    members: (t) => TEAMS.filter((x) => within(x, t)).reduce((s, x) => s + own(x), 0),
    cells: new Map(TEAMS.map((t) => [t, new Map(WEEKS.map((w, i) => [w, o.starters[t]?.[i] ?? 0]))])),
    start,
  };
}

const unitOf = (o: Org, team: string) =>
  [...o.tree].filter((t) => isWithin(team, t)).sort((x, y) => y.length - x.length)[0] ?? '';

/** The groups of 1 to k−1 people a decision tells, by brute force: each set of atoms tried against the span. */
function bruteLeaks(o: Org, shown: FunnelShown): string[][] {
  const units = ['', ...o.tree];
  const atoms: { unit: string; week: string | null; people: number }[] = [];
  for (const u of units) {
    const teams = TEAMS.filter((t) => unitOf(o, t) === u);
    WEEKS.forEach((w, i) => {
      const people = teams.reduce((s, t) => s + (o.starters[t]?.[i] ?? 0), 0);
      if (people > 0) atoms.push({ unit: u, week: w, people });
    });
    const others = teams.reduce((s, t) => s + (o.others[t] ?? 0), 0);
    if (others > 0) atoms.push({ unit: u, week: null, people: others });
  }
  const given: number[][] = [
    ...[...shown.rows].map((r) => atoms.map((a) => (a.week !== null && within(a.unit, r) ? 1 : 0))),
    ...[...shown.weeks].flatMap(([w, groups]) =>
      [...groups].map((g) => atoms.map((a) => (a.week === w && within(a.unit, g) ? 1 : 0))),
    ),
    ...units.map((u) => atoms.map((a) => (a.unit === u ? 1 : 0))),
  ];
  const rank = (rows: number[][]) => {
    const m = rows.map((r) => r.map(BigInt));
    const P = 1_000_000_007n;
    let r = 0;
    for (let c = 0; c < atoms.length && r < m.length; c++) {
      const at = m.findIndex((row, i) => i >= r && row[c]! % P !== 0n);
      if (at < 0) continue;
      [m[r], m[at]] = [m[at]!, m[r]!];
      for (let i = 0; i < m.length; i++)
        if (i !== r && m[i]![c]! % P !== 0n) {
          const f = m[i]![c]!;
          const p = m[r]![c]!;
          m[i] = m[i]!.map((v, j) => (((v * p - f * m[r]![j]!) % P) + P) % P);
        }
      r++;
    }
    return r;
  };
  const base = rank(given);
  const found: string[][] = [];
  for (let mask = 1; mask < 1 << atoms.length; mask++) {
    const chosen = atoms.filter((_, i) => mask & (1 << i));
    const people = chosen.reduce((s, a) => s + a.people, 0);
    if (people >= o.k) continue;
    const x = atoms.map((_, i) => (mask & (1 << i) ? 1 : 0));
    if (rank([...given, x]) === base) found.push(chosen.map((a) => `${a.unit || 'org'} ${a.week ?? 'others'}`));
  }
  return found;
}

const org = fc
  .record({
    k: fc.integer({ min: 2, max: 4 }),
    tree: fc.constantFrom(...TREES),
    starters: fc.record(
      Object.fromEntries(
        TEAMS.map((t) => [t, fc.array(fc.constantFrom(0, 0, 1, 1, 2, 3, 5), { minLength: 3, maxLength: 3 })]),
      ),
    ),
    others: fc.record(Object.fromEntries(TEAMS.map((t) => [t, fc.constantFrom(0, 1, 2, 4, 6)]))),
  })
  // Each unit of the tree has no members or at least k, as the tree decides.
  .filter((o) => {
    const members = new Map<string, number>();
    for (const t of TEAMS) {
      const u = unitOf(o, t);
      const own = o.starters[t]!.reduce((s: number, n) => s + n, 0) + o.others[t]!;
      members.set(u, (members.get(u) ?? 0) + own);
    }
    return [...members.values()].every((m) => m === 0 || m >= o.k);
  });
/** A decision to start from: any rows of the tree's teams and the organization, any groups of each week. */
const startOf = (o: Org) =>
  fc
    .record({
      rows: fc.subarray(['', ...o.tree]),
      weeks: fc.tuple(...WEEKS.map(() => fc.subarray(['', ...o.tree]))),
    })
    .map(({ rows, weeks }): FunnelShown => ({
      rows: new Set(rows),
      weeks: new Map(WEEKS.map((w, i) => [w, new Set(weeks[i])])),
    }));

describe('the funnel’s privacy, checked whole', () => {
  it('finds a group under k exactly when brute force finds one', async () => {
    await fc.assert(
      fc.asyncProperty(
        org.chain((o) => fc.tuple(fc.constant(o), startOf(o))),
        async ([o, start]) => {
          const leak = await leakOf(gridOf(o, start), start);
          const brute = bruteLeaks(o, start);
          expect(leak !== null, JSON.stringify({ leak, brute })).toBe(brute.length > 0);
          // And the group it finds is one of them.
          if (leak) {
            const label = (c: string) => {
              const [unit, week] = c.split('\n') as [string, string];
              return `${unit || 'org'} ${week || 'others'}`;
            };
            const key = (g: string[]) => [...g].sort().join('; ');
            expect(brute.map(key)).toContain(key(leak.map(label)));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('decides rows and weeks from which brute force finds no group under k, withholding only', async () => {
    await fc.assert(
      fc.asyncProperty(
        org.chain((o) => fc.tuple(fc.constant(o), startOf(o))),
        async ([o, start]) => {
          const shown = await decideFunnel(gridOf(o, start));
          expect(bruteLeaks(o, shown)).toEqual([]);
          // Out of mends at once: from coarser weeks, as safe.
          expect(bruteLeaks(o, await decideFunnel(gridOf(o, start), 0))).toEqual([]);
          expect([...shown.rows].every((r) => start.rows.has(r))).toBe(true);
          for (const [w, groups] of shown.weeks)
            expect([...groups].every((g) => start.weeks.get(w)?.has(g))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('withholds what a week of everyone less a team’s row would tell', async () => {
    // A's three starters all started in the first week, with C's one: everyone's week less A's row tells C's.
    const o: Org = {
      k: 2,
      tree: ['A', 'C'],
      starters: { A: [3, 0, 0], C: [1, 4, 0] },
      others: { A: 6, C: 6 },
    };
    const start: FunnelShown = {
      rows: new Set(['', 'A', 'C']),
      weeks: new Map([
        [WEEKS[0]!, new Set(['', 'A'])],
        [WEEKS[1]!, new Set(['', 'C'])],
        [WEEKS[2]!, new Set<string>()],
      ]),
    };
    expect(bruteLeaks(o, start)).toContainEqual(['C 2026-03-02']);
    expect(await leakOf(gridOf(o, start), start)).toEqual(['C\n2026-03-02']);
    const shown = await decideFunnel(gridOf(o, start));
    expect(bruteLeaks(o, shown)).toEqual([]);
    // The teams' rows stay; the weeks that told C's one go.
    expect([...shown.rows].sort()).toEqual(['', 'A', 'C']);
    expect(shown.weeks.get(WEEKS[0]!)!.has('')).toBe(false);
  });

  it('keeps rows and weeks that cross everywhere: no group under k follows', async () => {
    // Two starters of each team in each week, k = 3: each week and each row is told, no cell is.
    const o: Org = {
      k: 3,
      tree: ['A', 'C'],
      starters: { A: [2, 2, 2], 'A/B': [0, 0, 0], C: [2, 2, 2] },
      others: { A: 5, C: 5 },
    };
    const start: FunnelShown = {
      rows: new Set(['', 'A', 'C']),
      weeks: new Map(WEEKS.map((w) => [w, new Set([''])])),
    };
    expect(await leakOf(gridOf(o, start), start)).toBeNull();
    expect(await decideFunnel(gridOf(o, start))).toEqual(start);
  });
});
