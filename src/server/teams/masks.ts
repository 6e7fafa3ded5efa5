/** Which people of a range's days are in which team, and the teams a request names, checked. */
import type { Parsed } from '../users/params';
import type { PersonDays } from '../analytics/person-days';
import type { Mapping } from './mapping';
import { comparePaths, teamResolver, UNASSIGNED } from './tree';

export const quote = (v: unknown) => JSON.stringify(String(v).slice(0, 60));

/** Each person's team, in the order of the range's people. */
export function teamsOfUsers(f: PersonDays, mapping: Mapping | null): string[] {
  const resolve = mapping ? teamResolver(mapping) : () => UNASSIGNED;
  return f.userIds.map((id, u) => resolve(id, f.emails[u] ?? null));
}

/** The teams asked for, each a team of the mapping or Unassigned. */
export function checkTeams(teams: readonly string[], mapping: Mapping | null): Parsed<string[]> {
  if (teams.length === 0) return { ok: false, detail: 'Name at least one team: team=<path> (several allowed).' };
  const known = new Set(mapping?.teams ?? []);
  for (const t of teams) {
    if (t !== UNASSIGNED && !known.has(t)) {
      return {
        ok: false,
        detail: `No team is called ${quote(t)} in the mapping in force; give a full path such as Engineering/Platform, or ${UNASSIGNED}.`,
      };
    }
  }
  return { ok: true, value: [...new Set(teams)].sort(comparePaths) };
}
