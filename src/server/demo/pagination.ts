/**
 * The two paged endpoints. A /users cursor is the id of the last user on the
 * previous page: users are kept sorted by id, so the next page starts right
 * after that user, and a page always holds whole users (all their days).
 * Readiness pages continue after the reportId given as `startAfter`.
 */
import { HttpError } from '../core/errors';
import { userRow } from './analytics';
import type { Org } from './org';
import type { ReportMeta } from './readiness';

const encodeUserCursor = (org: Org, u: number) => org.users[u]!.id;

/** The index of the first user of the page the cursor asks for. */
function decodeUserCursor(org: Org, cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const at = org.usersById.get(cursor);
  if (at === undefined) throw new HttpError(400, 'Invalid cursor: pass meta.next_cursor of the previous page.');
  return at + 1;
}

/** Up to `limit` users active in days [lo, hi], with one row per active day. */
export function usersPage(
  org: Org,
  { limit, cursor }: { limit: number; cursor?: string },
  lo: number,
  hi: number,
  meta: Record<string, unknown>,
) {
  let u = decodeUserCursor(org, cursor);
  const activeIn = (i: number) => hi >= lo && org.activeCount[i]![hi + 1]! > org.activeCount[i]![lo]!;
  const data: unknown[] = [];
  let taken = 0;
  let last = -1;
  for (; u < org.users.length && taken < limit; u++) {
    if (!activeIn(u)) continue;
    for (let d = lo; d <= hi; d++) {
      const row = userRow(org, u, d, org.days[d]!);
      if (row) data.push(row);
    }
    taken++;
    last = u;
  }
  // has_more only when another active user follows, so the last page never comes back empty.
  let hasMore = false;
  for (; u < org.users.length; u++)
    if (activeIn(u)) {
      hasMore = true;
      break;
    }
  return {
    data,
    meta: { ...meta, has_more: hasMore, ...(hasMore ? { next_cursor: encodeUserCursor(org, last) } : {}) },
  };
}

export function reportsAfter(list: readonly ReportMeta[], startAfter: string | undefined, limit: number): ReportMeta[] {
  let start = 0;
  if (startAfter !== undefined) {
    const at = list.findIndex((m) => m.reportId === startAfter);
    if (at < 0)
      throw new HttpError(400, 'Invalid startAfter: pass the reportId of the last report of the previous page.');
    start = at + 1;
  }
  return list.slice(start, start + limit);
}
