/**
 * Privacy mode's decision for the funnel's starters, taken once for the organization and a range: which teams' rows
 * of the range are given, and which groups' weekly cohorts (a team's with its sub-teams', '' the organization's).
 *
 * Teams by week are a grid, and a chain of differences across a grid can tell one person (a week's cohort of two
 * teams, less a day's, less a team's row, plus its sub-team's). The decision starts from the sibling rules (under
 * each parent, what is withheld holds none or at least k starters: teams in a week, weeks in a team's row), then is
 * checked exactly (analytics/funnel-cuts.ts: every group any sums and differences of the figures and the tree's
 * members tell is a cut of a graph, and the smallest is found by a flow capped at k). A cut under k is mended by
 * withholding the narrowest figure that leaves its group untold: a team's week before the organization's, a week
 * before a team's row.
 */
import { setImmediate as letGo } from 'node:timers/promises';
import { parentOf } from '../teams/tree';
import {
  arcsOf,
  depth,
  derivable,
  GROUND,
  joined,
  nearest,
  smallCut,
  unitsOf,
  type Arc,
  type Cell,
  type FunnelGrid,
  type FunnelShown,
  type Units,
} from './funnel-cuts';

export type { FunnelGrid, FunnelShown } from './funnel-cuts';

const copy = (s: FunnelShown): FunnelShown => ({
  rows: new Set(s.rows),
  weeks: new Map([...s.weeks].map(([w, g]) => [w, new Set(g)])),
});

/** What withholding a figure does: the decision's change, and the heads it joins to the next ones up. */
interface Mend {
  apply: (s: FunnelShown) => void;
  into: Map<string, string>;
}

/** What is withheld to mend a cut, narrowest first: a team's week, the organization's week, a team's row. */
function mends(arcs: readonly Arc[], cut: readonly Cell[], shown: FunnelShown): Mend[] {
  const above = (team: string, within: ReadonlySet<string>) =>
    team === '' ? null : nearest(parentOf(team) ?? '', within);
  const weekInto = (w: string, g: string, groups: ReadonlySet<string>): [string, string] => {
    const to = above(g, groups);
    return [`c${w}\n${g}`, to === null ? GROUND : `c${w}\n${to}`];
  };
  const tails = new Set(cut.map((c) => `u${c.slice(0, c.indexOf('\n'))}`));
  const size = new Map<string, number>();
  for (const a of arcs) size.set(a.head, (size.get(a.head) ?? 0) + a.people);
  const weeks = new Map<string, { w: string; g: string; people: number }>();
  const rows = new Set<string>();
  for (const a of arcs) {
    if (!tails.has(a.tail)) continue;
    if (a.head.startsWith('c')) {
      const at = a.head.indexOf('\n');
      weeks.set(a.head, { w: a.head.slice(1, at), g: a.head.slice(at + 1), people: size.get(a.head)! });
    } else if (a.head.startsWith('r')) rows.add(a.head.slice(1));
  }
  const narrow = [...weeks.values()].sort(
    (x, y) => depth(y.g) - depth(x.g) || x.people - y.people || (x.w < y.w ? -1 : x.w > y.w ? 1 : 0),
  );
  // The organization's row last: its total and its weeks.
  const byDepth = [...rows].sort((x, y) => depth(y) - depth(x) || (x < y ? -1 : 1));
  return [
    ...narrow.map(({ w, g }) => ({
      apply: (s: FunnelShown) => void s.weeks.get(w)?.delete(g),
      into: new Map([weekInto(w, g, shown.weeks.get(w)!)]),
    })),
    ...byDepth.map((r) => {
      const to = above(r, shown.rows);
      const into = new Map([[`r${r}`, to === null ? GROUND : `r${to}`]]);
      for (const [w, groups] of shown.weeks) if (groups.has(r)) into.set(...weekInto(w, r, groups));
      return {
        apply: (s: FunnelShown) => {
          s.rows.delete(r);
          for (const groups of s.weeks.values()) groups.delete(r);
        },
        into,
      };
    }),
  ];
}

/** What the organization's decision for a range is made from. */
export interface FunnelFacts {
  k: number;
  /** Every team with those above it, Unassigned among them. */
  teams: readonly string[];
  /** The teams the tree shows (each with the teams above it): their members are given. */
  treeShown: ReadonlySet<string>;
  /** Members of a team with its sub-teams ('' the organization's). */
  members: (team: string) => number;
  /** Starters of the range of a team with its sub-teams ('' the organization's). */
  starters: (team: string) => number;
  /** Each week's starters (by its Monday) of each team with its sub-teams ('' the organization's). */
  weeks: ReadonlyMap<string, ReadonlyMap<string, number>>;
}

/**
 * The organization's decision: to start from, each team's row withheld as a child of its parent (`teamsWithheld`,
 * with the members it leaves untold), each week's teams likewise, and each row's weeks as its children; then checked
 * whole (`decideFunnel`).
 */
