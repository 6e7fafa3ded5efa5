/** Which people of a range's days are in which team, and the teams a request names, checked. */
import type { Parsed } from '../users/params';
import type { PersonDays } from '../analytics/person-days';
import type { Mapping } from './mapping';
import { comparePaths, teamResolver, UNASSIGNED } from './tree';

export const quote = (v: unknown) => JSON.stringify(String(v).slice(0, 60));

/** Each user of the facts in the selection (a team includes its sub-teams; Unassigned is a team too). */
const masks = new WeakMap<PersonDays, WeakMap<Mapping, string[]>>();
export function teamsOfUsers(f: PersonDays, mapping: Mapping | null): string[] {
  if (!mapping) return f.userIds.map(() => UNASSIGNED);
  let byMapping = masks.get(f);
  if (!byMapping) masks.set(f, (byMapping = new WeakMap()));
  let teams = byMapping.get(mapping);
  if (!teams) {
    const resolve = teamResolver(mapping);
    teams = f.userIds.map((id, u) => resolve(id, f.emails[u] ?? null));
    byMapping.set(mapping, teams);
  }
  return teams;
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
