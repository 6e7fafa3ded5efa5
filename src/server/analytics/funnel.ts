/**
 * From access to a first pull request (lib/funnel.ts) as the figures runner's measures: each person's access day
 * (the mapping's `since`, else the earlier of the first day the mapping named them and their first day seen), their
 * first session, commit and pull request through the agent and whether they were still active four weeks later,
 * counted per group of starters (the scope's, a team's with its sub-teams', or a cohort: those whose access is in a
 * day or an ISO week).
 *
 * Privacy mode: a group of fewer starters than k has no figures, and neither has a group whose withheld siblings (or
 * its parent's own people) would otherwise be told by difference: among the children of each parent (the teams under
 * a team, the top-level teams and Unassigned under the organization, the cohorts under the scope's range), what is
 * withheld adds up to none or to at least k, else the smallest shown child is withheld too.
 */
import { INTEGER, LIST, VARCHAR, listValue } from '@duckdb/node-api';
import { HISTORY_START, type DayRange } from '../../lib/dates';
import { RETAINED_DAYS, RETAINED_FROM, STEP_DAYS, type FunnelCount } from '../../lib/funnel';
import type { Mapping } from '../teams/mapping';
import { parentOf, UNASSIGNED, withAncestors } from '../teams/tree';
import type { Analytics } from './engine';
import { createMemberHistory, type MemberHistory } from './member-history';
import { scopeWhere, type PeopleScope } from './teams';

/** A group's starters and those reaching each step, and the median days to the first three steps. */
export type FunnelCounts = Record<FunnelCount, number> & Record<'sessionDays' | 'commitDays' | 'prDays', number | null>;

export interface FunnelOptions {
  /** Who was in which team when, and the first day each member was named (one per engine and store). */
  history?: MemberHistory;
}

export interface FunnelQuestion {
  mapping: Mapping | null;
  scope: PeopleScope;
  /** The starters are those whose access is in the range; its end is the day windows and grace are judged on. */
  range: DayRange;
  by: 'total' | 'team' | 'day' | 'week';
  /** The teams a `team` question has rows for. */
  groups: readonly string[] | null;
  graceDays: number;
}