export async function decideFunnelFor(f: FunnelFacts, budget?: number): Promise<FunnelShown> {
  const { k, teams: all, treeShown } = f;
  const members = (t: string | null) => f.members(t ?? '');
  const few = (x: number) => x > 0 && x < k;
  // A team's starters of the range are shown as its row of the teams: those of its members who are not are told.
  const thin = new Set(all.filter((t) => f.starters(t) > 0 && few(members(t) - f.starters(t))));
  const rowsHidden = teamsWithheld(all, f.starters(''), f.starters, k, thin, members);
  const rows = new Set(all.filter((t) => treeShown.has(t) && !rowsHidden.has(t)));
  if (f.starters('') >= k) rows.add('');

  const ofWeek = (t: string, w: string) => f.weeks.get(w)?.get(t) ?? 0;
  const kids = new Map<string, string[]>();
  for (const t of all) kids.set(parentOf(t) ?? '', [...(kids.get(parentOf(t) ?? '') ?? []), t]);
  // Each team's own starters of each week (its sub-teams' taken out).
  const cells = new Map<string, Map<string, number>>();
  for (const t of ['', ...all]) {
    const own = new Map<string, number>();
    for (const w of f.weeks.keys()) {
      const x = ofWeek(t, w) - (kids.get(t) ?? []).reduce((s, c) => s + ofWeek(c, w), 0);
      if (x > 0) own.set(w, x);
    }
    if (own.size > 0) cells.set(t, own);
  }
  // Each week's teams withheld as children of their parents, and each row's weeks withheld as children of the row:
  // a row whose withheld weeks hold 1 to k−1 starters has its smallest week shown withheld too, until neither
  // rule withholds more (a team's week withheld then needs a sibling withheld in that week, and so on).
  const forced = new Map([...f.weeks.keys()].map((w) => [w, new Set<string>()]));
  const weeks = new Map<string, Set<string>>();
  const decideWeek = (w: string) => {
    const out = teamsWithheld(all, ofWeek('', w), (t) => ofWeek(t, w), k, forced.get(w));
    const groups = new Set([...rows].filter((t) => t !== '' && !out.has(t)));
    if (rows.has('') && ofWeek('', w) >= k && !forced.get(w)!.has('')) groups.add('');
    weeks.set(w, groups);
  };
  // A large organization's rounds take a while: the server's other answers go on between them.
  let since = performance.now();
  const pause = async () => {
    if (performance.now() - since < 10) return;
    await letGo();
    since = performance.now();
  };
  for (const w of f.weeks.keys()) {
    decideWeek(w);
    await pause();
  }
  for (let again = true; again;) {
    // A row's week withheld is still told when its parent's week less the weeks shown under it holds no one else.
    const rest = new Map<string, number>();
    const told = (t: string, w: string) => {
      const groups = weeks.get(w)!;
      let p: string | null = t;
      while (p !== null && !groups.has(p)) p = p === '' ? null : (parentOf(p) ?? '');
      if (p === null) return false;
      const key = `${p}\n${w}`;
      if (!rest.has(key))
        rest.set(
          key,
          ofWeek(p, w) - (kids.get(p) ?? []).reduce((sum, c) => sum + (groups.has(c) ? ofWeek(c, w) : 0), 0),
        );
      return rest.get(key) === ofWeek(t, w);
    };
    const changed = new Set<string>();
    for (const t of rows) {
      await pause();
      let untold = 0;
      let smallest: string | null = null;
      for (const w of f.weeks.keys()) {
        const x = ofWeek(t, w);
        if (x === 0) continue;
        if (weeks.get(w)!.has(t)) {
          if (smallest === null || x < ofWeek(t, smallest)) smallest = w;
        } else if (!told(t, w)) untold += x;
      }
      if (untold === 0 || untold >= k || smallest === null) continue;
      forced.get(smallest)!.add(t);
      changed.add(smallest);
    }
    for (const w of changed) {
      decideWeek(w);
      await pause();
    }
    again = changed.size > 0;
  }
  return decideFunnel({ k, treeShown, members: f.members, cells, start: { rows, weeks } }, budget);
}

/** A group of fewer than k that a decision's figures tell (its cells), or none. */
export const leakOf = (g: FunnelGrid, shown: FunnelShown): Promise<Cell[] | null> =>
  smallCut(arcsOf(unitsOf(g), shown), g.k, new Set());

/**
 * The rows and weeks privacy mode gives: from the simpler rules' decision, withheld more until no cut is under k. A
 * decision that takes more than `budget` mends starts again from coarser weeks (those of the top-level teams and the
 * organization, then the organization's, then none), so a large organization's answer stays quick.
 */
