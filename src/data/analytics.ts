/**
 * One query factory for the four day-based analytics endpoints. The key holds
 * every input of the fetch (`['tokens', {startDate, endDate, groupBy}]`) and
 * the fetch reads them back from the key, so what is cached is exactly what
 * was asked for. Extra options (`select`, `placeholderData`) are spread at the
 * call site.
 */
import { queryOptions, type QueryFunctionContext } from '@tanstack/react-query';
import type * as z from 'zod/mini';
import { PATHS } from '../api/paths';
import { ANALYTICS_SCHEMAS as SCHEMAS } from '../api/schemas';
import type { DayRange } from '../lib/dates';
import { api } from './client';

export type AnalyticsEndpoint = keyof typeof SCHEMAS;
export type GroupOf<E extends AnalyticsEndpoint> = keyof (typeof SCHEMAS)[E] & string;
type Answer<E extends AnalyticsEndpoint, G extends GroupOf<E>> = z.infer<(typeof SCHEMAS)[E][G] & z.ZodMiniType>;

export interface AnalyticsParams<G extends string> {
  startDate: string;
  endDate: string;
  groupBy: G;
}
type AnalyticsKey<E extends AnalyticsEndpoint, G extends GroupOf<E>> = readonly [E, AnalyticsParams<G>];

async function fetchAnalytics<E extends AnalyticsEndpoint, G extends GroupOf<E>>({
  queryKey: [endpoint, p],
  signal,
}: QueryFunctionContext<AnalyticsKey<E, G>>): Promise<Answer<E, G>> {
  const schema = SCHEMAS[endpoint][p.groupBy] as z.ZodMiniType;
  const query = { startDate: p.startDate, endDate: p.endDate, group_by: p.groupBy || undefined };
  return (await api.get(PATHS[endpoint], schema, query, signal)) as Answer<E, G>;
}

/** `analyticsQuery('tokens', range, 'model')`: the answer for the range, grouped or not. */
export function analyticsQuery<E extends AnalyticsEndpoint, G extends GroupOf<E> = '' & GroupOf<E>>(
  endpoint: E,
  range: DayRange,
  groupBy: G = '' as G,
) {
  const key: AnalyticsKey<E, G> = [endpoint, { startDate: range.start, endDate: range.end, groupBy }];
  return queryOptions({ queryKey: key, queryFn: fetchAnalytics<E, G> });
}
