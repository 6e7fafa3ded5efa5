/**
 * Privacy mode's decision for the funnel's starters, taken once for the organization and a range: which teams' rows
 * of the range are given, and which groups' weekly cohorts (a team's with its sub-teams', '' the organization's).
 *
 * Teams by week are a grid, and a chain of differences across a grid can tell one person (a week's cohort of two
 * teams, less a day's, less a team's row, plus its sub-team's). So the decision is checked exactly, on what every
 * figure given adds up from:
 * - a cell: a tree unit's starters of a week (a unit is a team the tree shows, less the teams it shows under it, whose
 *   members the tree gives; '' the organization's own);
 * - a unit's members who are not starters of the range, told only with its members.
 * Cells of no cohort given (and non-starters of no row given) are known only as what the rest leaves.
 *
 * A funnel row is a sum of cells, a cohort too, and a unit's members are its cells and its non-starters. Every
 * combination of those sums that gives a group of people (each person counted 0 or 1 times) gives each cell a unit's
 * level less its cohort's (and each unit's non-starters its own level less its row's), so the groups that can be
 * worked out are the cuts of a graph: units on one side, rows and cohorts on the other, a cell an arc from its unit to
 * its cohort of a capacity of its people (and a unit's non-starters an arc to its row), and a cut leaves no arc
 * from the lower side into the upper. The decision is safe when every such cut is of no one or at least k people:
 * the minimum cut, found by a flow capped at k. A cut under k is mended by withholding what joins its two sides,
 * the narrowest first (a team's week before the organization's, a week before a team's row).
 */
import { depthOf, parentOf } from '../teams/tree';