export async function decideFunnel(g: FunnelGrid, budget = 40): Promise<FunnelShown> {
  const units = unitsOf(g);
  const nothing = (): FunnelShown => ({ rows: new Set(), weeks: new Map() });
  // A unit of 1 to k−1 members is the tree's to withhold (only an organization that small has one): nothing is given.
  if ([...units.members.values()].some((m) => m > 0 && m < g.k)) return nothing();
  const coarser = (keep: (group: string) => boolean): FunnelShown => ({
    rows: new Set(g.start.rows),
    weeks: new Map([...g.start.weeks].map(([w, groups]) => [w, new Set([...groups].filter(keep))])),
  });
  const starts = [
    copy(g.start),
    coarser((t) => t === '' || depth(t) === 1),
    coarser((t) => t === ''),
    coarser(() => false),
  ];
  for (const [i, start] of starts.entries()) {
    const settled = await settle(units, start, g.k, i < starts.length - 1 ? budget : Infinity);
    if (settled) return settled;
  }
  return nothing();
}

/** Mends a decision until no cut is under k: none if it takes more than `budget` mends. */
async function settle(units: Units, shown: FunnelShown, k: number, budget: number): Promise<FunnelShown | null> {
  let arcs = arcsOf(units, shown);
  const verified = new Set<string>();
  for (let mended = 0; ; mended++) {
    const cut = await smallCut(arcs, k, verified);
    if (!cut) return shown;
    if (mended >= budget) return null;
    const group = new Set(cut);
    const options = mends(arcs, cut, shown);
    // Nothing left to withhold that touches the group: no row and no week is given.
    if (options.length === 0) return { rows: new Set(), weeks: new Map() };
    // The first that leaves the group untold; else the one that joins the group's own cohort to the next up.
    const own = new Set(arcs.filter((a) => a.cells.some((c) => group.has(c))).map((a) => a.head));
    let chosen: Mend | undefined;
    for (const m of options) {
      // Each trial reads the whole graph: the server's other answers go on between them.
      await letGo();
      if (!derivable(arcs, group, m.into)) {
        chosen = m;
        break;
      }
    }
    chosen ??= options.find((m) => [...m.into.keys()].some((h) => own.has(h))) ?? options[0]!;
    chosen.apply(shown);
    arcs = joined(arcs, chosen.into);
  }
}

/**
 * The children of a parent of `total` people withheld: those of fewer than k (and those in `also`), and then the
 * smallest shown ones until what is withheld (the parent's own people outside every child included) is none or at
 * least k, and so is what the shown leave of the parent's `outer` group (its members, when those are told).
 */
export function suppressed(
  total: number,
  kids: readonly (readonly [string, number, number?])[],
  k: number,
  also: ReadonlySet<string> = new Set(),
  outer = total,
): Set<string> {
  const hidden = new Set(kids.filter(([g, n]) => n > 0 && (n < k || also.has(g))).map(([g]) => g));
  const shown = kids.filter(([g, n]) => n > 0 && !hidden.has(g)).sort((x, y) => x[1] - y[1] || (x[0] < y[0] ? -1 : 1));
  const few = (x: number) => x > 0 && x < k;
  const sum = (of: (kid: (typeof kids)[number]) => number) =>
    kids.reduce((s, kid) => s + (hidden.has(kid[0]) ? 0 : of(kid)), 0);
  // Teams carry their members: those of the withheld (the parent's own people with them) less their starters too.
  const teams = kids.some((kid) => kid[2] !== undefined);
  const told = () => {
    const starters = total - sum(([, n]) => n);
    const people = outer - sum(([, n, m]) => m ?? n);
    return few(starters) || few(people) || (teams && few(people - starters));
  };
  while (told() && shown.length > 0) hidden.add(shown.shift()![0]);
  return hidden;
}

/**
 * The teams withheld for k under the organization's `total` starters, each team's being `count`: under each parent
 * (the organization above the top-level teams and Unassigned), `suppressed` (with those in `also`); a team under one
 * withheld is withheld too.
 */
export function teamsWithheld(
  all: readonly string[],
  total: number,
  count: (team: string) => number,
  k: number,
  also: ReadonlySet<string> = new Set(),
  members?: (team: string | null) => number,
): Set<string> {
  const hidden = new Set<string>();
  const under = new Map<string | null, string[]>();
  for (const t of all) {
    const p = parentOf(t) ?? null;
    under.set(p, [...(under.get(p) ?? []), t]);
  }
  const walk = (parent: string | null, n: number) => {
    const kids = under.get(parent) ?? [];
    const out = suppressed(
      n,
      kids.map((t) => (members ? [t, count(t), members(t)] : [t, count(t)])),
      k,
      also,
      members ? members(parent) : n,
    );
    for (const t of kids) {
      // A team withheld has every team under it withheld: it could not be told from them either.
      if (out.has(t) || (parent !== null && hidden.has(parent))) hidden.add(t);
      walk(t, count(t));
    }
  };
  walk(null, total);
  return hidden;
}
