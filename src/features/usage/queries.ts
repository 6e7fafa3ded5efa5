import { queryOptions } from '@tanstack/react-query';
import { PATHS } from '../../api/paths';
import { tokensByModelResponseSchema, tokensResponseSchema } from '../../api/schemas';
import { api } from '../../components/api-client';
import type { DayRange } from '../../lib/dates';

export const tokensQuery = (r: DayRange) =>
  queryOptions({
    queryKey: ['tokens', { startDate: r.start, endDate: r.end }],
    queryFn: ({ signal }) =>
      api.get(PATHS.tokens, tokensResponseSchema, { startDate: r.start, endDate: r.end }, signal),
  });

export const tokensByModelQuery = (r: DayRange) =>
  queryOptions({
    queryKey: ['tokens', { startDate: r.start, endDate: r.end, groupBy: 'model' }],
    queryFn: ({ signal }) =>
      api.get(
        PATHS.tokens,
        tokensByModelResponseSchema,
        { startDate: r.start, endDate: r.end, group_by: 'model' },
        signal,
      ),
  });
