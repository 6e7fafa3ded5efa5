/**
 * Teams as paths (`Engineering/Platform/Infra`) and the pure functions over them: the tree, who is in
 * which team, and which teams privacy mode shows. (A team's figure with its sub-teams' is the figures
 * runner's roll-up, server/analytics/figures.ts.) Users the mapping
 * does not name are {@link UNASSIGNED}, a top-level "team" of its own, so the top-level teams plus
 * Unassigned always add up to the organization.
 */

import { canonicalEmail } from '../core/text';
import { UNASSIGNED } from '../../api/teams';

/** Where users the mapping does not name are counted; never a team name in a mapping (the parser refuses it). */
export { UNASSIGNED };

export const SEPARATOR = '/';

/** The team itself and every team above it, outermost first: `A/B/C` → `A`, `A/B`, `A/B/C`. */
export function ancestors(path: string): string[] {
  let above = '';
  return path.split(SEPARATOR).map((part, i) => (above = i === 0 ? part : above + SEPARATOR + part));
}

/** `A/B/C` → `A/B`; a top-level team has no parent. */
export function parentOf(path: string): string | null {
  const i = path.lastIndexOf(SEPARATOR);
  return i < 0 ? null : path.slice(0, i);
}

/** The last part of the path: `A/B/C` → `C`. */
export const nameOf = (path: string): string => path.slice(path.lastIndexOf(SEPARATOR) + 1);

/** 1 for a top-level team. */
export const depthOf = (path: string): number => path.split(SEPARATOR).length;

/** Whether `path` is `team` or one of its sub-teams (`A/B` is within `A`; `AB` is not). */
export const isWithin = (path: string, team: string): boolean => path === team || path.startsWith(team + SEPARATOR);

/** Names in reading order: case-insensitively, then by code unit (the same on every machine, no locale). */
export function compareNames(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Paths in tree order: a team right before its sub-teams, siblings by name. */
export function comparePaths(a: string, b: string): number {
  const pa = a.split(SEPARATOR);
  const pb = b.split(SEPARATOR);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const c = compareNames(pa[i]!, pb[i]!);
    if (c !== 0) return c;
  }
  return pa.length - pb.length;
}

/** Every team named and every team above them, in tree order, once each. */
export function withAncestors(paths: Iterable<string>): string[] {
  const out: string[] = [];
  const next = teamTree(paths).reverse();
  for (let n = next.pop(); n; n = next.pop()) {
    out.push(n.path);
    for (let i = n.children.length - 1; i >= 0; i--) next.push(n.children[i]!);
  }
  return out;
}

export interface TeamNode {
  /** The full path, the team's identity: `Engineering/Platform`. */
  path: string;
  /** The last part: `Platform`. */
  name: string;
  /** 1 for a top-level team. */
  depth: number;
  /** Sub-teams by name. */
  children: TeamNode[];
}

/**
 * The teams as a tree (ancestors filled in), each level sorted by name. Each path is walked down from
 * the top by its parts, so the work is the paths' length (and sorting siblings), however deep they go.
 */
export function teamTree(paths: Iterable<string>): TeamNode[] {
  const top: TeamNode = { path: '', name: '', depth: 0, children: [] };
  const named = new Map<TeamNode, Map<string, TeamNode>>();
  for (const path of paths) {
    let node = top;
    for (const name of path.split(SEPARATOR)) {
      let byName = named.get(node);
      if (!byName) named.set(node, (byName = new Map()));
      let child = byName.get(name);
      if (!child) {
        const childPath = node === top ? name : node.path + SEPARATOR + name;
        child = { path: childPath, name, depth: node.depth + 1, children: [] };
        byName.set(name, child);
        node.children.push(child);
      }
      node = child;
    }
  }
  for (const n of named.keys()) n.children.sort((a, b) => compareNames(a.name, b.name));
  return top.children;
}

/** What assigning users needs of a mapping (`Mapping` from mapping.ts fits). */
export interface MemberList {
  members: readonly { key: { email?: string; userId?: string }; team: string }[];
}

export interface UserRef {
  userId: string;
  email: string | null;
}

