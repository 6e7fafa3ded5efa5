/**
 * What "Did it pay off" asks of the server: the repositories the mapping gives teams, and their reports.
 *
 *   GET /api/readiness[?team=A…]  →  { ownership, repos: [{key, team}], reports }
 *
 * `key` is `host/owner/name`, `team` the owning team's path (null: Unowned); `reports` are the service's
 * report bodies of those repositories, oldest first. With `team`, the repositories of those teams and their
 * sub-teams. (The readiness pages' route; its schema here is the contract, as the page reads it.)
 */
import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { readinessReportSchema } from '../../api/schemas';
import { getWithLists } from '../../data/client';

export const READINESS_PATH = '/api/readiness';

export const ownedReadinessSchema = z.object({
  /** Whether the mapping names any team's repositories (its `repos` column). */
  ownership: z.boolean(),
  repos: z.array(z.object({ key: z.string(), team: z.nullable(z.string()) })),
  reports: z.array(readinessReportSchema),
});
export type OwnedReadiness = z.infer<typeof ownedReadinessSchema>;

/** `GET /api/readiness`: every repository with its owner (no teams), or those of the teams named. */
export const ownedReadinessQuery = (teams: readonly string[]) =>
  queryOptions({
    // `teams` first, so a change of the mapping asks again (queries.ts, invalidateTeamScoped).
    queryKey: ['teams', 'readiness', { teams: [...teams] }],
    queryFn: ({ signal }) => getWithLists(READINESS_PATH, ownedReadinessSchema, { team: [...teams] }, signal),
    staleTime: 5 * 60_000,
  });
