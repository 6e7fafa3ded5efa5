/**
 * What the server's store is filling, for a quiet progress line: asked every
 * 2 s while something is being filled, every 20 s otherwise, and never again
 * when the server keeps no store (each user brings a key).
 */
import { queryOptions } from '@tanstack/react-query';
import { syncStatusSchema } from '../api/schemas';
import { api } from './client';

export const syncStatusQuery = queryOptions({
  queryKey: ['sync'],
  queryFn: ({ signal }) => api.get('/api/sync', syncStatusSchema, undefined, signal),
  staleTime: 0,
  refetchInterval: (q) => {
    const d = q.state.data;
    if (!d || d.store === null) return false;
    return d.running?.length ? 2_000 : 20_000;
  },
});
