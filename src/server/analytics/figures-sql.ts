/**
 * The figures runner's SQL, written from the measures' declarations (lib/measures.ts): which week and day tables each
 * measure's sums are read from, each person's facts over a range, and a group's sums and daily line over them. Pure:
 * the runner (analytics/figures.ts) decides the scope, the groups and privacy, and runs what is written here.
 */
import type { DuckDBType, DuckDBValue } from '@duckdb/node-api';
import { MEASURES, termsOf, type MeasureId, type MeasureSource } from '../../lib/measures';
import { LEVEL_SOURCE, LEVEL_SUMS, WEEK_OF_DAY } from './schema';
import { spendRows } from './spend';

export type Grouping = 'total' | 'team' | 'day' | 'week' | 'person';

/** The sums each source gives per person and its SQL over its week and day tables. */
const SOURCES = {
  users: { week: 'person_week', day: 'person_day' },
  tokens: { week: 'person_credits_week', day: 'person_credits_day' },
  // `/users` columns summed by the day's primary mode (schema.ts LEVEL_SUMS): not a `/users` row of their own.
  levels: LEVEL_SOURCE,
} as const;

type Source = keyof typeof SOURCES | 'spend';

/** Where a summed measure's column is read: a `/users` column by mode is the levels'. */
const sourceOf = (c: { sum: string; source: MeasureSource }): Source =>
  c.source === 'users' && c.sum in LEVEL_SUMS ? 'levels' : c.source;

export type Needs = ReturnType<typeof needs>;

/** The summed columns of the measures asked, by source, and whether people are counted. */
export function needs(measures: readonly MeasureId[]) {
  const terms = new Set(measures.flatMap(termsOf));
  const sums = new Map<Source, string[]>();
  let active = false;
  let members = false;
  let intensity = false;
  for (const t of terms) {
    const c = MEASURES[t].combine;
    if ('sum' in c) sums.set(sourceOf(c), [...(sums.get(sourceOf(c)) ?? []), c.sum]);
    else if ('people' in c) {
      if (c.people === 'active') active = true;
      else members = true;
    } else if ('intensity' in c) {
      intensity = true;
      // None is the members not active in the four weeks.
      if (c.intensity === 'none') members = true;
    }
  }
  // Active people are the people with a `/users` day: that source is read for them (and for members alone, whose
  // question has no facts of its own to read).
  if ((active || (sums.size === 0 && !intensity)) && !sums.has('users')) sums.set('users', []);
  return { terms: [...terms], sums, active, members, intensity };
}

/** Each summed column's name in the facts: its source's, then its own. */
const columnsOf = (sums: Needs['sums']) => [...sums].flatMap(([source, cols]) => cols.map((c) => `${source}_${c}`));

/**
 * The first `top` people by the first measure (a sum, or active people), every one tied with the last of them too:
 * they are ordered by the name the reader sees afterwards.
 */
function topOf(first: MeasureId, top: number | undefined): string {
  if (top === undefined) return '';
  const c = MEASURES[first].combine;
  const by =
    'sum' in c ? `sum(${sourceOf(c)}_${c.sum})` : 'people' in c && c.people === 'active' ? 'max(u::INTEGER)' : null;
  return by ? ` QUALIFY rank() OVER (ORDER BY ${by} DESC) <= ${Math.max(0, Math.floor(top))}` : '';
}

/** The parameters a statement names (DuckDB refuses one it does not). */
export function named(sql: string, params: Record<string, DuckDBValue>, types: Record<string, DuckDBType>) {
  const keep = (k: string) => new RegExp(`\\$${k}\\b`).test(sql);
  return [
    Object.fromEntries(Object.entries(params).filter(([k]) => keep(k))),
    Object.fromEntries(Object.entries(types).filter(([k]) => keep(k))),
  ] as const;
}

/**
 * The facts of the scope's people (`people`, a condition on `pid`) over the range, several rows per person: (`d`, the
 * day or the week's Monday, for those groupings,) `pid`, `u` (a `/users` row: the person was active) and each summed
 * column.
 */
