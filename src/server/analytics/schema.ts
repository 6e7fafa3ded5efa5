/**
 * The analytics copy's tables: their schema (and its version), the week tables made from the day tables as
 * days are copied, and how a `/tokens` day body becomes rows of them. engine.ts keeps the copy up to date.
 */
import {
  BOOLEAN,
  DATE,
  DOUBLE,
  INTEGER,
  LIST,
  VARCHAR,
  dateValue,
  listValue,
  type DuckDBValue,
} from '@duckdb/node-api';
import { addDays, weekStart, type Day, type DayRange } from '../../lib/dates';
import { NUMERIC_FACTS, TEXT_FACTS } from '../store/users-queries';

/** Bumped when the copy's tables change: a file of another version is rebuilt. */
export const SCHEMA_VERSION = 8;

/** The `/users` row's numbers and picks kept per person and day: the store's fact columns (migration 0002). */
export const PERSON_NUMBERS = NUMERIC_FACTS;
export const PERSON_TEXTS = TEXT_FACTS;

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
  `CREATE TABLE IF NOT EXISTS person_week_level (week DATE, pid INTEGER, level VARCHAR, n INTEGER)`,
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
        `SELECT week, pid, delegation_level, count(*)::INTEGER FROM d GROUP BY week, pid, delegation_level`,
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

export const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const text = (v: unknown) => (typeof v === 'string' ? v : null);

export const PERSON_DAY_TYPES = [
  DATE,
  INTEGER,
  VARCHAR,
  ...PERSON_NUMBERS.map(() => DOUBLE),
  VARCHAR,
  VARCHAR,
  VARCHAR,
  LIST(INTEGER),
];
export const CREDITS_TYPES = [DATE, INTEGER, VARCHAR, DOUBLE];
export const MODEL_TYPES = [DATE, INTEGER, VARCHAR, VARCHAR, DOUBLE, DOUBLE, DOUBLE, BOOLEAN];
export const ORG_TYPES = [DATE, VARCHAR];

/** Numbers people and languages for the copy: the same one for the same id or name, a new one for a new one. */
export type Numbering = (key: string) => number;

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
 * A `/tokens` day body's split per person (numbered by `pid`): their credits, and their credits by model (an
 * element without a split is one entry of no model, priced at the day's default).
 */
export function tokensDayRows(
  day: Day,
  body: string,
  pid: Numbering,
): { credits: DuckDBValue[][]; models: DuckDBValue[][]; org: DuckDBValue[][] } {
  const date = dayValue(day);
  const credits: DuckDBValue[][] = [];
  const models: DuckDBValue[][] = [];
  const org: DuckDBValue[][] = [];
  for (const row of JSON.parse(body) as { by_user?: unknown }[]) {
    const whole: Record<string, unknown> = { ...row };
    delete whole.by_user;
    org.push([date, JSON.stringify(whole)]);
    if (!Array.isArray(row.by_user)) continue;
    for (const el of row.by_user as ByUserElement[]) {
      if (typeof el.user_id !== 'string') continue;
      const billable = num(el.billable_tokens);
      const person = pid(el.user_id);
      credits.push([date, person, text(el.user_email) || null, billable]);
      const split = Array.isArray(el.by_model) ? (el.by_model as ModelElement[]) : [];
      if (split.length === 0) models.push([date, person, '', '', billable, 0, 0, false]);
      for (const m of split)
        models.push([
          date,
          person,
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

/** A `/users` day row's languages (a JSON array, as the store keeps them) numbered for `person_day`. */
export const languageCodes = (json: string | null, code: Numbering) =>
  listValue((JSON.parse(json ?? '[]') as unknown[]).flatMap((l) => (typeof l === 'string' ? [code(l)] : [])));
