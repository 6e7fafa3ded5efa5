import { queryOptions } from '@tanstack/react-query';
import { PATHS } from '../../api/paths';
import { activityByClientResponseSchema, activityResponseSchema } from '../../api/schemas';
import { api } from '../../components/api-client';
import type { DayRange } from '../../lib/dates';

export const activityQuery = (r: DayRange) =>
  queryOptions({
    queryKey: ['activity', { startDate: r.start, endDate: r.end }],
    queryFn: ({ signal }) =>
      api.get(PATHS.activity, activityResponseSchema, { startDate: r.start, endDate: r.end }, signal),
  });

export const activityByClientQuery = (r: DayRange) =>
  queryOptions({
    queryKey: ['activity', { startDate: r.start, endDate: r.end, groupBy: 'client' }],
    queryFn: ({ signal }) =>
      api.get(
        PATHS.activity,
        activityByClientResponseSchema,
        { startDate: r.start, endDate: r.end, group_by: 'client' },
        signal,
      ),
  });
