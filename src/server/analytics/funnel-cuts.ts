/**
 * The graph behind the funnel's privacy decision (analytics/funnel-privacy.ts): what every figure given adds up from,
 * and the groups of people any sums and differences of them tell, which are the cuts of this graph.
 * - A unit is a team the tree shows, less the teams it shows under it (its members are given); '' the organization's
 *   own. A cell is a unit's starters of a week, an arc from the unit to the cohort it is given in (a team's week, with
 *   its sub-teams' not shown that week), of a capacity of its people. A unit's members who are not starters of the
 *   range are an arc to its row. Cells of no cohort given, and non-starters of no row given, go to the ground.
 * - A combination of the figures that counts each person 0 or 1 times gives each arc its tail's level less its head's,
 *   so the groups told are the arcs leaving the upper side of a cut that no arc enters from below.
 */
import { setImmediate as letGo } from 'node:timers/promises';
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
export type Cell = string;
/**
 * Cells of no cohort given, and non-starters of a unit in no row given: one vertex, as no figure splits them (their
 * whole is what the rest leaves, a group like any other).
 */
export const GROUND = 'g';
export const nearest = (team: string, within: ReadonlySet<string>): string | null => {
  for (let t: string | null = team; t !== null; t = t === '' ? null : (parentOf(t) ?? '')) if (within.has(t)) return t;
  return null;
};
export const depth = (team: string) => (team === '' ? 0 : depthOf(team));

export interface Units {
  /** Each unit's members. */
  members: Map<string, number>;
  /** Each unit's cells: week → starters. */
  cells: Map<string, Map<string, number>>;
  /** Each unit's members who are not starters of the range. */
  others: Map<string, number>;
}

