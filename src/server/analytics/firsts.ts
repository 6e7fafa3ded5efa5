/**
 * Each person's first day seen, and first day with a session, a commit and a pull request, over the whole copy: made
 * once per change of the copy, not scanned again by every question that needs them (the funnel, the new starters in
 * grace). A first up to a day is the first when it falls on or before that day, so one table answers every day judged.
 */
import type { Analytics } from './engine';
import { createScratchTables } from './scratch-tables';

const kept = new WeakMap<Analytics, ReturnType<typeof createScratchTables<string>>>();

/** The name of the engine's table of firsts (`pid`, `seen`, `s`, `c`, `p`), made for the copy as it is now. */
export async function firstsOf(a: Analytics): Promise<string> {
  let tables = kept.get(a);
  if (!tables) kept.set(a, (tables = createScratchTables<string>(a, 'person_first', 1)));
  const made = tables.get('', String(a.generation()), (name) =>
    a
      .rows(
        `CREATE OR REPLACE TABLE ${name} AS
         SELECT pid, min(day) AS seen, min(day) FILTER (WHERE sessions > 0) AS s,
           min(day) FILTER (WHERE git_commits > 0) AS c, min(day) FILTER (WHERE git_prs_created > 0) AS p
         FROM person_day GROUP BY pid`,
      )
      .then(() => name),
  );
  return made.table;
}

/** A first (`column` of the firsts) as it stood on $asOf: none when it came later. */
export const firstBy = (column: string, asOf = '$asOf') => `CASE WHEN ${column} <= ${asOf} THEN ${column} END`;
