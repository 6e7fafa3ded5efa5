/**
 * From access to a first pull request (lib/funnel.ts) as the figures runner's measures: each person's access day
 * (the mapping's `since`, else the earlier of the first day the mapping named them and their first day seen), their
 * first session, commit and pull request through the agent and whether they were still active four weeks later,
 * counted per group of starters (the scope's, a team's with its sub-teams', or a cohort: those whose access is in a
 * day or an ISO week).
 *
 * Privacy mode: no group of 1 to k−1 starters can be worked out from the figures given, by any sums and differences
 * of them and of the tree's members (analytics/funnel-privacy.ts checks the decision whole). Teams' rows and weekly
 * cohorts are given; days are not.
 */
import { INTEGER, LIST, VARCHAR, listValue } from '@duckdb/node-api';
import { addDays, eachDay, HISTORY_START, maxDay, minDay, weeksOf, type DayRange } from '../../lib/dates';
import { RETAINED_DAYS, RETAINED_FROM, STEP_DAYS, type FunnelCount } from '../../lib/funnel';
import type { Mapping } from '../teams/mapping';
import { isWithin, parentOf, UNASSIGNED, withAncestors } from '../teams/tree';
import type { Analytics } from './engine';
import { ACCESS_DAY } from './grace';
import { firstBy, firstsOf } from './firsts';
import { decideFunnelFor, type FunnelShown } from './funnel-privacy';
import { createMemberHistory, type MemberHistory } from './member-history';
import { scopeWhere, type PeopleScope } from './teams';

/** A group's starters and those reaching each step, and the median days to the first three steps. */
export type FunnelCounts = Record<FunnelCount, number> & Record<'sessionDays' | 'commitDays' | 'prDays', number | null>;

/** The figures privacy mode withholds of a group given: those of its starters due for the steps, for still active, in
 * grace, and its medians. */
export type Level = 'due' | 'retained' | 'grace' | 'median';

/** A question's groups, those withheld whole, and the figures withheld of each group given. */
export interface Given {
  rows: Map<string, FunnelCounts>;
  hidden: Set<string>;
  levels: Map<string, Set<Level>>;
}

/** The organization's decision for a range, and each team's (and the organization's, '') counts of each week. */
interface Decided {
  shown: FunnelShown;
  weekly: Map<string, FunnelCounts>;
}

