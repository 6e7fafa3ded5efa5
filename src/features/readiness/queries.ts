import { queryOptions } from '@tanstack/react-query';
import { walkReadinessReports } from '../../api/paginate';
import type { ReadinessReport } from '../../api/schemas';
import { api } from '../../components/api-client';

/** Every report of the organization, all pages. */
export const allReportsQuery = () =>
  queryOptions({
    queryKey: ['readiness', 'all'],
    queryFn: async ({ signal }) => {
      const all: ReadinessReport[] = [];
      for await (const page of walkReadinessReports(api, { limit: 100 }, { signal })) all.push(...page);
      return all;
    },
    // Reports arrive during the day: re-read them after a few minutes.
    staleTime: 5 * 60_000,
  });
