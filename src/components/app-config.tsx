import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { clientConfigSchema, type ClientConfig } from '../api/schemas';
import type { DayRange } from '../lib/dates';
import { parseRange, writeRange } from '../lib/url-state';
import { api } from './api-client';

/** The configuration the server inlined in the page, if it did (it does in production). */
export function configFromPage(): ClientConfig | undefined {
  if (typeof document === 'undefined') return undefined;
  const raw = document.querySelector('meta[name="dashboard-config"]')?.getAttribute('content');
  if (!raw) return undefined;
  try {
    const parsed = clientConfigSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const loadedAt = Date.now();

export const configQuery = queryOptions({
  queryKey: ['config'],
  queryFn: ({ signal }) => api.get('/api/config', clientConfigSchema, undefined, signal),
  initialData: configFromPage,
  initialDataUpdatedAt: loadedAt,
  // The latest queryable day moves at midnight UTC: a page left open picks up the new day (and with it
  // the default range) within minutes, or when its tab is shown again.
  staleTime: 5 * 60_000,
  refetchInterval: 5 * 60_000,
  refetchOnWindowFocus: true,
});

export function useAppConfig(): ClientConfig {
  return useSuspenseQuery(configQuery).data;
}

/** The global date range, kept in the URL. */
export function useRange() {
  const { latestDay } = useAppConfig();
  const [params, setParams] = useSearchParams();
  const range = useMemo(() => parseRange(params, latestDay), [params, latestDay]);
  const setRange = useCallback((r: DayRange) => setParams((p) => writeRange(p, r, latestDay)), [setParams, latestDay]);
  return { range, setRange, latestDay };
}

/** A URL search parameter restricted to a set of values, with a default. */
export function useParamChoice<T extends string>(name: string, values: readonly T[], dflt: T) {
  const [params, setParams] = useSearchParams();
  const raw = params.get(name);
  const value = (values as readonly string[]).includes(raw ?? '') ? (raw as T) : dflt;
  const set = useCallback(
    (v: T) =>
      setParams((p) => {
        const n = new URLSearchParams(p);
        if (v === dflt) n.delete(name);
        else n.set(name, v);
        return n;
      }),
    [setParams, name, dflt],
  );
  return [value, set] as const;
}

export type SortDir = 'asc' | 'desc';
export interface SortState {
  column: string;
  dir: SortDir;
}

/** A table's sort as `<table>Sort=column:dir` in the URL. */
export function useSortParam(table: string, dflt: SortState) {
  const [params, setParams] = useSearchParams();
  const name = `${table}Sort`;
  const raw = params.get(name);
  const m = raw ? /^([\w.-]+):(asc|desc)$/.exec(raw) : null;
  const sort: SortState = m ? { column: m[1]!, dir: m[2] as SortDir } : dflt;
  const setSort = useCallback(
    (s: SortState) =>
      setParams(
        (p) => {
          const n = new URLSearchParams(p);
          if (s.column === dflt.column && s.dir === dflt.dir) n.delete(name);
          else n.set(name, `${s.column}:${s.dir}`);
          return n;
        },
        { replace: true },
      ),
    [setParams, name, dflt.column, dflt.dir],
  );
  return [sort, setSort] as const;
}

/** A free-text URL search parameter ('' when absent); clearing it removes it. */
export function useStringParam(name: string) {
  const [params, setParams] = useSearchParams();
  const value = params.get(name) ?? '';
  const set = useCallback(
    (v: string) =>
      setParams(
        (p) => {
          const n = new URLSearchParams(p);
          if (v) n.set(name, v);
          else n.delete(name);
          return n;
        },
        { replace: true },
      ),
    [setParams, name],
  );
  return [value, set] as const;
}
