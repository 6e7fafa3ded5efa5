/**
 * The grace after access (lib/funnel.ts) outside the funnel: the new starters the users page keeps out of its lists
 * of people not using the agent (analytics/users.ts) are those the funnel counts in grace, judged on the same access
 * days (`person_access`: analytics/member-history.ts, brought up to date by the figures runner's funnel) and the same
 * days of grace.
 */
import type { DuckDBType, DuckDBValue } from '@duckdb/node-api';
import { INTEGER } from '@duckdb/node-api';
import { HISTORY_START, type Day } from '../../lib/dates';
import type { Mapping } from '../teams/mapping';
import type { Analytics } from './engine';
import { firstsOf } from './firsts';
import { createScratchTables } from './scratch-tables';
import { membershipOf } from './teams';

/** How an engine judges grace: its funnel's access days brought up to a mapping, and the days of grace. */
export interface GraceJudge {
  /** Brings `person_access` (each member's `since` and first day named) up to the mapping (funnel.ts `accessTable`). */
  access(mapping: Mapping | null): Promise<void>;
  days: number;
}

/** One judge per engine: the figures runner's (figures.ts), whose funnel keeps `person_access`. */
const judges = new WeakMap<Analytics, GraceJudge>();
export const judgeGraceWith = (a: Analytics, judge: GraceJudge) => void judges.set(a, judge);
/** The engine's judge of grace; none without a figures runner (then nobody is in grace). */
export const graceJudgeOf = (a: Analytics): GraceJudge | undefined => judges.get(a);

/** A person's access day in SQL (lib/funnel.ts): `x` their `person_access` row, `seen` their first day seen. */
export const ACCESS_DAY = (x: string, seen: string) => `coalesce(${x}.since::DATE, least(${x}.named::DATE, ${seen}))`;

/** lib/funnel.ts `inGrace` in SQL, of a DATE `access`: parameters $history, $grace_days and $grace_end (the day judged on). */
export const IN_GRACE = (access: string) => `(${access} > $history AND ${access} + $grace_days > $grace_end)`;

/**
 * The people in grace on $grace_end (`pid`): from their access day, with their first day seen up to it (a `/users`
 * day: `firsts`, analytics/firsts.ts); a person the mapping does not name has their first day seen alone.
 */
const IN_GRACE_PEOPLE = (firsts: string) => `
SELECT pid FROM (
  SELECT coalesce(x.pid, s.pid) AS pid, ${ACCESS_DAY('x', 's.seen')} AS access
  FROM person_access x FULL JOIN (SELECT pid, seen FROM ${firsts} WHERE seen <= $grace_end) s ON s.pid = x.pid)
WHERE ${IN_GRACE('access')}`;

/** The parameters of IN_GRACE_PEOPLE judged on `end` with `days` of grace. */
const graceParams = (end: Day, days: number) => ({
  params: { history: HISTORY_START, grace_days: days, grace_end: end } as Record<string, DuckDBValue>,
  types: { grace_days: INTEGER } as Record<string, DuckDBType>,
});

/**
 * The people not in grace on `end` as a condition on `pid`, from the engine's table of them (`graceOn`): what a figure
 * read without the users tables (the highlights) leaves out as they do. True without a judge.
 */
export async function notInGrace(a: Analytics, end: Day, mapping: Mapping | null) {
  const graced = await graceTablesOf(a)(end, mapping);
  return { sql: graced ? `pid NOT IN (SELECT pid FROM ${graced.table})` : 'true', params: {}, types: {} };
}

/** The people in grace on a day (a table of their `pid`) and the days of grace they were judged with. */
export interface Graced {
  table: string;
  days: number;
}

/** How many days' tables of the new starters in grace an engine keeps (the users tables' ranges, the highlights'). */
const GRACE_TABLES = 8;
const graceTables = new WeakMap<Analytics, ReturnType<typeof createGraceTables>>();
/** The engine's tables of the new starters in grace (one keeper per engine: the users tables and highlights share it). */
export function graceTablesOf(a: Analytics) {
  let t = graceTables.get(a);
  if (!t) graceTables.set(a, (t = createGraceTables(a, GRACE_TABLES)));
  return t;
}

/**
 * The tables of the new starters in grace, judged on the access days brought up to the mapping: made once per day
 * judged on, mapping, `member` written and days copied, not once per query; none without a judge (nobody in grace).
 */
function createGraceTables(a: Analytics, entries: number) {
  const membership = membershipOf(a);
  const tables = createScratchTables<unknown>(a, 'grace', entries);
  const mappingIds = new WeakMap<Mapping, number>();
  let mappings = 0;
  return async function graceOn(end: Day, mapping: Mapping | null): Promise<Graced | null> {
    const judge = graceJudgeOf(a);
    if (!judge) return null;
    await judge.access(mapping);
    if (mapping && !mappingIds.has(mapping)) mappingIds.set(mapping, ++mappings);
    const g = graceParams(end, judge.days);
    const firsts = await firstsOf(a);
    const e = tables.get(
      `${end}|${mapping ? mappingIds.get(mapping) : 0}`,
      `${judge.days}|${membership.writes()}|${a.generation()}`,
      (name) => a.rows(`CREATE OR REPLACE TABLE ${name} AS ${IN_GRACE_PEOPLE(firsts)}`, g.params, g.types),
    );
    await e.table;
    return { table: e.name, days: judge.days };
  };
}
