/**
 * The figures runner: every figure about people is asked of it, as measures (lib/measures.ts) of a scope over a
 * range, grouped by total, team, day, ISO week or person, with the previous period and the change. One query per
 * question, written from the measures' declarations (analytics/figures-sql.ts):
 *
 * - **the scope is a join**: everyone, the teams chosen (each with its sub-teams), or one person, and the teams the
 *   reader may see people of; a team's people are `member` joined to `team_ancestor` (each group beside itself and
 *   every team above it), so a roll-up is `GROUP BY ancestor` and a team's members are `count(*)`;
 * - **each person's facts are summed first** (whole weeks from the week tables, the range's edge days from the day
 *   tables), then the group's: sums are sums, people are counted once, ratios are ratios of the sums;
 * - **the previous period** is the dashboard's one rule (lib/dates.ts `previousPeriod`), and the change is the
 *   relative change of each measure;
 * - **privacy inside**: for a reader in privacy mode, a team the tree's decision does not show (teams/tree.ts
 *   `shownTeams`: under k members, or one a small group is the difference of) is no row of any answer, people are
 *   named by pseudonym and ordered by it; the organization's total is computed over everyone and stays exact;
 * - **intensity** (lib/intensity.ts, analytics/intensity-figures.ts): each person's credits over the four whole weeks
 *   to a row's end, in a band by its quarter's frozen thresholds;
 * - **from access to a first pull request** (lib/funnel.ts, analytics/funnel.ts): the starters whose access is in a
 *   row's range, day or week, and how many reached each step; privacy mode withholds a group of fewer than k starters.
 */