export function unitsOf(g: FunnelGrid): Units {
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

export interface Arc {
  tail: string;
  head: string;
  people: number;
  cells: Cell[];
}

/** The graph of a decision: each unit's cells gathered by the cohort they are given in (none: the ground). */
export function arcsOf(units: Units, shown: FunnelShown): Arc[] {
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

/** The arcs with heads joined (`into`: a head → the head it joins), each tail's arcs into one head gathered. */
export function joined(arcs: readonly Arc[], into: ReadonlyMap<string, string>): Arc[] {
  const out = new Map<string, Arc>();
  for (const a of arcs) {
    const head = into.get(a.head) ?? a.head;
    const key = `${a.tail}\n${head}`;
    const b = out.get(key);
    if (b) {
      b.people += a.people;
      b.cells.push(...a.cells);
    } else out.set(key, { tail: a.tail, head, people: a.people, cells: [...a.cells] });
  }
  return [...out.values()];
}

/**
 * A cut of fewer than k people (a group that can be worked out, by its cells), or none. A cohort or row of fewer is
 * one (everything else above it); any other separates two units, so for each connected part of the graph, a flow from
 * one unit to every other and back, stopped at k: with every arc also open backwards without limit, a flow under k is
 * a cut that leaves no arc from its lower side into its upper. `verified`: the pairs of units already found k apart
 * in this graph or one it was joined from (withholding only joins vertices, so they stay k apart); not across graphs
 * made anew.
 */
export async function smallCut(arcs: readonly Arc[], k: number, verified: Set<string>): Promise<Cell[] | null> {
  const inflow = new Map<string, number>();
  for (const a of arcs) inflow.set(a.head, (inflow.get(a.head) ?? 0) + a.people);
  for (const [head, n] of inflow) if (n < k) return arcs.flatMap((a) => (a.head === head ? a.cells : []));

  const index = new Map<string, number>();
  const id = (v: string) => index.get(v) ?? (index.set(v, index.size), index.size - 1);
  const ends = arcs.map((a) => [id(a.tail), id(a.head)] as const);
  const n = index.size;
  // Vertices joined by k people or more one way, or by any both ways, are on one side of every cut under k: one.
  const parent = [...Array(n).keys()];
  const find = (v: number): number => (parent[v] === v ? v : (parent[v] = find(parent[v]!)));
  for (let changed = true; changed;) {
    changed = false;
    const between = new Map<number, number>();
    for (const [i, [t, h]] of ends.entries()) {
      const [a, b] = [find(t), find(h)];
      if (a !== b) between.set(a * n + b, (between.get(a * n + b) ?? 0) + arcs[i]!.people);
    }
    for (const [key, people] of between) {
      const [a, b] = [Math.floor(key / n), key % n];
      if ((people >= k || between.has(b * n + a)) && find(a) !== find(b)) {
        parent[find(a)] = find(b);
        changed = true;
      }
    }
  }
  // The graph of those joined: its arcs' people between them, and each vertex's arcs.
  const light = new Map<number, number>();
  for (const [i, [t, h]] of ends.entries()) {
    const [a, b] = [find(t), find(h)];
    if (a !== b) light.set(a * n + b, (light.get(a * n + b) ?? 0) + arcs[i]!.people);
  }
  const edges = [...light].map(([key, people]) => ({ tail: Math.floor(key / n), head: key % n, people }));
  const adj = new Map<number, number[]>();
  const link = (v: number, i: number) => {
    const list = adj.get(v);
    if (list) list.push(i);
    else adj.set(v, [i]);
  };
  edges.forEach((e, i) => (link(e.tail, i), link(e.head, i)));
  // The units, in their order, and the vertex each is in.
  const units = [...index.keys()].filter((v) => v.startsWith('u')).sort();
  const seen = new Set<number>();
  // The flows of a large organization take seconds: the server's other answers go on between them.
  let since = performance.now();
  for (const first of units) {
    const s = find(index.get(first)!);
    if (seen.has(s)) continue;
    const part = [s];
    seen.add(s);
    for (let i = 0; i < part.length; i++)
      for (const e of adj.get(part[i]!) ?? [])
        for (const v of [edges[e]!.tail, edges[e]!.head])
          if (!seen.has(v)) {
            seen.add(v);
            part.push(v);
          }
    const inPart = new Set(part);
    const tried = new Set<number>([s]);
    for (const other of units) {
      const t = find(index.get(other)!);
      if (!inPart.has(t) || tried.has(t)) continue;
      tried.add(t);
      for (const [from, to, key] of [
        [s, t, `${first}\n${other}`],
        [t, s, `${other}\n${first}`],
      ] as const) {
        if (verified.has(key)) continue;
        if (performance.now() - since > 10) {
          await letGo();
          since = performance.now();
        }
        const upper = flowUnder(from, to, k, edges, adj);
        if (!upper) {
          verified.add(key);
          continue;
        }
        return arcs.flatMap((a, i) => (upper.has(find(ends[i]![0])) && !upper.has(find(ends[i]![1])) ? a.cells : []));
      }
    }
  }
  return null;
}

/** The upper side of a cut from `s` to `t` of fewer than k, or none: augmenting paths, k at most. */
function flowUnder(
  s: number,
  t: number,
  k: number,
  edges: readonly { tail: number; head: number; people: number }[],
  adj: ReadonlyMap<number, readonly number[]>,
): Set<number> | null {
  // Each arc's room forwards (its people) and backwards (without limit).
  const forward = edges.map((e) => e.people);
  const backward = edges.map(() => Infinity);
  let flow = 0;
  for (;;) {
    const via = new Map<number, number>([[s, -1]]);
    const queue = [s];
    for (let i = 0; i < queue.length && !via.has(t); i++) {
      const v = queue[i]!;
      for (const e of adj.get(v) ?? []) {
        const { tail, head } = edges[e]!;
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
      const { tail, head } = edges[via.get(v)!]!;
      push = Math.min(push, v === head ? forward[via.get(v)!]! : backward[via.get(v)!]!);
      v = v === head ? tail : head;
    }
    flow += push;
    if (flow >= k) return null;
    for (let v = t; v !== s;) {
      const e = via.get(v)!;
      const { tail, head } = edges[e]!;
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
 * Whether a group (its cells) can still be worked out once heads are joined (`into`): each gathered arc's cells all
 * in it or none, and levels such that an arc in it drops one level and any other keeps its level.
 */
export function derivable(arcs: readonly Arc[], group: ReadonlySet<Cell>, into: ReadonlyMap<string, string>): boolean {
  const gathered = new Map<string, { tail: string; head: string; inside: number; all: number }>();
  for (const a of arcs) {
    const head = into.get(a.head) ?? a.head;
    const key = `${a.tail}\n${head}`;
    const g = gathered.get(key) ?? { tail: a.tail, head, inside: 0, all: 0 };
    g.inside += a.cells.filter((c) => group.has(c)).length;
    g.all += a.cells.length;
    gathered.set(key, g);
  }
  const adj = new Map<string, [string, number][]>();
  const link = (a: string, b: string, d: number) => {
    const list = adj.get(a);
    if (list) list.push([b, d]);
    else adj.set(a, [[b, d]]);
  };
  for (const { tail, head, inside, all } of gathered.values()) {
    if (inside > 0 && inside < all) return false;
    const d = inside > 0 ? 1 : 0;
    link(tail, head, -d);
    link(head, tail, d);
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
