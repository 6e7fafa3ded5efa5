/**
 * The analytics copy's tables: their schema (and its version), the week tables made from the day tables as
 * days are copied, and how a `/tokens` day body becomes rows of them. engine.ts keeps the copy up to date.
 */
import { BOOLEAN, DOUBLE, VARCHAR, type DuckDBValue } from '@duckdb/node-api';
import { addDays, weekStart, type Day, type DayRange } from '../../lib/dates';
import { NUMERIC_FACTS, TEXT_FACTS } from '../store/users-queries';

/** Bumped when the copy's tables change: a file of another version is rebuilt. */
export const SCHEMA_VERSION = 7;

/** The `/users` row's numbers and picks kept per person and day: the store's fact columns (migration 0002). */
export const PERSON_NUMBERS = NUMERIC_FACTS;
export const PERSON_TEXTS = TEXT_FACTS;

export const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS meta (schema_version INTEGER)`,
  `CREATE TABLE IF NOT EXISTS loaded_day (source VARCHAR, day VARCHAR, version VARCHAR, PRIMARY KEY (source, day))`,
  `CREATE TABLE IF NOT EXISTS person_day (day VARCHAR, user_id VARCHAR, user_email VARCHAR,
     ${PERSON_NUMBERS.map((c) => `${c} DOUBLE`).join(', ')}, ${PERSON_TEXTS.map((c) => `${c} VARCHAR`).join(', ')})`,
  `CREATE TABLE IF NOT EXISTS person_credits_day (day VARCHAR, user_id VARCHAR, user_email VARCHAR, credits DOUBLE)`,
  // `split`: an entry of the element's `by_model`; false for an element without one (its credits, no model).
  `CREATE TABLE IF NOT EXISTS person_model_day (day VARCHAR, user_id VARCHAR, model VARCHAR, tier VARCHAR,
     credits DOUBLE, input_tokens DOUBLE, output_tokens DOUBLE, split BOOLEAN)`,
  // The organization's own `/tokens` row of the day, as the service gave it, without its `by_user` split.
  `CREATE TABLE IF NOT EXISTS org_tokens_day (day VARCHAR, row VARCHAR)`,
  // Each person's ISO week (`week`: its Monday) of `person_day`, made again whenever a day of it is copied:
  // a range is then its whole weeks plus the days at its edges, a fifth of the rows at 90 days.
  `CREATE TABLE IF NOT EXISTS person_week (week VARCHAR, user_id VARCHAR, days INTEGER, first_day VARCHAR,
     last_day VARCHAR, first_email VARCHAR, given_day VARCHAR, given_email VARCHAR,
     ${PERSON_NUMBERS.filter((c) => c !== 'autonomy_ratio')
       .map((c) => `${c} DOUBLE`)
       .join(', ')}, language_lists VARCHAR[], last_given_day VARCHAR, last_given_email VARCHAR)`,
  `CREATE TABLE IF NOT EXISTS person_week_model (week VARCHAR, user_id VARCHAR, model VARCHAR, n INTEGER,
     last_day VARCHAR, last_tier VARCHAR)`,
  `CREATE TABLE IF NOT EXISTS person_week_level (week VARCHAR, user_id VARCHAR, level VARCHAR, n INTEGER)`,
  // The same of `person_credits_day`: each person's credits in the week, and their latest email given in it.
  `CREATE TABLE IF NOT EXISTS person_credits_week (week VARCHAR, user_id VARCHAR, last_given_day VARCHAR,
     last_given_email VARCHAR, credits DOUBLE)`,
  // And of `person_model_day`: each person's credits by model and tier in the week (priced where the price
  // holds all week).
  `CREATE TABLE IF NOT EXISTS person_model_week (week VARCHAR, user_id VARCHAR, model VARCHAR, tier VARCHAR,
     credits DOUBLE)`,
];

/** The week tables of each source: each with its day table and the SELECT making its rows from `d` (those days). */
export const WEEK_TABLES: Record<'users' | 'tokens', { tables: [string, string, string][] }> = {
  users: {
    tables: [
      [
        'person_week',
        'person_day',
        `SELECT week, user_id, count(*)::INTEGER, min(day), max(day), arg_min_null(user_email, day),
       min(day) FILTER (WHERE user_email <> ''), arg_min(user_email, day) FILTER (WHERE user_email <> ''),
       ${PERSON_NUMBERS.filter((c) => c !== 'autonomy_ratio')
         .map((c) => `sum(${c})`)
         .join(', ')}, list(DISTINCT languages),
       max(day) FILTER (WHERE user_email <> ''), arg_max(user_email, day) FILTER (WHERE user_email <> '')
     FROM d GROUP BY week, user_id`,
      ],
      [
        'person_week_model',
        'person_day',
        `SELECT week, user_id, primary_model, count(*)::INTEGER, max(day), arg_max(primary_model_tier, day)
     FROM d GROUP BY week, user_id, primary_model`,
      ],
      [
        'person_week_level',
        'person_day',
        `SELECT week, user_id, delegation_level, count(*)::INTEGER FROM d GROUP BY week, user_id, delegation_level`,
      ],
    ],
  },
  tokens: {
    tables: [
      [
        'person_model_week',
        'person_model_day',
        'SELECT week, user_id, model, tier, sum(credits) FROM d GROUP BY week, user_id, model, tier',
      ],
      [
        'person_credits_week',
        'person_credits_day',
        `SELECT week, user_id, max(day) FILTER (WHERE user_email <> ''),
           arg_max(user_email, day) FILTER (WHERE user_email <> ''), sum(credits) FROM d GROUP BY week, user_id`,
      ],
    ],
  },
};

/** A day's ISO week in SQL, as the week tables key it (the Monday, YYYY-MM-DD). */
export const WEEK_OF_DAY = `strftime(date_trunc('week', day::DATE), '%Y-%m-%d')`;

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

export const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const text = (v: unknown) => (typeof v === 'string' ? v : null);

export const PERSON_DAY_TYPES = [
  VARCHAR,
  VARCHAR,
  VARCHAR,
  ...PERSON_NUMBERS.map(() => DOUBLE),
  ...PERSON_TEXTS.map(() => VARCHAR),
];
export const CREDITS_TYPES = [VARCHAR, VARCHAR, VARCHAR, DOUBLE];
export const MODEL_TYPES = [VARCHAR, VARCHAR, VARCHAR, VARCHAR, DOUBLE, DOUBLE, DOUBLE, BOOLEAN];
export const ORG_TYPES = [VARCHAR, VARCHAR];

/** A `/tokens` day row's `by_user` element, and its `by_model` entries, as the service sends them. */
export interface ByUserElement {
  user_id?: unknown;
  user_email?: unknown;
  billable_tokens?: unknown;
  by_model?: unknown;
}
export interface ModelElement {
  model_id?: unknown;
  model_tier?: unknown;
  billable_tokens?: unknown;
  input_tokens?: unknown;
  output_tokens?: unknown;
}

/**
 * A `/tokens` day body's split per person: their credits, and their credits by model (an element without
 * a split is one entry of no model, priced at the day's default).
 */
export function tokensDayRows(
  day: Day,
  body: string,
): { credits: DuckDBValue[][]; models: DuckDBValue[][]; org: DuckDBValue[][] } {
  const credits: DuckDBValue[][] = [];
  const models: DuckDBValue[][] = [];
  const org: DuckDBValue[][] = [];
  for (const row of JSON.parse(body) as { by_user?: unknown }[]) {
    const whole: Record<string, unknown> = { ...row };
    delete whole.by_user;
    org.push([day, JSON.stringify(whole)]);
    if (!Array.isArray(row.by_user)) continue;
    for (const el of row.by_user as ByUserElement[]) {
      if (typeof el.user_id !== 'string') continue;
      const billable = num(el.billable_tokens);
      credits.push([day, el.user_id, text(el.user_email) || null, billable]);
      const split = Array.isArray(el.by_model) ? (el.by_model as ModelElement[]) : [];
      if (split.length === 0) models.push([day, el.user_id, '', '', billable, 0, 0, false]);
      for (const m of split)
        models.push([
          day,
          el.user_id,
          String(m.model_id ?? ''),
          String(m.model_tier ?? ''),
          num(m.billable_tokens),
          num(m.input_tokens),
          num(m.output_tokens),
          true,
        ]);
    }
  }
  return { credits, models, org };
}
