import { queryOptions } from '@tanstack/react-query';
import { PATHS } from '../../api/paths';
import { productivityResponseSchema } from '../../api/schemas';
import { api } from '../../components/api-client';
import type { DayRange } from '../../lib/dates';

export const productivityQuery = (r: DayRange) =>
  queryOptions({
    queryKey: ['productivity', { startDate: r.start, endDate: r.end }],
    queryFn: ({ signal }) =>
      api.get(PATHS.productivity, productivityResponseSchema, { startDate: r.start, endDate: r.end }, signal),
  });
