import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { TEAMS_PATHS, mappingTextSchema, type MappingText } from '../../api/teams';
import { api } from '../../data/client';
import { sendJson } from '../../data/send';
import { TEAMS } from './queries';

/**
 * The team mapping's own queries and writes (the mapping page's), apart from the teams' figures (queries.ts),
 * which the landing page's code carries for its prefetches.
 */

/** `GET /api/teams/mapping`: the mapping in force as text. */
export const mappingTextQuery = queryOptions({
  queryKey: [TEAMS, 'mapping', 'text'],
  queryFn: ({ signal }) => api.get(TEAMS_PATHS.mapping, mappingTextSchema, undefined, signal),
  staleTime: 0,
});

/** Whether a query key names one or more teams: a `team` or `teams` field in one of its parts. */
function teamScoped(key: readonly unknown[]): boolean {
  if (key[0] === TEAMS) return true;
  return key.some((part) => {
    if (typeof part !== 'object' || part === null) return false;
    const { team, teams } = part as { team?: unknown; teams?: unknown };
    const named = (v: unknown) => (Array.isArray(v) ? v.length > 0 : typeof v === 'string' && v !== '');
    return named(team) || named(teams);
  });
}

/** After the mapping changed: every team figure is asked again (the ones on screen now, the others when shown). */
export const invalidateTeamScoped = (client: QueryClient) =>
  client.invalidateQueries({ predicate: (q) => teamScoped(q.queryKey) });

export interface NewMapping {
  format: MappingText['format'];
  text: string;
  /** The uploaded file's name, shown as the mapping's source. */
  name?: string;
}

/** `PUT /api/teams/mapping`; a refusal throws `MappingRefusedError`. */
export const saveMapping = (m: NewMapping) => sendJson('PUT', TEAMS_PATHS.mapping, m);

/** `DELETE /api/teams/mapping`: back to the demo organization's mapping, or none. */
export const removeMapping = () => sendJson('DELETE', TEAMS_PATHS.mapping);
