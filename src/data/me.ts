/**
 * Who is signed in (`GET /api/me`), when the dashboard has sign-in: the pages hide what the reader's
 * role cannot open. The server decides every request by itself; this only spares the reader a 403.
 */
import { useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { api } from './client';

export const meSchema = z.object({
  email: z.string(),
  name: z.nullable(z.string()),
  role: z.enum(['admin', 'manager', 'viewer']),
  teams: z.array(z.string()),
});
export type Me = z.infer<typeof meSchema>;

/** The signed-in reader, or undefined (`signIn` off in the server's configuration, or not read yet). */
export function useMe(signIn: boolean): Me | undefined {
  return useQuery({
    queryKey: ['me'],
    queryFn: ({ signal }) => api.get('/api/me', meSchema, undefined, signal),
    enabled: signIn,
    staleTime: Infinity,
  }).data;
}
