/**
 * The analytics copy's tables: their schema (and its version), the week tables made from the day tables as
 * days are copied, and how a stored day's JSON (its `/users` rows, its `/tokens` answer) becomes rows of them.
 * engine.ts keeps the copy up to date.
 */
import { dateValue } from '@duckdb/node-api';
import { addDays, weekStart, type Day, type DayRange } from '../../lib/dates';
import { SUMMED_FIELDS } from '../../lib/user-merge';

/** Bumped when the copy's tables change: a file of another version is rebuilt. */
export const SCHEMA_VERSION = 10;

/** The `/users` row's numbers kept per person and day: the users table's sums, and the ratio it weights. */
export const PERSON_NUMBERS = [...Object.values(SUMMED_FIELDS), 'autonomy_ratio'] as const;

// People and languages are numbered in the copy (`person`, `language`) and days are DATEs: grouping and joining by
// integers and dates instead of texts made a 90-day merge of 50,000 people 1.7 times as fast (760 → 460 ms).
export const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS meta (schema_version INTEGER)`,
  `CREATE TABLE IF NOT EXISTS loaded_day (source VARCHAR, day VARCHAR, version VARCHAR, PRIMARY KEY (source, day))`,
  `CREATE TABLE IF NOT EXISTS person (pid INTEGER PRIMARY KEY, user_id VARCHAR)`,
  `CREATE TABLE IF NOT EXISTS language (code INTEGER PRIMARY KEY, name VARCHAR)`,
  `CREATE TABLE IF NOT EXISTS person_day (day DATE, pid INTEGER, user_email VARCHAR,
     ${PERSON_NUMBERS.map((c) => `${c} DOUBLE`).join(', ')}, primary_model VARCHAR, primary_model_tier VARCHAR,
     delegation_level VARCHAR, languages INTEGER[])`,
  `CREATE TABLE IF NOT EXISTS person_credits_day (day DATE, pid INTEGER, user_email VARCHAR, credits DOUBLE)`,
  // `split`: an entry of the element's `by_model`; false for an element without one (its credits, no model).
  `CREATE TABLE IF NOT EXISTS person_model_day (day DATE, pid INTEGER, model VARCHAR, tier VARCHAR,
     credits DOUBLE, input_tokens DOUBLE, output_tokens DOUBLE, split BOOLEAN)`,
  // The organization's own `/tokens` row of the day, as the service gave it, without its `by_user` split.
  `CREATE TABLE IF NOT EXISTS org_tokens_day (day DATE, row VARCHAR)`,
  // Each person's ISO week (`week`: its Monday) of `person_day`, made again whenever a day of it is copied:
  // a range is then its whole weeks plus the days at its edges, a fifth of the rows at 90 days.
  `CREATE TABLE IF NOT EXISTS person_week (week DATE, pid INTEGER, days INTEGER, first_day DATE,
     last_day DATE, first_email VARCHAR, given_day DATE, given_email VARCHAR,
     ${PERSON_NUMBERS.filter((c) => c !== 'autonomy_ratio')
       .map((c) => `${c} DOUBLE`)
       .join(', ')}, last_given_day DATE, last_given_email VARCHAR)`,
  `CREATE TABLE IF NOT EXISTS person_week_model (week DATE, pid INTEGER, model VARCHAR, n INTEGER,
     last_day DATE, last_tier VARCHAR)`,
  // `tool_calls`: the tool calls of those days, attributed whole to the day's primary mode (the service gives no finer
  // split per person).
  `CREATE TABLE IF NOT EXISTS person_week_level (week DATE, pid INTEGER, level VARCHAR, n INTEGER, tool_calls DOUBLE)`,
  // Each language a person worked in during the week, a row each (a list per row merged ten times slower).
  `CREATE TABLE IF NOT EXISTS person_week_language (week DATE, pid INTEGER, language INTEGER)`,
  // The same of `person_credits_day`: each person's credits in the week, and their latest email given in it.
  `CREATE TABLE IF NOT EXISTS person_credits_week (week DATE, pid INTEGER, last_given_day DATE,
     last_given_email VARCHAR, credits DOUBLE)`,
  // And of `person_model_day`: each person's credits by model and tier in the week (priced where the price
  // holds all week).
  `CREATE TABLE IF NOT EXISTS person_model_week (week DATE, pid INTEGER, model VARCHAR, tier VARCHAR,
     credits DOUBLE)`,
];

/** Every table of the copy (dropped when its schema version changes). */
export const TABLES = SCHEMA.map((s) => /CREATE TABLE IF NOT EXISTS (\w+)/.exec(s)![1]!);

/** The week tables of each source: each with its day table and the SELECT making its rows from `d` (those days). */
export const WEEK_TABLES: Record<'users' | 'tokens', { tables: [string, string, string][] }> = {
  users: {
    tables: [
      [
        'person_week',
        'person_day',
        `SELECT week, pid, count(*)::INTEGER, min(day), max(day), arg_min_null(user_email, day),
       min(day) FILTER (WHERE user_email <> ''), arg_min(user_email, day) FILTER (WHERE user_email <> ''),
       ${PERSON_NUMBERS.filter((c) => c !== 'autonomy_ratio')
         .map((c) => `sum(${c})`)
         .join(', ')},
       max(day) FILTER (WHERE user_email <> ''), arg_max(user_email, day) FILTER (WHERE user_email <> '')
     FROM d GROUP BY week, pid`,
      ],
      [
        'person_week_model',
        'person_day',
        `SELECT week, pid, primary_model, count(*)::INTEGER, max(day), arg_max(primary_model_tier, day)
     FROM d GROUP BY week, pid, primary_model`,
      ],
      [
        'person_week_level',
        'person_day',
        `SELECT week, pid, delegation_level, count(*)::INTEGER, sum(tool_calls) FROM d
     GROUP BY week, pid, delegation_level`,
      ],
      [
        'person_week_language',
        'person_day',
        'SELECT DISTINCT week, pid, language FROM (SELECT week, pid, unnest(languages) AS language FROM d)',
      ],
    ],
  },
  tokens: {
    tables: [
      [
        'person_model_week',
        'person_model_day',
        'SELECT week, pid, model, tier, sum(credits) FROM d GROUP BY week, pid, model, tier',
      ],
      [
        'person_credits_week',
        'person_credits_day',
        `SELECT week, pid, max(day) FILTER (WHERE user_email <> ''),
           arg_max(user_email, day) FILTER (WHERE user_email <> ''), sum(credits) FROM d GROUP BY week, pid`,
      ],
    ],
  },
};

/**
 * The tool calls of the person-days run in some primary modes (`delegation_level`), summed as the figures runner sums
 * a `/users` column: each a column of `week` (person_week_level's rows per week and person) and of `day` (person_day).
 */
export const LEVEL_SUMS: Record<string, readonly string[]> = {
  manual_tool_calls: ['manual'],
  low_autonomy_tool_calls: ['manual', 'auto-low'],
  high_autonomy_tool_calls: ['auto-high', 'auto-medium'],
};
const levelsIn = (col: string, levels: readonly string[]) => `${col} IN (${levels.map((l) => `'${l}'`).join(', ')})`;
export const LEVEL_SOURCE = {
  week: `(SELECT week, pid, ${Object.entries(LEVEL_SUMS)
    .map(([c, l]) => `coalesce(sum(tool_calls) FILTER (WHERE ${levelsIn('level', l)}), 0) AS ${c}`)
    .join(', ')} FROM person_week_level GROUP BY week, pid)`,
  day: `(SELECT day, pid, ${Object.entries(LEVEL_SUMS)
    .map(([c, l]) => `CASE WHEN ${levelsIn('delegation_level', l)} THEN tool_calls ELSE 0 END AS ${c}`)
    .join(', ')} FROM person_day)`,
};

/** A day's ISO week in SQL, as the week tables key it (its Monday). */
export const WEEK_OF_DAY = `date_trunc('week', day)::DATE`;

/** A day as the copy's DATE columns hold it. */
export const dayValue = (day: Day) => dateValue(Date.parse(day) / 86_400_000);

/**
 * The whole weeks inside a range (their Mondays, first and last; none: first after last) and the days they
 * cover: the rest of the range is its edge days.
 */
export function wholeWeeks(r: DayRange): { first: Day; last: Day; through: Day } {
  const monday = weekStart(r.start);
  const first = monday === r.start ? monday : addDays(monday, 7);
  const last = addDays(weekStart(addDays(r.end, 1)), -7);
  return { first, last, through: addDays(last, 6) };
}

// A day comes into the copy as the store keeps it (each `/users` row, the `/tokens` answer): JSON texts that DuckDB
// parses and numbers on its own threads. Read into JavaScript values and appended, a day at 50,000 people held the
// server's thread about 0.4 s (0.08 s so), which the sync needs: a year's sync from an empty store took 466 s, then
// 327 s (305 s with the sync's own savings after it), though the copy alone takes a little longer so (200 s against
// 166 s for the year).

// A `\u` escape of half a surrogate pair with no other half (valid JSON, though no text): preceded by an even number
// of backslashes, so that it is an escape, not an escaped backslash followed by "u".
const LONE_SURROGATE =
  /(?<=(?:^|[^\\])(?:\\\\)*)(?:\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2})/g;

/**
 * JSON DuckDB parses: each half of a surrogate pair escaped alone becomes U+FFFD, as a browser shows it. DuckDB refuses
 * such JSON, and one such name would keep its whole week out of the copy; `JSON.parse` takes it.
 */
export function wellFormedJson(text: string): string {
  return text.includes('\\ud') || text.includes('\\uD') ? text.replace(LONE_SURROGATE, '\\ufffd') : text;
}

/** Gives the copy's number to each person (`ids`: a query of `id`s) it does not have yet, the next ones in id order. */
const NEW_PEOPLE = (ids: string) => `
INSERT INTO person SELECT (SELECT coalesce(max(pid), 0) FROM person) + row_number() OVER (ORDER BY x.id), x.id
FROM (SELECT DISTINCT id FROM (${ids}) WHERE id IS NOT NULL) x ANTI JOIN person p ON p.user_id = x.id`;

const shape = (fields: Record<string, unknown>) => JSON.stringify(fields).replaceAll("'", "''");

/** A batch's days (`$days`) beside their JSON texts (`$texts`): each a `/users` row of the day, or its `/tokens` answer. */
const GIVEN = 'SELECT unnest($days)::DATE AS day, unnest($texts) AS text';

/**
 * The statements that copy stored days into the copy's tables, run in order in the caller's transaction, the first
 * of each source with `$days` and `$texts` (GIVEN): a batch's statements take about as long for one day as for a
 * week at 150 people.
 */
export const DAY_STATEMENTS: Record<'users' | 'tokens', string[]> = {
  users: [
    `CREATE OR REPLACE TEMP TABLE staged AS SELECT day, from_json(text, '${shape({
      user_id: 'VARCHAR',
      user_email: 'VARCHAR',
      ...Object.fromEntries(PERSON_NUMBERS.map((c) => [c, 'DOUBLE'])),
      primary_model: 'VARCHAR',
      primary_model_tier: 'VARCHAR',
      delegation_level: 'VARCHAR',
      languages: 'VARCHAR[]',
    })}') AS r FROM (${GIVEN})`,
    NEW_PEOPLE('SELECT r.user_id AS id FROM staged'),
    `INSERT INTO language SELECT (SELECT coalesce(max(code), 0) FROM language) + row_number() OVER (ORDER BY x.name),
       x.name
     FROM (SELECT DISTINCT name FROM (SELECT unnest(r.languages) AS name FROM staged) WHERE name IS NOT NULL) x
     ANTI JOIN language l ON l.name = x.name`,
    `INSERT INTO person_day SELECT day, p.pid, r.user_email,
       ${PERSON_NUMBERS.map((c) => `coalesce(r.${c}, 0)`).join(', ')},
       coalesce(r.primary_model, ''), coalesce(r.primary_model_tier, ''), coalesce(r.delegation_level, ''),
       list_transform(list_filter(coalesce(r.languages, []), lambda x: x IS NOT NULL), lambda x: m.codes[x])
     FROM staged JOIN person p ON p.user_id = r.user_id,
       (SELECT map_from_entries(list((name, code))) AS codes FROM language) m`,
    'DROP TABLE staged',
  ],
  tokens: [
    `CREATE OR REPLACE TEMP TABLE staged AS SELECT day, unnest(from_json(text, '["JSON"]')) AS j FROM (${GIVEN})`,
    // The organization's row as the service gave it, without its split.
    `INSERT INTO org_tokens_day SELECT day, json_merge_patch(j, '{"by_user": null}')::VARCHAR FROM staged`,
    `CREATE OR REPLACE TEMP TABLE split AS SELECT day, unnest(from_json(j, '${shape({
      by_user: [
        {
          user_id: 'VARCHAR',
          user_email: 'VARCHAR',
          billable_tokens: 'DOUBLE',
          by_model: [
            {
              model_id: 'VARCHAR',
              model_tier: 'VARCHAR',
              billable_tokens: 'DOUBLE',
              input_tokens: 'DOUBLE',
              output_tokens: 'DOUBLE',
            },
          ],
        },
      ],
    })}').by_user) AS u FROM staged`,
    NEW_PEOPLE('SELECT u.user_id AS id FROM split'),
    `INSERT INTO person_credits_day SELECT day, p.pid, nullif(u.user_email, ''), coalesce(u.billable_tokens, 0)
     FROM split JOIN person p ON p.user_id = u.user_id`,
    // Each entry of the element's by_model; an element without one: its credits, no model.
    `INSERT INTO person_model_day
     SELECT day, pid, coalesce(m.model_id, ''), coalesce(m.model_tier, ''), coalesce(m.billable_tokens, 0),
       coalesce(m.input_tokens, 0), coalesce(m.output_tokens, 0), true
     FROM (SELECT day, p.pid, unnest(u.by_model) AS m FROM split JOIN person p ON p.user_id = u.user_id)
     UNION ALL
     SELECT day, p.pid, '', '', coalesce(u.billable_tokens, 0), 0, 0, false
     FROM split JOIN person p ON p.user_id = u.user_id WHERE len(coalesce(u.by_model, [])) = 0`,
    'DROP TABLE staged',
    'DROP TABLE split',
  ],
};
