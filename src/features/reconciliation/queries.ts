import { queryOptions } from '@tanstack/react-query';
import { RECONCILIATION_PATH, reconciliationSchema } from '../../api/reconciliation';
import { getWithLists } from '../../data/client';
import type { DayRange } from '../../lib/dates';

/**
 * `GET /api/reconciliation`: each day's service totals beside the dashboard's, for the teams (none: the organization,
 * or a manager's own teams). Asked again after a minute: a day not yet synced comes in as the sync stores it.
 */
export const reconciliationQuery = (r: DayRange, teams: readonly string[]) =>
  queryOptions({
    queryKey: ['reconciliation', { start: r.start, end: r.end, teams: [...teams] }],
    queryFn: ({ signal }) =>
      getWithLists(RECONCILIATION_PATH, reconciliationSchema, { start: r.start, end: r.end, team: [...teams] }, signal),
    staleTime: 60_000,
  });
