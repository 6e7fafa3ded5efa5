/** What each endpoint answers from the world of the day, once its parameters (params.ts) are valid. */
import { PATHS } from '../../api/paths';
import { HISTORY_START, addDays, maxDay, minDay } from '../../lib/dates';
import { activityDay, clientRows, productivityDay, tokenDay, tokenModelRows, toolDay, toolNameRows } from './analytics';
import { reportsAfter, usersPage } from './pagination';
import { analyticsParams, readinessParams, usersParams } from './params';
import type { World } from './world';

export function analytics(path: string, q: URLSearchParams, w: World): unknown {
  const { startDate, endDate, groupBy } = analyticsParams(path, q, w.today);
  const meta = { org_id: w.orgId, start_date: startDate, end_date: endDate };
  // Days before history starts simply have no data.
  const lo = w.org.dayIndex(maxDay(startDate, HISTORY_START));
  const hi = w.org.dayIndex(minDay(endDate, addDays(w.today, -1)));
  const range = (f: (d: number) => unknown) => {
    const out: unknown[] = [];
    for (let d = Math.max(lo, 0); d <= hi; d++) out.push(f(d));
    return out;
  };
  const flat = (f: (d: number) => unknown[]) => range(f).flat();
  switch (path) {
    case PATHS.tokens:
      return { data: groupBy ? flat((d) => tokenModelRows(w.org, d)) : range((d) => tokenDay(w.org, d)), meta };
    case PATHS.tools:
      return { data: groupBy ? flat((d) => toolNameRows(w.org, d)) : range((d) => toolDay(w.org, d)), meta };
    case PATHS.activity:
      return { data: groupBy ? flat((d) => clientRows(w.org, d)) : range((d) => activityDay(w.org, d)), meta };
    case PATHS.productivity:
      return { data: range((d) => productivityDay(w.org, d)), meta };
    default:
      return usersPage(w.org, usersParams(q), Math.max(lo, 0), hi, meta);
  }
}

export function readiness(q: URLSearchParams, w: World): unknown {
  const { limit, repoId, startAfter } = readinessParams(q);
  const { reports, repos, body } = w.readiness;
  const list = repoId === undefined ? reports : reports.filter((m) => repos[m.repo]!.slug === repoId);
  return { reports: reportsAfter(list, startAfter, limit).map((m) => body(m)) };
}
