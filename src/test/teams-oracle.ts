/**
 * The teams' figures worked out person by person in JavaScript, the plain way: the oracle the reconciliation tests
 * hold the engine's SQL (and the roll-up) to. Nothing in the server uses these.
 */
import {
  compareNames,
  isWithin,
  parentOf,
  SEPARATOR,
  withAncestors,
  teamResolver,
  UNASSIGNED,
  type MemberList,
  type UserRef,
} from '../server/teams/tree';

/** The top-level teams among the paths (and above them), by name. */
export function topLevel(paths: Iterable<string>): string[] {
  const tops = new Set<string>();
  for (const p of paths) tops.add(p.split(SEPARATOR, 1)[0]!);
  return [...tops].sort(compareNames);
}

/**
 * Each user's team (see {@link teamResolver}); users the mapping does not name are
 * {@link UNASSIGNED}, never dropped. Every user given has an entry.
 */
export function assignUsers(mapping: MemberList, users: Iterable<UserRef>): Map<string, string> {
  const teamOf = teamResolver(mapping);
  const out = new Map<string, string>();
  for (const u of users) out.set(u.userId, teamOf(u.userId, u.email));
  return out;
}

/**
 * Per-user figures added up per team, each user counted in their own team only (no roll-up yet).
 * A user missing from the assignment counts in {@link UNASSIGNED}: a figure is never dropped.
 */
export function directByTeam<T>(
  assignment: ReadonlyMap<string, string>,
  perUser: Iterable<readonly [userId: string, value: T]>,
  add: (a: T, b: T) => T,
  zero: T,
): Map<string, T> {
  const out = new Map<string, T>();
  for (const [userId, value] of perUser) {
    const team = assignment.get(userId) ?? UNASSIGNED;
    out.set(team, add(out.get(team) ?? zero, value));
  }
  return out;
}

/** The users of a team and of its sub-teams, in the assignment's order (`UNASSIGNED` works too). */
export function membersOf(team: string, assignment: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const [userId, path] of assignment) if (isWithin(path, team)) out.push(userId);
  return out;
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
