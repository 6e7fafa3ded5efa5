import { queryOptions } from '@tanstack/react-query';
import { walkUsers } from '../../api/paginate';
import { api } from '../../components/api-client';
import type { DayRange } from '../../lib/dates';
import { UserMerger } from './merge';

/** Walks every page of `/users` for the range and keeps only the merged rows. */
export const mergedUsersQuery = (r: DayRange) =>
  queryOptions({
    queryKey: ['users', 'merged', { startDate: r.start, endDate: r.end }],
    queryFn: async ({ signal }) => {
      const merger = new UserMerger();
      for await (const page of walkUsers(api, { startDate: r.start, endDate: r.end, limit: 100 }, { signal })) {
        merger.add(page.data);
      }
      return merger.result();
    },
  });
