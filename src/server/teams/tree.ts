/**
 * Teams as paths (`Engineering/Platform/Infra`) and the pure functions over them: the tree, who is in
 * which team, and roll-ups where a team's figure is its own plus its sub-teams'. Users the mapping
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

/**
 * People per team (direct, not rolled up): the people known, each in the team given them (or Unassigned), and
 * the people the mapping names who are not known yet (never active in the stored history), each once. So a team
 * never has more active people than members.
 */
export function membersPerTeam(
  mapping: MemberList | null,
  people: readonly (UserRef & { team: string })[],
): Map<string, number> {
  const out = new Map<string, number>();
  const bump = (t: string) => out.set(t, (out.get(t) ?? 0) + 1);
  for (const u of people) bump(u.team);
  const ids = new Set(people.map((u) => u.userId));
  const emails = new Set(people.flatMap((u) => (u.email ? [canonicalEmail(u.email)] : [])));
  const unseen = new Set<string>();
  for (const m of mapping?.members ?? []) {
    const { userId, email } = m.key;
    if ((userId !== undefined && ids.has(userId)) || (email !== undefined && emails.has(email))) continue;
    const key = email ?? `id:${userId}`;
    if (unseen.has(key)) continue;
    unseen.add(key);
    bump(m.team);
  }
  return out;
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

/**
 * Each team's figure over itself and all its sub-teams, for every team given and every team above
 * them. `add` must not change its arguments (`zero` is shared) and should be associative and
 * commutative: a sum, or a set union for distinct counts (active users), never an average.
 * Each team's value is added to its parent's once, deepest teams first.
 */
export function rollUp<T>(perTeamDirect: ReadonlyMap<string, T>, add: (a: T, b: T) => T, zero: T): Map<string, T> {
  const paths = withAncestors(perTeamDirect.keys());
  const out = new Map<string, T>();
  for (const p of paths) out.set(p, perTeamDirect.has(p) ? perTeamDirect.get(p)! : zero);
  // Reverse tree order visits every sub-team before its parent.
  for (let i = paths.length - 1; i >= 0; i--) {
    const p = paths[i]!;
    const parent = parentOf(p);
    if (parent !== null) out.set(parent, add(out.get(parent)!, out.get(p)!));
  }
  return out;
}

/** A count per group (each team of `teams`, and Unassigned: `of` each one's own people), sub-teams added in. */
export const rolledCounts = (teams: readonly string[], of: (group: string) => number | undefined) =>
  rollUp(new Map([...teams, UNASSIGNED].map((t) => [t, of(t) ?? 0])), (x, y) => x + y, 0);