const COUNTS = ['starters', 'grace', 'due', 'retainedDue', 'session', 'commit', 'pr', 'retained'] as const;
const ZERO: FunnelCounts = {
  ...(Object.fromEntries(COUNTS.map((f) => [f, 0])) as Record<FunnelCount, number>),
  sessionDays: null,
  commitDays: null,
  prDays: null,
};

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
   * The members as the tree counts them (the people the mapping names but the copy has not seen included): each
   * team's with its sub-teams' (`teams`, the runner's counts) and the organization's ('', from the top-level groups:
   * `teams` holds every one, Unassigned too).
   */
  function membersOf(teams: ReadonlyMap<string, number>) {
    // Everyone is in one top-level team or Unassigned: the organization's members are theirs added up.
    const org = [...teams].reduce((sum, [g, n]) => sum + (parentOf(g) === null ? n : 0), 0);
    return (g: string) => (g === '' ? org : (teams.get(g) ?? 0));
  }

  /**
   * A question's groups and, in privacy mode (`k`), those withheld, both read from one generation of the copy: a day
   * written between them could give a figure the decision did not check. A copy that keeps changing has every group
   * withheld.
   */
  async function given(
    q: FunnelQuestion,
    k: number | undefined,
    teams: () => Promise<ReadonlyMap<string, number>>,
    treeShown: () => Promise<ReadonlySet<string>>,
  ): Promise<Given> {
    for (let tries = 0; ; tries++) {
      const generation = a.generation();
      const rows = await counts(q);
      if (!k) return { rows, hidden: new Set(), levels: new Map() };
      // Days are never given (a day within its week and its teams would be a third side of the grid), nor one
      // person's funnel (their own page), a group of one.
      if (q.by === 'day') return { rows, hidden: new Set(eachDay(q.range.start, q.range.end)), levels: new Map() };
      const all = new Set([...rows.keys(), ...(q.groups ?? []), '']);
      if (q.scope.people !== null && !Array.isArray(q.scope.people)) return { rows, hidden: all, levels: new Map() };
      const decided = await decision(q, k, await teams(), await treeShown(), generation);
      if (a.generation() === generation)
        return { ...ofWeeksGiven(q, rows, decided), hidden: withheld(q, decided.shown) };
      if (tries === 2) return { rows, hidden: all, levels: new Map() };
    }
  }

  /**
   * Privacy mode: the groups of a question whose funnel is withheld for k, from one decision for the organization and
   * the range, whoever asks (analytics/funnel-privacy.ts): a team's row, the total and a week's cohort of a scope made
   * of teams are given when each of its teams' is, the organization's when its own is. Days are never given: a day
   * within its week and its teams would make a third side of the grid.
   */
  function withheld(q: FunnelQuestion, shown: FunnelShown): Set<string> {
    if (q.by === 'team') return new Set((q.groups ?? []).filter((t) => !shown.rows.has(t)));
    const given = givenIn(q);
    if (q.by === 'total') return new Set(given(shown.rows) ? [] : ['']);
    return new Set([...shown.weeks.keys(), ...weeksOf(q.range)].filter((w) => !given(shown.weeks.get(w))));
  }

  /** Whether a decision's groups (the rows, or a week's) hold the question's scope: each team it is made of, or ''. */
  function givenIn(q: FunnelQuestion) {
    // The teams the scope is made of: those chosen, else the reader's; none for the whole organization.
    const made = Array.isArray(q.scope.people) ? q.scope.people : (q.scope.visible ?? []);
    return (groups: ReadonlySet<string> | undefined) =>
      groups !== undefined && (made.length === 0 ? groups.has('') : made.every((t) => groups.has(t)));
  }

  /**
   * Privacy mode: a group's steps (of its starters four weeks in), still active (five weeks in) and grace are the sums
   * of its weeks given whose starters are all past that day (or none are), so each is a sum of whole weekly cohorts
   * given and tells no group of its own. A week only part of whose starters are past it gives none of those figures,
   * and a median is given for a week, never for a sum of weeks.
   */
  function ofWeeksGiven(q: FunnelQuestion, rows: Map<string, FunnelCounts>, d: Decided): Omit<Given, 'hidden'> {
    const end = q.range.end;
    const past = (w: string, days: number): 'all' | 'none' | 'part' => {
      const [first, last] = [maxDay(w, q.range.start), minDay(addDays(w, 6), end)];
      return addDays(last, days) <= end ? 'all' : addDays(first, days) > end ? 'none' : 'part';
    };
    const LEVELS = { due: STEP_DAYS - 1, retained: RETAINED_FROM + RETAINED_DAYS - 1 } as const;
    const levels = new Map<string, Set<Level>>();
    if (q.by === 'week') {
      for (const w of rows.keys()) {
        const out = new Set<Level>();
        for (const [level, days] of Object.entries(LEVELS)) if (past(w, days) === 'part') out.add(level as Level);
        if (past(w, q.graceDays) === 'part') out.add('grace');
        levels.set(w, out);
      }
      return { rows, levels };
    }
    // A team's or the scope's: the sums of its weeks given, each level over the weeks wholly past its day.
    const weeksGiven = (key: string): [string, FunnelCounts][] => {
      const team = q.by === 'team' ? key : null;
      const made = Array.isArray(q.scope.people) ? q.scope.people : (q.scope.visible ?? []);
      const roots = team !== null ? [team] : made.filter((t) => !made.some((o) => o !== t && isWithin(t, o)));
      const given = team !== null ? (g?: ReadonlySet<string>) => g?.has(team) === true : givenIn(q);
      return weeksOf(q.range).flatMap((w) => {
        if (!given(d.shown.weeks.get(w))) return [];
        const parts = (roots.length === 0 ? [''] : roots).map((t) => d.weekly.get(`${t}\n${w}`));
        const sum = (f: FunnelCount) => parts.reduce((s, c) => s + (c?.[f] ?? 0), 0);
        return [[w, { ...ZERO, ...Object.fromEntries(COUNTS.map((f) => [f, sum(f)])) } as FunnelCounts]];
      });
    };
    const out = new Map<string, FunnelCounts>();
    for (const [key, c] of rows) {
      const weeks = weeksGiven(key);
      const over = (days: number, fields: readonly FunnelCount[]) =>
        Object.fromEntries(
          fields.map((f) => [f, weeks.reduce((s, [w, n]) => s + (past(w, days) === 'all' ? n[f] : 0), 0)]),
        );
      // In grace: the starters of the weeks given none of whose starters are past the days of grace.
      const grace = weeks.reduce((s, [w, n]) => s + (past(w, q.graceDays) === 'none' ? n.starters : 0), 0);
      out.set(key, {
        ...c,
        ...over(LEVELS.due, ['due', 'session', 'commit', 'pr']),
        ...over(LEVELS.retained, ['retainedDue', 'retained']),
        grace,
        sessionDays: null,
        commitDays: null,
        prDays: null,
      });
      // A level none of whose weeks given is wholly past its day has no figure, rather than a sum of none.
      const held = new Set<Level>(['median']);
      if (!weeks.some(([w]) => past(w, LEVELS.due) === 'all')) held.add('due');
      if (!weeks.some(([w]) => past(w, LEVELS.retained) === 'all')) held.add('retained');
      if (!weeks.some(([w]) => past(w, q.graceDays) !== 'part')) held.add('grace');
      levels.set(key, held);
    }
    return { rows: out, levels };
  }

  /** Decisions asked together share one (a page asks its weeks, its teams and its total at once), per copy and tree. */
  const decided = new WeakMap<ReadonlyMap<string, number>, Map<string, Promise<Decided>>>();
  function decision(
    q: FunnelQuestion,
    k: number,
    teams: ReadonlyMap<string, number>,
    treeShown: ReadonlySet<string>,
    generation: number,
  ) {
    const key = `${generation}\n${k}\n${q.range.start}\n${q.range.end}`;
    const mine = decided.get(teams) ?? new Map<string, Promise<Decided>>();
    decided.set(teams, mine);
    let d = mine.get(key);
    if (!d) {
      const made = decide(q, k, teams, treeShown);
      mine.set(key, made);
      made.catch(() => mine.get(key) === made && mine.delete(key));
      // A few ranges at a time: the oldest goes.
      if (mine.size > 16) mine.delete(mine.keys().next().value!);
      d = made;
    }
    return d;
  }

  /**
   * The organization's decision for a range (analytics/funnel-privacy.ts), from its teams' starters of the range and
   * of each week.
   */
  async function decide(
    q: FunnelQuestion,
    k: number,
    teams: ReadonlyMap<string, number>,
    treeShown: ReadonlySet<string>,
  ): Promise<Decided> {
    const n = (m: Map<string, FunnelCounts>, g: string) => m.get(g)?.starters ?? 0;
    const all = withAncestors([...(q.mapping?.teams ?? []), UNASSIGNED]);
    const org: FunnelQuestion = { ...q, scope: { people: null }, groups: all };
    const [whole, total, perTeam, perWeek] = await Promise.all([
      counts({ ...org, by: 'team' }),
      counts({ ...org, by: 'total' }),
      counts({ ...org, by: 'week' }, true),
      counts({ ...org, by: 'week' }),
    ]);
    const weeks = new Map<string, Map<string, number>>();
    for (const [w, c] of perWeek) weeks.set(w, new Map([['', c.starters]]));
    for (const [key, c] of perTeam) {
      const [t, w] = key.split('\n') as [string, string];
      weeks.get(w)?.set(t, c.starters);
    }
    const shown = await decideFunnelFor({
      k,
      teams: all,
      treeShown,
      members: membersOf(teams),
      starters: (t) => (t === '' ? n(total, '') : n(whole, t)),
      weeks,
    });
    return { shown, weekly: new Map([...perTeam, ...[...perWeek].map(([w, c]) => [`\n${w}`, c] as const)]) };
  }

  return { counts, given, accessTable };
}