export function createFunnel(a: Analytics, opts: FunnelOptions = {}) {
  const history = opts.history ?? createMemberHistory(a);
  /** `person_access`: each member's `since` and first day named (analytics/member-history.ts). */
  const accessTable = (mapping: Mapping | null) => history.tables(mapping);

  /** Each group's funnel over the question's starters: its key ('' for the total) → its counts. */
  async function counts(q: FunnelQuestion): Promise<Map<string, FunnelCounts>> {
    await accessTable(q.mapping);
    const people = scopeWhere(q.scope);
    const key =
      q.by === 'team'
        ? 'ancestor'
        : q.by === 'day'
          ? "strftime(access, '%Y-%m-%d')"
          : q.by === 'week'
            ? "strftime(date_trunc('week', access)::DATE, '%Y-%m-%d')"
            : "''";
    const within = STEP_DAYS - 1;
    const days = (col: string) =>
      `CASE WHEN ${col} <= access + ${within} THEN greatest(date_diff('day', access, ${col}), 0) END`;
    const sql = `
      WITH steps AS (
        SELECT pid, min(day) AS seen, min(day) FILTER (WHERE sessions > 0) AS s,
          min(day) FILTER (WHERE git_commits > 0) AS c, min(day) FILTER (WHERE git_prs_created > 0) AS p
        FROM person_day WHERE day <= $asOf AND ${people.where} GROUP BY pid),
      acc AS (
        SELECT pid, coalesce(x.since::DATE, least(x.named::DATE, steps.seen)) AS access, s, c, p
        FROM (SELECT pid FROM member WHERE ${people.where}) LEFT JOIN person_access x USING (pid)
          LEFT JOIN steps USING (pid)),
      st AS (SELECT * FROM acc WHERE access > $history AND access BETWEEN $start AND $end),
      kept AS (
        SELECT DISTINCT pid FROM person_day d JOIN st USING (pid)
        WHERE d.sessions > 0 AND d.day BETWEEN st.access + ${RETAINED_FROM} AND st.access + ${RETAINED_FROM + RETAINED_DAYS - 1}),
      per AS (
        SELECT pid, access, access + $grace > $asOf AS grace, access + ${within} <= $asOf AS due,
          access + ${RETAINED_FROM + RETAINED_DAYS - 1} <= $asOf AS retained_due,
          ${days('s')} AS ds, ${days('c')} AS dc, ${days('p')} AS dp, pid IN (SELECT pid FROM kept) AS retained
        FROM st)
      SELECT ${key} AS g, count(*)::INTEGER AS starters, count(*) FILTER (WHERE grace)::INTEGER AS grace,
        count(*) FILTER (WHERE due)::INTEGER AS due, count(*) FILTER (WHERE retained_due)::INTEGER AS "retainedDue",
        count(*) FILTER (WHERE due AND ds IS NOT NULL)::INTEGER AS session,
        count(*) FILTER (WHERE due AND dc IS NOT NULL)::INTEGER AS "commit",
        count(*) FILTER (WHERE due AND dp IS NOT NULL)::INTEGER AS pr,
        count(*) FILTER (WHERE retained_due AND retained)::INTEGER AS retained,
        median(ds) FILTER (WHERE due)::DOUBLE AS "sessionDays", median(dc) FILTER (WHERE due)::DOUBLE AS "commitDays",
        median(dp) FILTER (WHERE due)::DOUBLE AS "prDays"
      FROM per ${q.by === 'team' ? 'JOIN member USING (pid) JOIN team_ancestor USING (team) WHERE list_contains($groups, ancestor)' : ''}
      GROUP BY g`;
    const rows = await a.rows<FunnelCounts & { g: string }>(
      sql,
      {
        asOf: q.range.end,
        start: q.range.start,
        end: q.range.end,
        history: HISTORY_START,
        grace: q.graceDays,
        ...people.params,
        ...(q.by === 'team' && { groups: listValue([...(q.groups ?? [])]) }),
      },
      { grace: INTEGER, ...people.types, ...(q.by === 'team' && { groups: LIST(VARCHAR) }) },
    );
    return new Map(rows.map(({ g, ...c }) => [g, c]));
  }

  /**
   * Privacy mode: the groups of a question whose funnel is withheld for k (see the module's comment). Teams are
   * decided over the whole organization, whoever asks; cohorts over the question's scope.
   */
  async function withheld(q: FunnelQuestion, k: number, rows: Map<string, FunnelCounts>): Promise<Set<string>> {
    const n = (m: Map<string, FunnelCounts>, g: string) => m.get(g)?.starters ?? 0;
    if (q.by === 'total') return new Set(n(rows, '') < k ? [''] : []);
    if (q.by === 'day' || q.by === 'week') {
      const [total] = (await counts({ ...q, by: 'total' })).values();
      return suppressed(
        total?.starters ?? 0,
        [...rows].map(([g, c]) => [g, c.starters]),
        k,
      );
    }
    const all = withAncestors([...(q.mapping?.teams ?? []), UNASSIGNED]);
    const whole = await counts({ ...q, scope: { people: null }, groups: all });
    const [org] = (await counts({ ...q, scope: { people: null }, by: 'total' })).values();
    const hidden = new Set<string>();
    const children = (parent: string | null) => all.filter((t) => (parentOf(t) ?? null) === parent);
    const walk = (parent: string | null, total: number) => {
      const kids = children(parent);
      const out = suppressed(
        total,
        kids.map((t) => [t, n(whole, t)]),
        k,
      );
      for (const t of kids) {
        // A team withheld has every team under it withheld: it could not be told from them either.
        if (out.has(t) || (parent !== null && hidden.has(parent))) hidden.add(t);
        walk(t, n(whole, t));
      }
    };
    walk(null, org?.starters ?? 0);
    return hidden;
  }

  return { counts, withheld, accessTable };
}

/**
 * The children of a parent of `total` people withheld: those of fewer than k, and then the smallest shown ones until
 * what is withheld (the parent's own people outside every child included) is none or at least k.
 */
export function suppressed(total: number, kids: readonly [string, number][], k: number): Set<string> {
  const hidden = new Set(kids.filter(([, n]) => n > 0 && n < k).map(([g]) => g));
  const shown = kids.filter(([g, n]) => n > 0 && !hidden.has(g)).sort((x, y) => x[1] - y[1] || (x[0] < y[0] ? -1 : 1));
  const told = () => total - kids.reduce((s, [g, n]) => s + (hidden.has(g) ? 0 : n), 0);
  while (told() > 0 && told() < k && shown.length > 0) hidden.add(shown.shift()![0]);
  return hidden;
}
