/**
 * Each person's `/users` days of a range as columns (one row per person and active day, their numbers as typed
 * arrays), read from the analytics engine for the rules that walk a person's days one by one (the highlights'
 * spikes, the digest's week), and who was active in which weeks (the cohorts).
 */
import { addDays, eachDay, HISTORY_START, weekStart, type Day, type DayRange } from '../../lib/dates';
import type { Analytics } from './engine';
import { PERSON_NUMBERS } from './schema';

export type PersonNumber = (typeof PERSON_NUMBERS)[number];

export interface PersonDays {
  /** The days of the range, first to last, every one of them. */
  days: Day[];
  dayIndex: Map<Day, number>;
  /** The people with a row in the range, by index, with the range's first email when a row has one. */
  userIds: string[];
  emails: (string | null)[];
  /** The rows, by person then day: the person's index, the day's index, and each number. */
  rows: { user: Int32Array; day: Int32Array; cols: Record<PersonNumber, Float64Array> };
}

/**
 * The `/users` days of [start, end], from the copy once it holds them. The person's and the day's index come
 * from DuckDB as numbers, and each number column is converted when first read (the highlights read the credits
 * of 1.75 million rows at 50,000 people, not twenty columns of them).
 */
export async function personDays(a: Analytics, r: DayRange): Promise<PersonDays> {
  await a.catchUp(r);
  const range = { start: r.start, end: r.end };
  const [c, people] = await Promise.all([
    a.numbers(
      `SELECT (dense_rank() OVER (ORDER BY user_id) - 1)::INTEGER AS user_index,
         date_diff('day', $start::DATE, day::DATE)::INTEGER AS day_index, ${PERSON_NUMBERS.join(', ')}
       FROM person_day WHERE day BETWEEN $start AND $end ORDER BY user_id, day`,
      range,
      ['user_index', 'day_index', 'billable_tokens'],
    ),
    a.columns(
      `SELECT user_id, arg_min(user_email, day) FILTER (WHERE user_email <> '') AS email FROM person_day
       WHERE day BETWEEN $start AND $end GROUP BY user_id ORDER BY user_id`,
      range,
    ),
  ]);
  const days = eachDay(r.start, r.end);
  const cols = {} as Record<PersonNumber, Float64Array>;
  for (const k of PERSON_NUMBERS) Object.defineProperty(cols, k, { enumerable: true, get: () => c.column(k) });
  return {
    days,
    dayIndex: new Map(days.map((d, i) => [d, i])),
    userIds: people.user_id as string[],
    emails: people.email as (string | null)[],
    rows: { user: Int32Array.from(c.column('user_index')), day: Int32Array.from(c.column('day_index')), cols },
  };
}

/**
 * Each person's weeks with activity (weeks counted from `origin`), and their latest email. From a Monday, the weeks
 * are the week tables' (engine.ts), whole weeks up to `latest` read there and the rest from the days.
 */
export async function activeWeeks(a: Analytics, origin: Day, latest: Day) {
  await a.catchUp({ start: origin, end: latest });
  const monday = weekStart(origin) === origin;
  const through = monday ? addDays(weekStart(addDays(latest, 1)), -1) : addDays(origin, -1);
  const c = await a.columns(
    `SELECT user_id, arg_max(email, day) FILTER (WHERE day IS NOT NULL) AS email,
       list(DISTINCT (date_diff('day', $origin::DATE, week::DATE) // 7)::INTEGER) AS weeks
     FROM (
       SELECT user_id, week, last_given_day AS day, last_given_email AS email FROM person_week
       WHERE week >= $origin AND week <= $through
       UNION ALL
       SELECT user_id, day, CASE WHEN user_email <> '' THEN day END, user_email FROM person_day
       WHERE day <= $latest AND NOT (day BETWEEN $origin AND $through))
     GROUP BY user_id ORDER BY user_id`,
    { origin, latest, through },
  );
  return { userIds: c.user_id as string[], emails: c.email as (string | null)[], weeks: c.weeks as number[][] };
}

/** Each person's first active day in the copy, up to `latest`: the first of their weeks' first days. */
export async function firstDays(a: Analytics, latest: Day): Promise<Map<string, string>> {
  await a.catchUp({ start: HISTORY_START, end: latest });
  const c = await a.columns('SELECT user_id, min(first_day) AS first FROM person_week GROUP BY user_id');
  return new Map((c.user_id as string[]).map((id, i) => [id, (c.first as string[])[i]!]));
}
