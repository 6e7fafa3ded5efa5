import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { frictionAnswerSchema, FRICTION_PATH } from '../api/friction';
import type { DayRange } from '../lib/dates';
import { getWithLists } from './client';

/** `GET /api/readiness/friction`: each criterion's teams failing against those passing, and delegation headroom. */
export const frictionQuery = (range: DayRange, teams: readonly string[]) =>
  queryOptions({
    queryKey: ['readiness', 'friction', { start: range.start, end: range.end, teams: [...teams] }],
    queryFn: ({ signal }) =>
      getWithLists(
        FRICTION_PATH,
        frictionAnswerSchema,
        { start: range.start, end: range.end, team: [...teams] },
        signal,
      ),
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
