/** What "Did it pay off" asks of the server: the repositories the mapping gives teams, and their reports (api/readiness.ts). */
import { queryOptions } from '@tanstack/react-query';
import { READINESS_PATH, readinessAnswerSchema, type ReadinessAnswer } from '../../api/readiness';
import { getWithLists } from '../../data/client';

export type OwnedReadiness = ReadinessAnswer;

/** `GET /api/readiness`: every repository with its owner (no teams), or those of the teams named. */
export const ownedReadinessQuery = (teams: readonly string[]) =>
  queryOptions({
    // `teams` first, so a change of the mapping asks again (queries.ts, invalidateTeamScoped).
    queryKey: ['teams', 'readiness', { teams: [...teams] }],
    queryFn: ({ signal }) => getWithLists(READINESS_PATH, readinessAnswerSchema, { team: [...teams] }, signal),
    staleTime: 5 * 60_000,
  });
