/** The alerts and their rules (a server that keeps a store has them): src/api/alerts.ts. */
import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ALERT_PATHS, alertPreviewSchema, alertRulesSchema, alertsSchema } from '../api/alerts';
import { api } from './client';

export const ALERTS_KEY = ['alerts'] as const;

/** `GET /api/alerts`: open and past alerts; asked again every minute (the navigation counts the open ones). */
export const alertsQuery = queryOptions({
  queryKey: [...ALERTS_KEY, 'list'],
  queryFn: ({ signal }) => api.get(ALERT_PATHS.alerts, alertsSchema, undefined, signal),
  staleTime: 30_000,
  refetchInterval: 60_000,
});

export const alertRulesQuery = queryOptions({
  queryKey: [...ALERTS_KEY, 'rules'],
  queryFn: ({ signal }) => api.get(ALERT_PATHS.rules, alertRulesSchema, undefined, signal),
  staleTime: 0,
});

/**
 * `GET /api/alerts/preview`: what each of the reader's rules would open and resolve now. Asked again whenever the
 * rules or the alerts change (every write invalidates ALERTS_KEY) and each time the rules screen opens.
 */
export const alertPreviewQuery = queryOptions({
  queryKey: [...ALERTS_KEY, 'preview'],
  queryFn: ({ signal }) => api.get(ALERT_PATHS.preview, alertPreviewSchema, undefined, signal),
  staleTime: 0,
});

/** What `GET /api/sync` says of the newest people's day stored and of the last sync run (the no-data alerts' page). */
const syncStateSchema = z.object({
  stored: z.optional(z.object({ users: z.optional(z.object({ last: z.optional(z.nullable(z.string())) })) })),
  lastRun: z.optional(
    z.nullable(z.object({ finishedAt: z.optional(z.nullable(z.string())), failures: z.optional(z.number()) })),
  ),
  lastError: z.optional(z.nullable(z.object({ at: z.string(), message: z.string() }))),
});

export const syncStateQuery = queryOptions({
  queryKey: [...ALERTS_KEY, 'sync'],
  queryFn: ({ signal }) => api.get('/api/sync', syncStateSchema, undefined, signal),
  staleTime: 30_000,
});
