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
 * withheld adds up to none or to at least k, else the smallest shown child is withheld too. A group's starters are
 * among its members, which the teams tree counts: a group whose members are not all starters has its starters withheld
 * unless at least k of its members are not, and its cohorts leave none or at least k of its members untold.
 */
import { INTEGER, LIST, VARCHAR, listValue } from '@duckdb/node-api';
import { HISTORY_START, weekStart, type DayRange } from '../../lib/dates';
import { RETAINED_DAYS, RETAINED_FROM, STEP_DAYS, type FunnelCount } from '../../lib/funnel';
import type { Mapping } from '../teams/mapping';
import { isWithin, parentOf, UNASSIGNED, withAncestors } from '../teams/tree';
import type { Analytics } from './engine';
import { ACCESS_DAY } from './grace';
import { firstBy, firstsOf } from './firsts';
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

  /**
   * Each group's funnel over the question's starters: its key ('' for the total) → its counts. With `perTeam`, a
   * day's or week's cohort of each team of `groups` instead: its key the team, a line break, then the cohort's.
   */
  async function counts(q: FunnelQuestion, perTeam = false): Promise<Map<string, FunnelCounts>> {
    const [firsts] = await Promise.all([firstsOf(a), accessTable(q.mapping)]);
    const people = scopeWhere(q.scope);
    const cohort =
      q.by === 'day'
        ? "strftime(access, '%Y-%m-%d')"
        : q.by === 'week'
          ? "strftime(date_trunc('week', access)::DATE, '%Y-%m-%d')"
          : "''";
    const teamed = q.by === 'team' || perTeam;
    const key = q.by === 'team' ? 'ancestor' : perTeam ? `ancestor || chr(10) || ${cohort}` : cohort;
    const within = STEP_DAYS - 1;
    const days = (col: string) =>
      `CASE WHEN ${col} <= access + ${within} THEN greatest(date_diff('day', access, ${col}), 0) END`;
    const sql = `
      WITH steps AS (
        SELECT pid, seen, ${firstBy('s')} AS s, ${firstBy('c')} AS c, ${firstBy('p')} AS p
        FROM ${firsts} WHERE seen <= $asOf AND ${people.where}),
      acc AS (
        SELECT pid, ${ACCESS_DAY('x', 'steps.seen')} AS access, s, c, p
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
      FROM per ${teamed ? 'JOIN member USING (pid) JOIN team_ancestor USING (team) WHERE list_contains($groups, ancestor)' : ''}
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
        ...(teamed && { groups: listValue([...(q.groups ?? [])]) }),
      },
      { grace: INTEGER, ...people.types, ...(teamed && { groups: LIST(VARCHAR) }) },
    );
    return new Map(rows.map(({ g, ...c }) => [g, c]));
  }

  /**
   * The members as the tree and the `members` measure count them (the people the mapping names but the copy has not
   * seen included): each team's with its sub-teams' (`teams`, the runner's counts), the question's scope's ('') and
   * the organization's (null, from the top-level groups: `teams` holds every one, Unassigned too).
   */
  async function membersOf(q: FunnelQuestion, teams: ReadonlyMap<string, number>) {
    const people = scopeWhere(q.scope);
    const [scope] = await a.rows<{ n: number }>(
      `SELECT count(*)::INTEGER AS n FROM member WHERE ${people.where}`,
      people.params,
      people.types,
    );
    // Everyone is in one top-level team or Unassigned: the organization's members are theirs added up.
    const org = [...teams].reduce((sum, [g, n]) => sum + (parentOf(g) === null ? n : 0), 0);
    return (g: string | null) => (g === '' ? (scope?.n ?? 0) : g === null ? org : (teams.get(g) ?? 0));
  }

  /**
   * Privacy mode: the groups of a question whose funnel is withheld for k (see the module's comment). Teams are
   * decided over the whole organization, whoever asks, and so is a scope of teams: its total or a cohort of it is
   * withheld when a team it is made of is withheld there (for that cohort), else the teams' figure less one of them
   * would tell the other's; a cohort too when a team within the scope withheld in it is told by its row of the teams
   * (all its starters of the range in that cohort), or when all its starters are of one team within the scope whose
   * own cohorts withhold it (that team's row less the scope's cohort would tell the rest). Then the cohorts of the
   * range are withheld as siblings, a day's under its week's.
   */
  async function withheld(
    q: FunnelQuestion,
    k: number,
    rows: Map<string, FunnelCounts>,
    teams: ReadonlyMap<string, number>,
  ): Promise<Set<string>> {
    const n = (m: Map<string, FunnelCounts>, g: string) => m.get(g)?.starters ?? 0;
    const all = withAncestors([...(q.mapping?.teams ?? []), UNASSIGNED]);
    const org: FunnelQuestion = { ...q, scope: { people: null }, groups: all };
    // The teams the scope is made of: those chosen, else the reader's; none for the whole organization.
    const made = Array.isArray(q.scope.people) ? q.scope.people : (q.scope.visible ?? []);
    const [whole, total, members] = await Promise.all([
      counts({ ...org, by: 'team' }),
      counts({ ...org, by: 'total' }),
      membersOf(q, teams),
    ]);
    // Those of a group's members who are not its starters, told by its members less its starters: none or k or more.
    const untold = (g: string, starters: number) => members(g) - starters;
    const few = (x: number) => x > 0 && x < k;
    // A team's starters of the range are shown as its row of the teams.
    const thin = new Set(all.filter((t) => n(whole, t) > 0 && few(untold(t, n(whole, t)))));
    const rowsHidden = teamsWithheld(all, n(total, ''), (t) => n(whole, t), k, thin, members);
    if (q.by === 'team') return rowsHidden;
    const scope = n(rows, '');
    if (q.by === 'total')
      return new Set(scope < k || few(untold('', scope)) || made.some((t) => rowsHidden.has(t)) ? [''] : []);
    const by = q.by;

    // Each team's cohorts and the organization's, and the teams withheld in each cohort, asked once per question.
    const grids = new Map<'day' | 'week', Promise<Grid>>();
    const grid = (of: 'day' | 'week') => {
      let g = grids.get(of);
      if (!g) {
        g = Promise.all([counts({ ...org, by: of }, true), counts({ ...org, by: of })]).then(([perTeam, perCohort]) => {
          const cohorts = new Map<string, Map<string, number>>();
          for (const [key, c] of perTeam) {
            const [t, cohort] = key.split('\n') as [string, string];
            cohorts.set(t, (cohorts.get(t) ?? new Map<string, number>()).set(cohort, c.starters));
          }
          const cell = (t: string, c: string) => cohorts.get(t)?.get(c) ?? 0;
          const hidden = new Map(
            [...perCohort.keys()].map((c) => [c, teamsWithheld(all, n(perCohort, c), (t) => cell(t, c), k)]),
          );
          return { cohorts, hidden, cell };
        });
        grids.set(of, g);
      }
      return g;
    };
    interface Grid {
      cohorts: Map<string, Map<string, number>>;
      hidden: Map<string, Set<string>>;
      cell: (team: string, cohort: string) => number;
    }

    // The cohorts withheld in the view of a scope made of `teams` (none: the organization), of `sum` starters whose
    // cohorts are `mine`: the question's (`who` ''), or a team's own (`who` the team), each worked out once.
    const views = new Map<string, Promise<Set<string>>>();
    const view = (
      who: string,
      teams: readonly string[],
      of: 'day' | 'week',
      mine: Map<string, number>,
      sum: number,
    ) => {
      const key = `${of}\n${who}`;
      let v = views.get(key);
      if (!v) views.set(key, (v = viewOf(who, teams, of, mine, sum)));
      return v;
    };
    const teamView = async (t: string, of: 'day' | 'week') =>
      view(t, [t], of, (await grid(of)).cohorts.get(t) ?? new Map(), n(whole, t));
    async function viewOf(
      who: string,
      teams: readonly string[],
      of: 'day' | 'week',
      mine: Map<string, number>,
      sum: number,
    ): Promise<Set<string>> {
      const { hidden, cell } = await grid(of);
      const inScope = (t: string) => teams.length === 0 || teams.some((m) => isWithin(t, m));
      const also = new Set<string>();
      for (const [g, size] of mine) {
        const out = hidden.get(g) ?? new Set<string>();
        const told = all.some(
          (t) => inScope(t) && out.has(t) && cell(t, g) > 0 && !rowsHidden.has(t) && n(whole, t) === cell(t, g),
        );
        if (told || teams.some((t) => out.has(t))) also.add(g);
        else
          for (const t of all)
            if (size > 0 && inScope(t) && t !== who && cell(t, g) === size && (await teamView(t, of)).has(g)) {
              also.add(g);
              break;
            }
      }
      // Its cohorts are among the members of `who` ('' the question's scope).
      if (of === 'week') return suppressed(sum, [...mine], k, also, members(who));
      // Each day's cohort within its week's, which the same question by week shows: a week withheld there has every
      // day withheld, else the week less its days shown would tell it; a week shown, its days as its children.
      const weeks = new Map<string, [string, number][]>();
      for (const [g, size] of mine) weeks.set(weekStart(g), [...(weeks.get(weekStart(g)) ?? []), [g, size]]);
      const byWeek = new Map<string, number>();
      for (const [g, size] of mine) byWeek.set(weekStart(g), (byWeek.get(weekStart(g)) ?? 0) + size);
      const weeksHidden = await view(who, teams, 'week', byWeek, sum);
      const out = new Set<string>();
      for (const [w, days] of weeks)
        for (const g of weeksHidden.has(w) ? days.map(([d]) => d) : suppressed(byWeek.get(w) ?? 0, days, k, also))
          out.add(g);
      return out;
    }

    const [mine] = (await counts({ ...q, by: 'total' })).values();
    const starters = new Map([...rows].map(([g, c]) => [g, c.starters]));
    return view('', made, by, starters, mine?.starters ?? 0);
  }

  return { counts, withheld, accessTable };
}

/**
 * The children of a parent of `total` people withheld: those of fewer than k (and those in `also`), and then the
 * smallest shown ones until what is withheld (the parent's own people outside every child included) is none or at
 * least k, and so is what the shown leave of the parent's `outer` group (its members, when those are told).
 */
export function suppressed(
  total: number,
  kids: readonly (readonly [string, number, number?])[],
  k: number,
  also: ReadonlySet<string> = new Set(),
  outer = total,
): Set<string> {
  const hidden = new Set(kids.filter(([g, n]) => n > 0 && (n < k || also.has(g))).map(([g]) => g));
  const shown = kids.filter(([g, n]) => n > 0 && !hidden.has(g)).sort((x, y) => x[1] - y[1] || (x[0] < y[0] ? -1 : 1));
  const few = (x: number) => x > 0 && x < k;
  const sum = (of: (kid: (typeof kids)[number]) => number) =>
    kids.reduce((s, kid) => s + (hidden.has(kid[0]) ? 0 : of(kid)), 0);
  // Teams carry their members: those of the withheld (the parent's own people with them) less their starters too.
  const teams = kids.some((kid) => kid[2] !== undefined);
  const told = () => {
    const starters = total - sum(([, n]) => n);
    const people = outer - sum(([, n, m]) => m ?? n);
    return few(starters) || few(people) || (teams && few(people - starters));
  };
  while (told() && shown.length > 0) hidden.add(shown.shift()![0]);
  return hidden;
}

/**
 * The teams withheld for k under the organization's `total` starters, each team's being `count`: under each parent
 * (the organization above the top-level teams and Unassigned), `suppressed` (with those in `also`); a team under one
 * withheld is withheld too.
 */
export function teamsWithheld(
  all: readonly string[],
  total: number,
  count: (team: string) => number,
  k: number,
  also: ReadonlySet<string> = new Set(),
  members?: (team: string | null) => number,
): Set<string> {
  const hidden = new Set<string>();
  const under = new Map<string | null, string[]>();
  for (const t of all) {
    const p = parentOf(t) ?? null;
    under.set(p, [...(under.get(p) ?? []), t]);
  }
  const walk = (parent: string | null, n: number) => {
    const kids = under.get(parent) ?? [];
    const out = suppressed(
      n,
      kids.map((t) => (members ? [t, count(t), members(t)] : [t, count(t)])),
      k,
      also,
      members ? members(parent) : n,
    );
    for (const t of kids) {
      // A team withheld has every team under it withheld: it could not be told from them either.
      if (out.has(t) || (parent !== null && hidden.has(parent))) hidden.add(t);
      walk(t, count(t));
    }
  };
  walk(null, total);
  return hidden;
}
