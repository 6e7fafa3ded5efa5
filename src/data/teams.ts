/** The organization's teams as the dashboard server maps them (only a server that keeps a store has them). */
import { queryOptions } from '@tanstack/react-query';
import { TEAMS_PATHS, teamsAnswerSchema } from '../api/teams';
import { api } from './client';

/** `GET /api/teams`: the mapping in force and the team tree. It changes only when the mapping does. */
export const teamsQuery = queryOptions({
  queryKey: ['teams', 'tree'],
  queryFn: ({ signal }) => api.get(TEAMS_PATHS.teams, teamsAnswerSchema, undefined, signal),
  staleTime: 5 * 60_000,
});