/**
 * The team of any user, by user_id first, then by email (as `canonicalEmail` compares: ASCII case aside); users the mapping does
 * not name are {@link UNASSIGNED}. Build it once per mapping and ask it for each user.
 */
export function teamResolver(mapping: MemberList): (userId: string, email: string | null) => string {
  const byId = new Map<string, string>();
  const byEmail = new Map<string, string>();
  for (const m of mapping.members) {
    // The parser refuses a user in two teams, so the first entry is the only team.
    if (m.key.userId !== undefined && !byId.has(m.key.userId)) byId.set(m.key.userId, m.team);
    if (m.key.email !== undefined) {
      const e = m.key.email;
      if (!byEmail.has(e)) byEmail.set(e, m.team);
    }
  }
  return (userId, email) => byId.get(userId) ?? (email ? byEmail.get(canonicalEmail(email)) : undefined) ?? UNASSIGNED;
}

/** Whether a user's team is within any of the teams selected (a team includes its sub-teams). */
export function inSelection(team: string, selected: readonly string[]): boolean {
  for (const s of selected) if (isWithin(team, s)) return true;
  return false;
}

/** A team with its members, its sub-teams' included (as the tree counts them). */
export interface CountedTeam {
  path: string;
  members: number;
  children: readonly CountedTeam[];
}

/**
 * The teams privacy mode shows, decided from the whole tree (`groups`: the top-level teams and Unassigned, the
 * organization's children; the organization is always shown, its totals exact). A figure could single out a
 * group of 1 to k−1 people not only by describing it but by difference: a shown team less its shown sub-teams is
 * the figure of the rest of its people. So a team under k members is left out with its sub-teams, and when what
 * a shown team (or the organization) leaves beside its shown sub-teams is 1 to k−1 people, its smallest shown
 * sub-team is left out too, its people joining that rest (which then has k or more). What is shown is then a tree
 * whose every team, less its shown sub-teams, leaves no one or k people or more: no group of 1 to k−1 people is
 * the difference of shown figures. A team of 0 members names nobody: shown.
 */
export function shownTeams(groups: readonly CountedTeam[], k: number): Set<string> {
  const shown = new Set<string>();
  const visit = (members: number, children: readonly CountedTeam[]) => {
    const kept = children.filter((c) => c.members === 0 || c.members >= k);
    let rest = members - kept.reduce((n, c) => n + c.members, 0);
    while (rest > 0 && rest < k) {
      let smallest = -1;
      for (let i = 0; i < kept.length; i++) {
        const c = kept[i]!;
        if (c.members === 0) continue;
        const s = smallest < 0 ? undefined : kept[smallest]!;
        if (!s || c.members < s.members || (c.members === s.members && c.path < s.path)) smallest = i;
      }
      if (smallest < 0) break;
      rest += kept.splice(smallest, 1)[0]!.members;
    }
    for (const c of kept) {
      shown.add(c.path);
      visit(c.members, c.children);
    }
  };
  visit(
    groups.reduce((n, g) => n + g.members, 0),
    groups,
  );
  return shown;
}

/** The team a person of `team` is shown in: the team itself or the nearest above it that is shown (none: null). */
export function shownTeamOf(team: string, shown: ReadonlySet<string>): string | null {
  for (let t: string | null = team; t !== null; t = parentOf(t)) if (shown.has(t)) return t;
  return null;
}

/**
 * A tree with only the teams `shown` (shownTeams): each other team is left out with its sub-teams, and its members
 * stay counted in its parent's (the counts are rolled up before, so every shown team's count is exact; a
 * top-level team is folded into the organization). Returns the tree shown and how many teams were folded.
 */
export function foldSmall<T extends { path: string; children: T[] }>(
  teams: readonly T[],
  shown: ReadonlySet<string>,
): { teams: T[]; folded: number } {
  let folded = 0;
  const count = (ts: readonly T[]): number => ts.reduce((n, t) => n + 1 + count(t.children), 0);
  const keep = (ts: readonly T[]): T[] =>
    ts.flatMap((t) => {
      if (!shown.has(t.path)) {
        folded += 1 + count(t.children);
        return [];
      }
      return [{ ...t, children: keep(t.children) }];
    });
  return { teams: keep(teams), folded };
}
