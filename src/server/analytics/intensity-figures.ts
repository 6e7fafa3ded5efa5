/**
 * Intensity as the figures runner's measures (lib/intensity.ts): each person's credits over the four whole weeks to a
 * row's end, in a band by the thresholds of that window's quarter, kept on first need (`ThresholdKeeper`, the store's
 * table) so that later days change no one's band but their own; a group of fewer active people in those weeks than
 * `MIN_ACTIVE` (or privacy mode's k, whichever is larger) has no bands. Asked by the runner (analytics/figures.ts)
 * with its query helper, as spend.ts is.
 */
import { DOUBLE, LIST, VARCHAR, listValue, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';
import { addDays, eachDay, minDay, weeksOf, yesterdayUtc, type Day, type DayRange } from '../../lib/dates';
import { basisOf, CUTS, MIN_ACTIVE, quarterOf, sundayBy, type Band, type Thresholds } from '../../lib/intensity';
import type { MeasureId } from '../../lib/measures';
import { memoryThresholds } from '../store/intensity-queries';
import type { Analytics } from './engine';
import type { FigureQuestion, FiguresOptions } from './figures';
import { scopeWhere } from './teams';

/** A group's people over one window of four weeks: active ones, their credits, and how many are in each band. */
export type Banded = { active: number; credits: number } & Record<Exclude<Band, 'none'>, number>;

export function createIntensityFigures(
  a: Analytics,
  opts: FiguresOptions & {
    /** The runner's query: one with the parameters it names of those given. */
    query: <T extends Record<string, unknown>>(
      sql: string,
      params?: Record<string, DuckDBValue>,
      types?: Record<string, DuckDBType>,
    ) => Promise<T[]>;
  },
) {
  const { query } = opts;
  const peopleOf = scopeWhere;
  const keeper = opts.thresholds ?? memoryThresholds();
  const latestDay = opts.latestDay ?? (() => yesterdayUtc());
  /** The quarters whose first thresholds are being computed: readers asking at once wait for one computation. */
  const computing = new Map<string, Promise<Thresholds | null>>();

  /** A quarter's thresholds from its basis weeks (lib/intensity.ts `basisOf`); none over fewer than MIN_ACTIVE people. */
  async function computeThresholds(quarter: string): Promise<Omit<Thresholds, 'refreshed'> | null> {
    const basis = basisOf(quarter, latestDay());
    await opts.fill?.(basis);
    await a.catchUp(basis);
    const cut = (p: keyof typeof CUTS) => `quantile_cont(c, ${CUTS[p]}) AS ${p}`;
    const [row] = await query<{ n: number; p25: number; p50: number; p75: number }>(
      `SELECT count(*)::INTEGER AS n, ${cut('p25')}, ${cut('p50')}, ${cut('p75')} FROM (
         SELECT pid, sum(billable_tokens) AS c FROM person_week WHERE week BETWEEN $first AND $last GROUP BY pid)`,
      { first: basis.start, last: addDays(basis.end, -6) },
    );
    if (!row || row.n < MIN_ACTIVE) return null;
    const { n: people, p25, p50, p75 } = row;
    return { quarter, p25, p50, p75, people, basis, computedAt: new Date().toISOString() };
  }

  /** Each quarter's thresholds: those kept, else computed now and kept (none over too few active people). */
  async function thresholdsOf(quarters: readonly string[]): Promise<Map<string, Thresholds>> {
    const kept = new Map((await keeper.read(quarters)).map((t) => [t.quarter, t]));
    await Promise.all(
      quarters
        .filter((quarter) => !kept.has(quarter))
        .map(async (quarter) => {
          let first = computing.get(quarter);
          if (!first) {
            first = computeThresholds(quarter)
              .then((t) => (t ? keeper.keep(t) : null))
              .finally(() => computing.delete(quarter));
            computing.set(quarter, first);
          }
          const t = await first;
          if (t) kept.set(quarter, t);
        }),
    );
    return kept;
  }

  /** Each row's key beside the day its band is of: the range's end, each day's, or each week's (the range's end last). */
  function asOfs(q: FigureQuestion<MeasureId>, r: DayRange, groups: readonly string[] | null): [string, Day][] {
    if (q.by === 'team') return (groups ?? []).map((g) => [g, r.end]);
    if (q.by === 'day') return eachDay(r.start, r.end).map((d) => [d, d]);
    if (q.by === 'week') return weeksOf(r).map((w) => [w, minDay(addDays(w, 6), r.end)]);
    return [['', r.end]];
  }

  /**
   * Each window's (its last Sunday's) active people, their credits and band counts, per group (each group of the
   * question, or '' for the scope's people), against the thresholds of the window's quarter: `end|group` → counts.
   */
  async function banded(
    q: FigureQuestion<MeasureId>,
    ends: readonly Day[],
    limits: readonly (Thresholds | undefined)[],
    groups: readonly string[] | null,
  ): Promise<Map<string, Banded>> {
    if (ends.length === 0) return new Map();
    const people = peopleOf(q.scope);
    const team = q.by === 'team';
    // A window without thresholds has its people counted, not banded (its bands are none).
    const p = (k: 'p25' | 'p50' | 'p75') => listValue(limits.map((t) => t?.[k] ?? 0));
    const sorted = [...ends].sort();
    // Each week of a person's use is in the four windows ending 6, 13, 20 and 27 days after its Monday.
    const own = `
      WITH w AS (SELECT unnest($ends)::DATE AS s, unnest($p25) AS p25, unnest($p50) AS p50, unnest($p75) AS p75),
      used AS (
        SELECT s, pid, sum(billable_tokens) AS c FROM (
          SELECT week + (6 + 7 * k)::INTEGER AS s, pid, billable_tokens FROM person_week, range(4) r(k)
          WHERE week BETWEEN $lo AND $hi AND ${people.where})
        WHERE s IN (SELECT s FROM w) GROUP BY s, pid)
      SELECT s, ${team ? 'team' : "''"} AS g, count(*)::INTEGER AS active, sum(c) AS credits,
        count(*) FILTER (WHERE c >= p75)::INTEGER AS heavy,
        count(*) FILTER (WHERE c >= p50 AND c < p75)::INTEGER AS moderate,
        count(*) FILTER (WHERE c >= p25 AND c < p50)::INTEGER AS light,
        count(*) FILTER (WHERE c < p25)::INTEGER AS minimal
      FROM used JOIN w USING (s) ${team ? 'JOIN member USING (pid)' : ''} GROUP BY ALL`;
    const counts = ['active', 'heavy', 'moderate', 'light', 'minimal'];
    const sql = team
      ? `SELECT s, ancestor AS g, sum(credits) AS credits, ${counts.map((c) => `sum(${c})::INTEGER AS ${c}`).join(', ')}
         FROM (${own}) o JOIN team_ancestor t ON t.team = o.g WHERE list_contains($groups, ancestor) GROUP BY s, ancestor`
      : own;
    const rows = await query<{ s: string; g: string } & Banded>(
      `SELECT strftime(s, '%Y-%m-%d') AS s, * EXCLUDE (s) FROM (${sql})`,
      {
        ends: listValue([...ends]),
        p25: p('p25'),
        p50: p('p50'),
        p75: p('p75'),
        lo: addDays(sorted[0]!, -27),
        hi: addDays(sorted.at(-1)!, -6),
        ...people.params,
        ...(groups && { groups: listValue([...groups]) }),
      },
      {
        ends: LIST(VARCHAR),
        p25: LIST(DOUBLE),
        p50: LIST(DOUBLE),
        p75: LIST(DOUBLE),
        ...people.types,
        ...(groups && { groups: LIST(VARCHAR) }),
      },
    );
    return new Map(
      rows.map((r) => [
        `${r.s}|${r.g}`,
        {
          active: r.active,
          credits: r.credits ?? 0,
          heavy: r.heavy,
          moderate: r.moderate,
          light: r.light,
          minimal: r.minimal,
        },
      ]),
    );
  }

  /**
   * Each row's intensity over the range and the period before: its window's counts, and whether its bands are shown
   * (its quarter has thresholds the reader may see, and the group enough active people; one person always).
   */
  async function intensityOf(q: FigureQuestion<MeasureId>, prev: DayRange | null, groups: readonly string[] | null) {
    const periods = [q.range, ...(prev ? [prev] : [])].map((r) =>
      asOfs(q, r, groups).map(([key, asOf]) => ({ key, end: sundayBy(asOf), group: q.by === 'team' ? key : '' })),
    );
    const ends = [...new Set(periods.flat().map((x) => x.end))].sort();
    const known = await thresholdsOf([...new Set(ends.map(quarterOf))]);
    const k = q.scope.privacy?.minGroup ?? 0;
    // Thresholds over fewer people than privacy mode's k would tell those people's credits: none then.
    const limitOf = (end: Day) => {
      const t = known.get(quarterOf(end));
      return t && t.people >= k ? t : undefined;
    };
    const counts = await banded(q, ends, ends.map(limitOf), groups);
    const one = q.scope.people !== null && 'user' in q.scope.people;
    const minActive = Math.max(MIN_ACTIVE, k);
    const zero: Banded = { active: 0, credits: 0, heavy: 0, moderate: 0, light: 0, minimal: 0 };
    const [cur, before] = periods.map(
      (rows) =>
        new Map(
          rows.map(({ key, end, group }) => {
            const c = counts.get(`${end}|${group}`) ?? zero;
            return [key, { ...c, shown: limitOf(end) !== undefined && (one || c.active >= minActive) }] as const;
          }),
        ),
    );
    const used = [...new Set(ends.map(limitOf).filter((t) => t !== undefined))];
    return { cur: cur!, before, minActive, thresholds: used.sort((x, y) => (x.quarter < y.quarter ? -1 : 1)) };
  }

  return {
    intensityOf,
    thresholdsOf,
    /**
     * A quarter's thresholds computed again from the four weeks to the latest day (its last four, for a quarter past)
     * and kept in place of those kept (`by`: who refreshed them); none over fewer than MIN_ACTIVE active people.
     */
    async refreshThresholds(quarter: string, by: string): Promise<Thresholds | null> {
      const t = await computeThresholds(quarter);
      return t && keeper.keep(t, by);
    },
  };
}