import { LIST, VARCHAR, listValue, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';
import {
  addDays,
  daysBetween,
  HISTORY_START,
  eachDay,
  maxDay,
  minDay,
  previousPeriod,
  type Day,
  type DayRange,
  weeksOf,
} from '../../lib/dates';
import { weeksTo, type Thresholds } from '../../lib/intensity';
import { DEFAULT_GRACE_DAYS, type FunnelCount } from '../../lib/funnel';
import { changeOf, isFunnel, MEASURES, valueOf, type MeasureId } from '../../lib/measures';
import type { PriceList } from '../spend/prices';
import type { ThresholdKeeper } from '../store/intensity-queries';
import type { Mapping } from '../teams/mapping';
import { inSelection, shownTeams, teamTree, UNASSIGNED, withAncestors, type CountedTeam } from '../teams/tree';
import type { Analytics } from './engine';
import { createIntensityFigures, type Banded } from './intensity-figures';
import { createFunnel, type FunnelCounts, type FunnelOptions, type Level } from './funnel';
import { judgeGraceWith } from './grace';
import { lineSql, named, needs, sumsOfRow, sumsSql, type Grouping, type Needs } from './figures-sql';
import { wholeWeeks } from './schema';
import { priceTableOf } from './spend';
import { membershipOf, scopeWhere, type PeopleScope } from './teams';

export type { Grouping };

/** What a reader in privacy mode is shown of people: the smallest group, and how a person is named. */
export interface FiguresPrivacy {
  minGroup: number;
  name: (userId: string) => string;
}

/** Whose figures (everyone, the teams chosen with their sub-teams, or one person), and what the reader may see of them. */
export interface FigureScope extends PeopleScope {
  /** Privacy mode, for a reader it applies to. */
  privacy?: FiguresPrivacy;
}

export interface FigureQuestion<M extends MeasureId> {
  mapping: Mapping | null;
  measures: readonly M[];
  range: DayRange;
  by: Grouping;
  scope: FigureScope;
  /** With the previous period (true: the dashboard's rule, `previousPeriod`; or the days given) and each change. */
  compare?: boolean | DayRange;
  /** Each row's value of one summed measure day by day over the range (`total` and `team` groupings). */
  line?: M;
  /** Needed by spend measures. */
  prices?: PriceList | null;
  /** `person`: the first rows by the first measure, largest first (ties by the name the reader sees). */
  top?: number;
}

export type Values<M extends MeasureId> = Record<M, number | null>;

export interface FigureRow<M extends MeasureId> {
  /** '' for the total; the team's path; the day or week's Monday; the person's id (their pseudonym in privacy mode). */
  key: string;
  current: Values<M>;
  previous: Values<M> | null;
  change: Values<M> | null;
  line?: number[];
}

export interface FigureAnswer<M extends MeasureId> {
  range: DayRange;
  previous: DayRange | null;
  rows: FigureRow<M>[];
  /** With an intensity measure: the thresholds of each quarter its rows are of, and the smallest group banded. */
  intensity?: { thresholds: Thresholds[]; minActive: number };
  /** With a funnel measure: the days of grace, and the smallest group of starters given (privacy mode's k, or 1). */
  funnel?: { graceDays: number; minStarters: number };
}

export interface FiguresOptions {
  /** Where each quarter's intensity thresholds are kept once computed (memory by default). */
  thresholds?: ThresholdKeeper;
  /** The latest day with data, which a quarter's first thresholds are computed to (yesterday by default). */
  latestDay?: () => Day;
  /** Fills the days thresholds are computed from, from the service first (as a route fills its range). */
  fill?: (r: DayRange) => Promise<void>;
  /** Who was in which team when (the first day each member was named), and the funnel's days of grace (lib/funnel.ts). */
  funnel?: FunnelOptions & { graceDays?: number };
}

/** The figures of a group a funnel count is among (analytics/funnel.ts' `Level`): its starters', or a level's. */
function levelOf(of: FunnelCount): Level | 'starters' {
  if (of === 'starters' || of === 'grace') return of;
  return of === 'retainedDue' || of === 'retained' ? 'retained' : 'due';
}

export function createFigures(a: Analytics, opts: FiguresOptions = {}) {
  /** A query with the parameters it names of those given. */
  const query = <T extends Record<string, unknown>>(
    sql: string,
    params: Record<string, DuckDBValue> = {},
    types: Record<string, DuckDBType> = {},
  ) => a.rows<T>(sql, ...named(sql, params, types));
  const membership = membershipOf(a);
  const prices = priceTableOf(a);
  const funnel = createFunnel(a, opts.funnel);
  const graceDays = opts.funnel?.graceDays ?? DEFAULT_GRACE_DAYS;
  // The users tables keep the new starters this funnel counts in grace out of their unused lists (analytics/grace.ts).
  judgeGraceWith(a, { access: funnel.accessTable, days: graceDays });

  /** The teams' members (each with its sub-teams'), counted once per writing of `member`. */
  // Readers asking together share one count: a teams page asks it for every team at once.
  let counted: { writes: number; mapping: Mapping | null; counts: Promise<Map<string, number>> } | undefined;
  async function memberCounts(mapping: Mapping | null): Promise<Map<string, number>> {
    // Everyone known counts, from the whole history's copy (as far as it has come, while it is being made).
    await a.catchUpUnlessUnderWay();
    await membership.current(mapping);
    const writes = membership.writes();
    if (counted?.writes === writes && counted.mapping === mapping) return counted.counts;
    const counts = a
      .rows<{ team: string; n: number }>(
        'SELECT ancestor AS team, count(*)::INTEGER AS n FROM member JOIN team_ancestor USING (team) GROUP BY ancestor',
      )
      .then((rows) => new Map(rows.map((r) => [r.team, r.n])));
    const entry = { writes, mapping, counts };
    counted = entry;
    counts.catch(() => counted === entry && (counted = undefined));
    return counts;
  }

  /** The teams privacy mode shows for k, decided once from the whole tree and its members, whoever asks. */
  const decisions = new Map<number, { counts: Map<string, number>; shown: Set<string> }>();
  async function shown(mapping: Mapping | null, k: number): Promise<Set<string>> {
    const counts = await memberCounts(mapping);
    const had = decisions.get(k);
    if (had?.counts === counts) return had.shown;
    const tree = (n: { path: string; children: readonly { path: string }[] }): CountedTeam => ({
      path: n.path,
      members: counts.get(n.path) ?? 0,
      children: (n.children as (typeof n)[]).map(tree),
    });
    const groups = [
      ...(mapping ? teamTree(mapping.teams) : []).map(tree),
      { path: UNASSIGNED, members: counts.get(UNASSIGNED) ?? 0, children: [] },
    ];
    const decided = shownTeams(groups, k);
    decisions.set(k, { counts, shown: decided });
    return decided;
  }

  const peopleOf = scopeWhere;

  /**
   * A range's sums per group: the group's key, its active people and each summed column. A team's are summed over its
   * own people first, then over the teams under it (each person is in one team, so its active people add up too).
   */
  async function sumsOver(
    q: FigureQuestion<MeasureId>,
    r: DayRange,
    groups: readonly string[] | null,
    need: Needs,
  ): Promise<Map<string, Record<string, number>>> {
    const people = peopleOf(q.scope);
    const sql = sumsSql(need, q.by, people.where, { first: q.measures[0]!, top: q.top });
    const rows = await query<{ key: string; active: number } & Record<string, number>>(
      sql,
      {
        start: r.start,
        end: r.end,
        ...wholeWeeks(r),
        ...people.params,
        ...(groups && { groups: listValue([...groups]) }),
      },
      { ...people.types, ...(groups && { groups: LIST(VARCHAR) }) },
    );
    return new Map(rows.map(({ key, active, ...s }) => [key, { active, ...sumsOfRow(need, s) }]));
  }

  /** Each group's daily line of one summed measure over the range. */
  async function lines(
    q: FigureQuestion<MeasureId>,
    groups: readonly string[] | null,
    measure: MeasureId,
  ): Promise<Map<string, number[]>> {
    const people = peopleOf(q.scope);
    const r = q.range;
    const rows = await query<{ g: string; at: number[]; v: number[] }>(
      lineSql(measure, q.by === 'team', people.where),
      { start: r.start, end: r.end, ...people.params, ...(groups && { groups: listValue([...groups]) }) },
      { ...people.types, ...(groups && { groups: LIST(VARCHAR) }) },
    );
    const length = daysBetween(r.start, r.end) + 1;
    return new Map(
      rows.map((x) => {
        const line = new Array<number>(length).fill(0);
        x.at.forEach((i, k) => (line[i] = x.v[k]!));
        return [x.g, line];
      }),
    );
  }

  const intensity = createIntensityFigures(a, { query, ...opts });
  const { intensityOf } = intensity;

  /** Members of each group (`team`), or of the scope (`total`): today's, for the range and the period before. */
  async function membersOf(q: FigureQuestion<MeasureId>, groups: readonly string[] | null) {
    const counts = await memberCounts(q.mapping);
    if (q.by === 'team') return new Map((groups ?? []).map((g) => [g, counts.get(g) ?? 0]));
    const people = peopleOf(q.scope);
    const [row] = await query<{ n: number }>(
      `SELECT count(*)::INTEGER AS n FROM member WHERE ${people.where}`,
      people.params,
      people.types,
    );
    return new Map([['', row?.n ?? 0]]);
  }

  /** The groups a `team` question has rows for: the scope's teams (with sub-teams), the reader's, those shown. */
  async function groupsOf(q: FigureQuestion<MeasureId>): Promise<string[]> {
    const all = withAncestors([...(q.mapping?.teams ?? []), UNASSIGNED]);
    const p = q.scope.people;
    const chosen = Array.isArray(p) ? p : null;
    const decided = q.scope.privacy && (await shown(q.mapping, q.scope.privacy.minGroup));
    return all.filter(
      (t) =>
        (!chosen || inSelection(t, chosen)) &&
        (!q.scope.visible || inSelection(t, q.scope.visible)) &&
        (!decided || decided.has(t)),
    );
  }

  async function ask<M extends MeasureId>(q: FigureQuestion<M>): Promise<FigureAnswer<M>> {
    const need = needs(q.measures);
    if (need.intensity && q.by === 'person')
      throw new Error('intensity is given per group or for one person, never as a list of people');
    const funnelled = q.measures.some(isFunnel);
    if (funnelled && q.by === 'person') throw new Error('the funnel is given per group, never as a list of people');
    const prev = q.compare === true ? previousPeriod(q.range) : q.compare || null;
    const span = prev ? { start: minDay(prev.start, q.range.start), end: maxDay(prev.end, q.range.end) } : q.range;
    // A band is of the four whole weeks to its day: those before the range are read too.
    await a.catchUp(need.intensity ? { start: weeksTo(span.start).start, end: span.end } : span);
    // A person's access is their first day seen: the whole history to the range's end is read.
    if (funnelled) await a.catchUp({ start: HISTORY_START, end: span.end });
    await membership.current(q.mapping);
    if (need.sums.has('spend')) {
      if (!q.prices) throw new Error('spend is asked without a price list');
      await prices(q.prices);
    }
    const groups = q.by === 'team' ? await groupsOf(q) : null;
    const nothing = new Map<string, Record<string, number>>();
    const funnelOf = async (r: DayRange) => {
      if (!funnelled || q.by === 'person') return undefined;
      const fq = { mapping: q.mapping, scope: q.scope, range: r, by: q.by, groups, graceDays };
      const k = q.scope.privacy?.minGroup;
      return funnel.given(
        fq,
        k,
        () => memberCounts(q.mapping),
        () => shown(q.mapping, k!),
      );
    };
    const [cur, before, members, line, intensity, starting, started] = await Promise.all([
      need.sums.size > 0 ? sumsOver(q, q.range, groups, need) : nothing,
      prev ? (need.sums.size > 0 ? sumsOver(q, prev, groups, need) : nothing) : undefined,
      need.members ? membersOf(q, groups) : undefined,
      q.line ? lines(q, groups, q.line) : undefined,
      need.intensity ? intensityOf(q, prev, groups) : undefined,
      funnelOf(q.range),
      prev ? funnelOf(prev) : undefined,
    ]);
    const keys =
      q.by === 'team'
        ? groups!
        : q.by === 'total'
          ? ['']
          : q.by === 'day'
            ? eachDay(q.range.start, q.range.end)
            : q.by === 'week' && (intensity || starting)
              ? [...new Set([...cur.keys(), ...weeksOf(q.range)])].sort()
              : [...cur.keys()].sort();
    // A day's or week's members are the scope's.
    const membersOfKey = (key: string) => members?.get(q.by === 'day' || q.by === 'week' ? '' : key) ?? 0;
    type Banding = Banded & { shown: boolean };
    type Funnel = Awaited<ReturnType<typeof funnelOf>>;
    const valuesOf = (
      s: Record<string, number> | undefined,
      b: Banding | undefined,
      key: string,
      f: Funnel = starting,
    ) => {
      const of = (t: MeasureId): number | null => {
        const c = MEASURES[t].combine;
        if ('funnel' in c || 'funnelDays' in c) {
          if (!f || f.hidden.has(key)) return null;
          const n: FunnelCounts | undefined = f.rows.get(key);
          const count = 'funnel' in c ? c.funnel : c.funnelDays;
          const held = f.levels.get(key);
          const level = levelOf(count);
          if (held && ((level !== 'starters' && held.has(level)) || ('funnelDays' in c && held.has('median'))))
            return null;
          return 'funnel' in c ? (n?.[c.funnel] ?? 0) : (n?.[`${c.funnelDays}Days`] ?? null);
        }
        if ('people' in c) return c.people === 'active' ? (s?.active ?? 0) : membersOfKey(key);
        if ('intensity' in c) {
          if (c.intensity === 'active' || c.intensity === 'credits') return b?.[c.intensity] ?? 0;
          if (!b?.shown) return null;
          return c.intensity === 'none' ? membersOfKey(key) - b.active : b[c.intensity];
        }
        return 'sum' in c ? (s?.[c.sum] ?? 0) : 0;
      };
      return Object.fromEntries(q.measures.map((m) => [m, valueOf(m, of)])) as Values<M>;
    };
    const none = new Array<number>(daysBetween(q.range.start, q.range.end) + 1).fill(0);
    let rows: FigureRow<M>[] = keys.map((key) => {
      const current = valuesOf(cur.get(key), intensity?.cur.get(key), key);
      const previous = before ? valuesOf(before.get(key), intensity?.before?.get(key), key, started) : null;
      return {
        key,
        current,
        previous,
        change: previous
          ? (Object.fromEntries(q.measures.map((m) => [m, changeOf(current[m], previous[m])])) as Values<M>)
          : null,
        ...(line && { line: line.get(key) ?? none }),
      };
    });
    if (q.by === 'person') rows = namedAndOrdered(rows, q);
    return {
      range: q.range,
      previous: prev,
      rows,
      ...(intensity && { intensity: { thresholds: intensity.thresholds, minActive: intensity.minActive } }),
      ...(funnelled && { funnel: { graceDays, minStarters: q.scope.privacy?.minGroup ?? 1 } }),
    };
  }

  /**
   * People by the name the reader sees (a pseudonym in privacy mode), ordered by the first measure (largest first),
   * ties by that name: an order by the real id would pair pseudonyms with people.
   */
  function namedAndOrdered<M extends MeasureId>(rows: FigureRow<M>[], q: FigureQuestion<M>): FigureRow<M>[] {
    const name = q.scope.privacy?.name;
    const first = q.measures[0]!;
    const named = name ? rows.map((r) => ({ ...r, key: name(r.key) })) : rows;
    named.sort(
      (x, y) => (y.current[first] ?? 0) - (x.current[first] ?? 0) || (x.key < y.key ? -1 : x.key > y.key ? 1 : 0),
    );
    return q.top !== undefined ? named.slice(0, q.top) : named;
  }

  return {
    ask,
    /** Intensity's thresholds of each quarter: kept, else computed and kept (lib/intensity.ts). */
    thresholdsOf: intensity.thresholdsOf,
    /** A quarter's thresholds computed again and kept in place of those kept (`by`: who refreshed them). */
    refreshThresholds: intensity.refreshThresholds,
    /** Each team's members with its sub-teams', Unassigned's, as the tree counts them. */
    memberCounts,
    /** Privacy mode: the teams shown for k. */
    shown,
  };
}

export type FiguresRunner = ReturnType<typeof createFigures>;

/**
 * The seven days to the latest day and the seven before: what the highlights, the alerts and the digest compare
 * week over week (one definition, asked of the runner with `compare: before`).
 */
export function weekTo(latest: Day): { week: DayRange; before: DayRange } {
  return {
    week: { start: addDays(latest, -6), end: latest },
    before: { start: addDays(latest, -13), end: addDays(latest, -7) },
  };
}