function factsOf(sums: Needs['sums'], by: Grouping, people: string): string {
  const all = columnsOf(sums);
  const zeros = (source: Source) =>
    all.map((name) => (name.startsWith(`${source}_`) ? name.slice(source.length + 1) : '0')).join(', ');
  const dated = by === 'day' || by === 'week';
  const key = (day: string) => (by === 'week' ? `${WEEK_OF_DAY.replace('day', day)} AS d` : `${day} AS d`);
  const parts = [...sums.keys()].map((source) => {
    const u = source === 'users' ? 'true' : 'false';
    if (source === 'spend') {
      if (dated)
        return `SELECT ${key('m.day')}, m.pid, false AS u, ${all
          .map((n) => (n === 'spend_spend' ? 'm.credits * p.per_million / 1e6' : '0'))
          .join(', ')}
          FROM person_model_day m JOIN price p USING (day, model, tier) WHERE m.day BETWEEN $start AND $end`;
      return `SELECT pid, false AS u, ${all.map((n) => (n === 'spend_spend' ? 'spend' : '0')).join(', ')}
        FROM (${spendRows()})`;
    }
    const t = SOURCES[source];
    if (dated)
      return `SELECT ${key('day')}, pid, ${u} AS u, ${zeros(source)} FROM ${t.day} WHERE day BETWEEN $start AND $end`;
    return `SELECT pid, ${u} AS u, ${zeros(source)} FROM ${t.week} WHERE week BETWEEN $first AND $last
      UNION ALL SELECT pid, ${u}, ${zeros(source)} FROM ${t.day}
      WHERE day BETWEEN $start AND $end AND NOT (day BETWEEN $first AND $through)`;
  });
  const cols = ['u', ...all];
  return `SELECT * FROM (${parts
    .map((p) => `SELECT * FROM (${p}) x(${dated ? 'd, ' : ''}pid, ${cols.join(', ')})`)
    .join(' UNION ALL ')}) WHERE ${people}`;
}

/**
 * A range's sums per group: the group's `key`, its `active` people and each summed column (`<source>_<column>`). A
 * team's are summed over its own people first, then over the teams under it (each person is in one team, so its
 * active people add up too); a `person` question's first `top` people only. Parameters: `$start`, `$end`, the whole
 * weeks' (schema.ts `wholeWeeks`), the scope's and, by team, `$groups`.
 */
export function sumsSql(
  need: Needs,
  by: Grouping,
  people: string,
  person?: { first: MeasureId; top?: number },
): string {
  const facts = factsOf(need.sums, by, people);
  const summed = columnsOf(need.sums)
    .map((n) => `, sum(${n}) AS ${n}`)
    .join('');
  const active = need.active ? 'count(DISTINCT pid) FILTER (WHERE u)' : '0';
  if (by === 'team')
    return `SELECT ancestor AS key, sum(active)::INTEGER AS active${summed} FROM (
        SELECT team, ${active} AS active${summed} FROM (${facts}) JOIN member USING (pid) GROUP BY team)
      JOIN team_ancestor USING (team) WHERE list_contains($groups, ancestor) GROUP BY ancestor`;
  if (by === 'person')
    return `SELECT user_id AS key, max(u::INTEGER) AS active${summed} FROM (${facts}) JOIN person USING (pid)
      GROUP BY user_id${person ? topOf(person.first, person.top) : ''}`;
  if (by === 'total') return `SELECT '' AS key, ${active}::INTEGER AS active${summed} FROM (${facts})`;
  return `SELECT strftime(d, '%Y-%m-%d') AS key, ${active}::INTEGER AS active${summed} FROM (${facts}) GROUP BY d`;
}

/** A group's sums by measure column, from a row of `sumsSql`. */
export function sumsOfRow(need: Needs, row: Record<string, number>): Record<string, number> {
  return Object.fromEntries([...need.sums].flatMap(([src, cols]) => cols.map((c) => [c, row[`${src}_${c}`] ?? 0])));
}

/**
 * Each group's (`g`: a team with its sub-teams, or '' for the scope) days of one summed measure over the range, as
 * day offsets from `$start` (`at`) and values (`v`). Parameters: `$start`, `$end`, the scope's and, by team, `$groups`.
 */
export function lineSql(measure: MeasureId, team: boolean, people: string): string {
  const c = MEASURES[measure].combine;
  if (!('sum' in c)) throw new Error(`a line is of a summed measure, not ${measure}`);
  const keep = `day BETWEEN $start AND $end AND ${people}`;
  // Each team's own people's days first, then the teams under each group; spend is priced per day, model and tier
  // once the credits of each are summed.
  const own =
    c.source === 'spend'
      ? `SELECT g, day, sum(m.credits * p.per_million / 1e6) AS v FROM (
           SELECT ${team ? 'team' : "''"} AS g, day, model, tier, sum(credits) AS credits FROM person_model_day
           ${team ? 'JOIN member USING (pid)' : ''} WHERE ${keep} GROUP BY ALL) m
         JOIN price p USING (day, model, tier) GROUP BY g, day`
      : `SELECT ${team ? 'team' : "''"} AS g, day, sum(${c.sum}) AS v FROM ${SOURCES[sourceOf(c) as keyof typeof SOURCES].day}
         ${team ? 'JOIN member USING (pid)' : ''} WHERE ${keep} GROUP BY g, day`;
  const daily = team
    ? `SELECT ancestor AS g, day, sum(v) AS v FROM (${own}) o JOIN team_ancestor t ON t.team = o.g
       WHERE list_contains($groups, ancestor) GROUP BY ancestor, day`
    : own;
  return `SELECT g, list(date_diff('day', $start::DATE, day)::INTEGER) AS at, list(v) AS v FROM (${daily}) GROUP BY g`;
}
