/**
 * Walks the two paginated resources to the end, one page at a time, so a
 * caller can consume pages as they arrive. Both stop at a safety cap and when
 * the signal aborts.
 */
import type { ApiClient } from './client';
import { ApiError } from './errors';
import { PATHS } from './paths';
import { readinessResponseSchema, usersResponseSchema, type ReadinessReport, type UsersResponse } from './schemas';

export const DEFAULT_MAX_PAGES = 10_000;

export interface WalkOptions {
  signal?: AbortSignal;
  maxPages?: number;
}

function capError(endpoint: string, maxPages: number): ApiError {
  return new ApiError({
    status: 0,
    title: 'Too many pages',
    detail: `Stopped after ${maxPages} pages of ${endpoint}; the service kept saying there was more.`,
    endpoint,
  });
}

export async function* walkUsers(
  client: ApiClient,
  params: { startDate: string; endDate: string; limit?: number },
  opts: WalkOptions = {},
): AsyncGenerator<UsersResponse> {
  const maxPages = opts.maxPages ?? DEFAULT_MAX_PAGES;
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (let page = 0; ; page++) {
    if (page >= maxPages) throw capError(PATHS.users, maxPages);
    opts.signal?.throwIfAborted();
    const res = await client.get(
      PATHS.users,
      usersResponseSchema,
      { ...params, limit: params.limit ?? 100, cursor },
      opts.signal,
    );
    yield res;
    const next = res.meta.next_cursor ?? undefined;
    if (!res.meta.has_more || !next) return;
    // A cursor that repeats would loop for ever.
    if (seen.has(next)) return;
    seen.add(next);
    cursor = next;
  }
}

export async function* walkReadinessReports(
  client: ApiClient,
  params: { repoId?: string; limit?: number } = {},
  opts: WalkOptions = {},
): AsyncGenerator<ReadinessReport[]> {
  const maxPages = opts.maxPages ?? DEFAULT_MAX_PAGES;
  const limit = params.limit ?? 100;
  let startAfter: string | undefined;
  const seen = new Set<string>();
  for (let page = 0; ; page++) {
    if (page >= maxPages) throw capError(PATHS.readiness, maxPages);
    opts.signal?.throwIfAborted();
    const res = await client.get(
      PATHS.readiness,
      readinessResponseSchema,
      { repoId: params.repoId, limit, startAfter },
      opts.signal,
    );
    yield res.reports;
    const last = res.reports.at(-1)?.reportId;
    if (res.reports.length < limit || !last || seen.has(last)) return;
    seen.add(last);
    startAfter = last;
  }
}