export interface FunnelGrid {
  k: number;
  /** The teams the tree shows (each with the teams above it): their members are given. */
  treeShown: ReadonlySet<string>;
  /** Members of each team with its sub-teams ('' the organization's). */
  members: (team: string) => number;
  /** Each team's own starters of the range (its sub-teams' not included) by the Monday of their week. */
  cells: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** What the simpler rules show, to start from: the rows ('' the organization's total) and each week's groups. */
  start: FunnelShown;
}

export interface FunnelShown {
  rows: Set<string>;
  weeks: Map<string, Set<string>>;
}

/** A cell's id: its unit, a line break and its week (none for the unit's non-starters). */
type Cell = string;
/** Cells of no cohort given, and non-starters of a unit in no row given: one vertex, as neither has a sum of its own. */
const GROUND = 'g';
const nearest = (team: string, within: ReadonlySet<string>): string | null => {
  for (let t: string | null = team; t !== null; t = t === '' ? null : (parentOf(t) ?? '')) if (within.has(t)) return t;
  return null;
};
const depth = (team: string) => (team === '' ? 0 : depthOf(team));

interface Units {
  /** Each unit's members. */
  members: Map<string, number>;
  /** Each unit's cells: week → starters. */
  cells: Map<string, Map<string, number>>;
  /** Each unit's members who are not starters of the range. */
  others: Map<string, number>;
}

function unitsOf(g: FunnelGrid): Units {
  const cells = new Map<string, Map<string, number>>();
  const starters = new Map<string, number>();
  for (const [team, weeks] of g.cells) {
    const u = nearest(team, g.treeShown) ?? '';
    const mine = cells.get(u) ?? new Map<string, number>();
    for (const [w, n] of weeks) {
      if (n <= 0) continue;
      mine.set(w, (mine.get(w) ?? 0) + n);
      starters.set(u, (starters.get(u) ?? 0) + n);
    }
    cells.set(u, mine);
  }
  const members = new Map<string, number>();
  const others = new Map<string, number>();
  for (const u of ['', ...g.treeShown]) {
    // A unit's members: its team's less those of the teams the tree shows right under it.
    let own = g.members(u);
    for (const c of g.treeShown) if ((parentOf(c) ?? '') === u && c !== u) own -= g.members(c);
    members.set(u, own);
    others.set(u, Math.max(0, own - (starters.get(u) ?? 0)));
  }
  return { members, cells, others };
}

interface Arc {
  tail: string;
  head: string;
  people: number;
  cells: Cell[];
}

/** The graph of a decision: each unit's cells gathered by the cohort they are given in (none: the ground). */
function arcsOf(units: Units, shown: FunnelShown): Arc[] {
  const arcs = new Map<string, Arc>();
  const add = (tail: string, head: string, people: number, cell: Cell) => {
    const key = `${tail}\n${head}`;
    const a = arcs.get(key) ?? { tail, head, people: 0, cells: [] };
    a.people += people;
    a.cells.push(cell);
    arcs.set(key, a);
  };
  const none = new Set<string>();
  for (const [u, weeks] of units.cells)
    for (const [w, n] of weeks) {
      const g = nearest(u, shown.weeks.get(w) ?? none);
      add(`u${u}`, g === null ? GROUND : `c${w}\n${g}`, n, `${u}\n${w}`);
    }
  for (const [u, n] of units.others) {
    if (n === 0) continue;
    const r = nearest(u, shown.rows);
    add(`u${u}`, r === null ? GROUND : `r${r}`, n, `${u}\n`);
  }
  return [...arcs.values()];
}

/**
 * A cut of fewer than k people (a group that can be worked out, by its cells), or none. For each connected part of
 * the graph, a flow from one vertex to every other and back, stopped at k: with every arc also open backwards without
 * limit, a flow under k is a cut that leaves no arc from its lower side into its upper.
 */
function smallCut(arcs: readonly Arc[], k: number): Cell[] | null {
  const index = new Map<string, number>();
  const id = (v: string) => index.get(v) ?? (index.set(v, index.size), index.size - 1);
  const ends = arcs.map((a) => [id(a.tail), id(a.head)] as const);
  const n = index.size;
  const adj: number[][] = Array.from({ length: n }, () => []);
  ends.forEach(([t, h], i) => (adj[t]!.push(i), adj[h]!.push(i)));
  const seen = new Array<boolean>(n).fill(false);
  for (let s = 0; s < n; s++) {
    if (seen[s]) continue;
    const part: number[] = [s];
    seen[s] = true;
    for (let i = 0; i < part.length; i++)
      for (const e of adj[part[i]!]!)
        for (const v of ends[e]!)
          if (!seen[v]) {
            seen[v] = true;
            part.push(v);
          }
    for (const t of part.slice(1))
      for (const [from, to] of [
        [s, t],
        [t, s],
      ] as const) {
        const upper = flowUnder(from, to, k, ends, arcs, adj);
        if (upper) return arcs.flatMap((a, i) => (upper.has(ends[i]![0]) && !upper.has(ends[i]![1]) ? a.cells : []));
      }
  }
  return null;
}

/** The upper side of a cut from `s` to `t` of fewer than k, or none: augmenting paths, k at most. */
function flowUnder(
  s: number,
  t: number,
  k: number,
  ends: readonly (readonly [number, number])[],
  arcs: readonly Arc[],
  adj: readonly number[][],
): Set<number> | null {
  // Each arc's room forwards (its people) and backwards (without limit, less nothing).
  const forward = arcs.map((a) => a.people);
  const backward = arcs.map(() => Infinity);
  let flow = 0;
  for (;;) {
    const via = new Map<number, number>([[s, -1]]);
    const queue = [s];
    for (let i = 0; i < queue.length && !via.has(t); i++) {
      const v = queue[i]!;
      for (const e of adj[v]!) {
        const [tail, head] = ends[e]!;
        const [w, room] = v === tail ? [head, forward[e]!] : [tail, backward[e]!];
        if (room > 0 && !via.has(w)) {
          via.set(w, e);
          queue.push(w);
        }
      }
    }
    if (!via.has(t)) return new Set(via.keys());
    let push = Infinity;
    for (let v = t; v !== s;) {
      const e = via.get(v)!;
      const [tail, head] = ends[e]!;
      push = Math.min(push, v === head ? forward[e]! : backward[e]!);
      v = v === head ? tail : head;
    }
    flow += push;
    if (flow >= k) return null;
    for (let v = t; v !== s;) {
      const e = via.get(v)!;
      const [tail, head] = ends[e]!;
      if (v === head) {
        forward[e]! -= push;
        backward[e]! += push;
      } else {
        backward[e]! -= push;
        forward[e]! += push;
      }
      v = v === head ? tail : head;
    }
  }
}

/**
 * Whether a group (its cells) can still be worked out from the figures of a decision: each arc's cells all in it or
 * none, and levels such that an arc in it drops one level and any other keeps its level.
 */
function derivable(arcs: readonly Arc[], group: ReadonlySet<Cell>): boolean {
  const adj = new Map<string, [string, number][]>();
  const link = (a: string, b: string, d: number) => adj.set(a, [...(adj.get(a) ?? []), [b, d]]);
  for (const a of arcs) {
    const inside = a.cells.filter((c) => group.has(c)).length;
    if (inside > 0 && inside < a.cells.length) return false;
    const d = inside > 0 ? 1 : 0;
    link(a.tail, a.head, -d);
    link(a.head, a.tail, d);
  }
  const level = new Map<string, number>();
  for (const start of adj.keys()) {
    if (level.has(start)) continue;
    level.set(start, 0);
    const stack = [start];
    while (stack.length > 0) {
      const v = stack.pop()!;
      for (const [w, d] of adj.get(v)!) {
        const want = level.get(v)! + d;
        if (!level.has(w)) {
          level.set(w, want);
          stack.push(w);
        } else if (level.get(w) !== want) return false;
      }
    }
  }
  return true;
}

const copy = (s: FunnelShown): FunnelShown => ({
  rows: new Set(s.rows),
  weeks: new Map([...s.weeks].map(([w, g]) => [w, new Set(g)])),
});

/** What is withheld to mend a cut, narrowest first: a team's week, the organization's week, a team's row. */
function mends(arcs: readonly Arc[], cut: readonly Cell[]): ((s: FunnelShown) => void)[] {
  const tails = new Set(cut.map((c) => `u${c.slice(0, c.indexOf('\n'))}`));
  const weeks: { w: string; g: string; people: number }[] = [];
  const rows = new Set<string>();
  const size = new Map<string, number>();
  for (const a of arcs) size.set(a.head, (size.get(a.head) ?? 0) + a.people);
  for (const a of arcs) {
    if (!tails.has(a.tail)) continue;
    if (a.head.startsWith('c')) {
      const [w, g] = a.head.slice(1).split('\n') as [string, string];
      if (!weeks.some((x) => x.w === w && x.g === g)) weeks.push({ w, g, people: size.get(a.head)! });
    } else if (a.head.startsWith('r')) rows.add(a.head.slice(1));
  }
  weeks.sort((x, y) => depth(y.g) - depth(x.g) || x.people - y.people || (x.w < y.w ? -1 : x.w > y.w ? 1 : 0));
  // The organization's row last: its total and its weeks.
  const byDepth = [...rows].sort((x, y) => depth(y) - depth(x) || (x < y ? -1 : 1));
  return [
    ...weeks.map(
      ({ w, g }) =>
        (s: FunnelShown) =>
          void s.weeks.get(w)?.delete(g),
    ),
    ...byDepth.map((r) => (s: FunnelShown) => {
      s.rows.delete(r);
      for (const groups of s.weeks.values()) groups.delete(r);
    }),
  ];
}

/** A group of fewer than k that a decision's figures tell (its cells), or none. */
export const leakOf = (g: FunnelGrid, shown: FunnelShown): Cell[] | null => smallCut(arcsOf(unitsOf(g), shown), g.k);

/** The rows and weeks privacy mode gives: from the simpler rules' decision, withheld more until no cut is under k. */
export function decideFunnel(g: FunnelGrid): FunnelShown {
  const units = unitsOf(g);
  // A unit of 1 to k−1 members is the tree's to withhold (only an organization that small has one): nothing is given.
  if ([...units.members.values()].some((m) => m > 0 && m < g.k)) return { rows: new Set(), weeks: new Map() };
  let shown = copy(g.start);
  for (;;) {
    const arcs = arcsOf(units, shown);
    const cut = smallCut(arcs, g.k);
    if (!cut) return shown;
    const group = new Set(cut);
    const options = mends(arcs, cut);
    // Nothing left to withhold that touches the group: every row and week is withheld.
    if (options.length === 0) return { rows: new Set(), weeks: new Map() };
    // The first that leaves the group untold; else the first, and the next cut is found from there.
    let chosen = options[0]!;
    for (const mend of options) {
      const next = copy(shown);
      mend(next);
      if (!derivable(arcsOf(units, next), group)) {
        chosen = mend;
        break;
      }
    }
    const next = copy(shown);
    chosen(next);
    shown = next;
  }
}
