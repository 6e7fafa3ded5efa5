/** Queries more than one page reads (features never import each other). */
import { queryOptions } from '@tanstack/react-query';
import { PATHS } from '../api/paths';
import { tokensResponseSchema } from '../api/schemas';
import type { DayRange } from '../lib/dates';
import { api } from './api-client';

/** `/tokens` without grouping: day totals with `by_model` and `by_user`. */
export const tokensQuery = (r: DayRange) =>
  queryOptions({
    queryKey: ['tokens', { startDate: r.start, endDate: r.end }],
    queryFn: ({ signal }) =>
      api.get(PATHS.tokens, tokensResponseSchema, { startDate: r.start, endDate: r.end }, signal),
  });
