/** The organization's teams as the dashboard server maps them (only a server that keeps a store has them). */
import { queryOptions } from '@tanstack/react-query';
import { READINESS_PATH, readinessAnswerSchema } from '../api/readiness';
import { TEAMS_PATHS, teamsAnswerSchema } from '../api/teams';
import { api, getWithLists } from './client';

/** `GET /api/teams`: the mapping in force and the team tree. It changes only when the mapping does. */
export const teamsQuery = queryOptions({
  queryKey: ['teams', 'tree'],
  queryFn: ({ signal }) => api.get(TEAMS_PATHS.teams, teamsAnswerSchema, undefined, signal),
  staleTime: 5 * 60_000,
});

/**
 * `GET /api/readiness[?team=…]`: the repositories (of those teams, or every one) with their owning teams by the
 * mapping in force, and their reports. Keyed under `teams`, so a change of the mapping asks again.
 */
export const readinessByTeamQuery = (teams: readonly string[]) =>
  queryOptions({
    queryKey: ['teams', 'readiness', { teams: [...teams] }],
    queryFn: ({ signal }) => getWithLists(READINESS_PATH, readinessAnswerSchema, { team: [...teams] }, signal),
    staleTime: 5 * 60_000,
  });
