/**
 * The users table's figures from the analytics engine: each person's merge over a range (the merge rules of a
 * person's days, written once, here, in SQL) and their spend at the price list in force. They agree with the
 * browser's merge of the same `/users` rows (src/lib/user-merge.ts) to the last field: the sums, the ratio
 * weighted by user messages, the email of the first day (else the first one given later), the model and
 * delegation level of most days (ties: the first by name) with the model's tier on its latest day, every
 * language.
 */
import { HISTORY_START, weekStart, type DayRange } from '../../lib/dates';
import { SUMMED_FIELDS, type MergedSums, type MergedUser } from '../../lib/user-merge';
import type { PriceList } from '../spend/prices';
import type { Analytics } from './engine';
import { WEEK_OF_DAY, wholeWeeks } from './schema';
import { priceTableOf } from './spend';

const SUMS = Object.entries(SUMMED_FIELDS) as [keyof MergedSums, string][];

// A range is its whole weeks, from the week tables (engine.ts), and its edge days, from `person_day`, each as
// rows of one shape: the merge of the weeks' partial merges is the merge of their days. Each part reads them
// where they are (NOT MATERIALIZED): a copy of them all first took longer than the merge.
const MERGE = `
WITH edge AS NOT MATERIALIZED (
  SELECT * FROM person_day WHERE day BETWEEN $start AND $end AND NOT (day BETWEEN $first AND $through)),
r AS NOT MATERIALIZED (
  SELECT user_id, days, first_day, last_day, first_email, given_day, given_email,
    ${SUMS.map(([, c]) => c).join(', ')}, language_lists
  FROM person_week WHERE week BETWEEN $first AND $last
  UNION ALL
  SELECT user_id, 1, day, day, user_email, CASE WHEN user_email <> '' THEN day END,
    CASE WHEN user_email <> '' THEN user_email END, ${SUMS.map(([, c]) => c).join(', ')}, [languages]
  FROM edge),
top_model AS (
  SELECT user_id, model, tier FROM (
    SELECT user_id, model, sum(n) AS n, arg_max(last_tier, last_day) AS tier FROM (
      SELECT user_id, model, n, last_day, last_tier FROM person_week_model WHERE week BETWEEN $first AND $last
      UNION ALL SELECT user_id, primary_model, 1, day, primary_model_tier FROM edge)
    GROUP BY user_id, model)
  QUALIFY row_number() OVER (PARTITION BY user_id ORDER BY n DESC, model) = 1),
top_level AS (
  SELECT user_id, level FROM (
    SELECT user_id, level, sum(n) AS n FROM (
      SELECT user_id, level, n FROM person_week_level WHERE week BETWEEN $first AND $last
      UNION ALL SELECT user_id, delegation_level, 1 FROM edge)
    GROUP BY user_id, level)
  QUALIFY row_number() OVER (PARTITION BY user_id ORDER BY n DESC, level) = 1),
people AS (
  SELECT user_id,
    coalesce(arg_min_null(first_email, first_day), arg_min(given_email, given_day) FILTER (WHERE given_day IS NOT NULL)) AS email,
    sum(days)::INTEGER AS active_days, min(first_day) AS first_day, max(last_day) AS last_day,
    ${SUMS.map(([k, c]) => `sum(${c}) AS "${k}"`).join(', ')},
    -- Tool calls per user turn over the range: Σ tool calls ÷ Σ user messages (src/lib/definitions.ts).
    coalesce(sum(tool_calls) / nullif(sum(user_messages), 0), 0) AS autonomy_ratio,
    -- Every language once, as one JSON text: many people share the same few, and a text converts to JavaScript
    -- far faster than a list of lists (2.7 s for 47,000 people's 13 weeks).
    to_json(list_sort(list_distinct(flatten(list_transform(list_distinct(flatten(list(language_lists))),
      l -> from_json(l, '["VARCHAR"]'))))))::VARCHAR AS languages
  FROM r GROUP BY user_id)
SELECT p.*, t.model, t.tier, l.level
FROM people p JOIN top_model t USING (user_id) JOIN top_level l USING (user_id)`;

const byCodeUnits = (a: MergedUser, b: MergedUser) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);

/** One row per person active in the range, in user id order (the order ties keep when the table is sorted). */
export async function mergedUsers(a: Analytics, r: DayRange): Promise<MergedUser[]> {
  await a.catchUp(r);
  const w = wholeWeeks(r);
  const c = await a.columns(MERGE, { start: r.start, end: r.end, first: w.first, last: w.last, through: w.through });
  const col = <T>(name: string) => c[name] as T[];
  const parsed = new Map<string, string[]>();
  // Sorted again here: the browser's merge sorts by UTF-16 code units, DuckDB by bytes.
  const languagesOf = (json: string) => {
    let langs = parsed.get(json);
    if (!langs) parsed.set(json, (langs = (JSON.parse(json) as string[]).sort()));
    return [...langs];
  };
  const [ids, emails, activeDays, firstDays, lastDays, ratios, lists, models, tiers, levels] = [
    col<string>('user_id'),
    col<string | null>('email'),
    col<number>('active_days'),
    col<string>('first_day'),
    col<string>('last_day'),
    col<number>('autonomy_ratio'),
    col<string>('languages'),
    col<string>('model'),
    col<string>('tier'),
    col<string>('level'),
  ];
  const sums = SUMS.map(([k]) => [k, col<number | null>(k)] as const);
  const users = ids.map((userId, i): MergedUser => {
    const u = {
      userId,
      email: emails[i]!,
      activeDays: activeDays[i]!,
      firstDay: firstDays[i]!,
      lastDay: lastDays[i]!,
    } as MergedUser;
    for (const [k, values] of sums) u[k] = Number(values[i] ?? 0);
    u.autonomyRatio = ratios[i]!;
    u.primaryModel = models[i]!;
    u.primaryModelTier = tiers[i]!;
    u.delegationLevel = levels[i]!;
    u.languages = languagesOf(lists[i]!);
    return u;
  });
  return users.sort(byCodeUnits);
}

// Everyone known by the range's end (a `/users` day or a `/tokens` split on or before it), with their latest day of
// activity up to it and their latest email given: the weeks before the end's week, then its days.
const KNOWN = `
SELECT user_id, max(d) AS last_active, arg_max(ge, gd) FILTER (WHERE gd IS NOT NULL) AS email FROM (
  SELECT user_id, last_day AS d, last_given_day AS gd, last_given_email AS ge FROM person_week WHERE week < $week
  UNION ALL SELECT user_id, NULL, last_given_day, last_given_email FROM person_credits_week WHERE week < $week
  UNION ALL SELECT user_id, day, CASE WHEN user_email <> '' THEN day END, nullif(user_email, '')
    FROM person_day WHERE day BETWEEN $week AND $end
  UNION ALL SELECT user_id, NULL, CASE WHEN user_email <> '' THEN day END, nullif(user_email, '')
    FROM person_credits_day WHERE day BETWEEN $week AND $end)
GROUP BY user_id`;

const ZERO_SUMS = Object.fromEntries(SUMS.map(([k]) => [k, 0])) as MergedSums;

/** A person known by a range's end: their latest email given and latest day of activity up to it (none: credits only). */
export interface KnownPerson {
  userId: string;
  email: string | null;
  lastActive: string | null;
}

/** Everyone known by the range's end (a `/users` day or a `/tokens` split on or before it). */
export async function knownBy(a: Analytics, r: DayRange): Promise<KnownPerson[]> {
  // Every stored day up to the range's end is in the copy.
  await a.catchUp({ start: HISTORY_START, end: r.end });
  const rows = await a.rows<{ user_id: string; last_active: string | null; email: string | null }>(KNOWN, {
    week: weekStart(r.end),
    end: r.end,
  });
  return rows.map((k) => ({ userId: k.user_id, email: k.email, lastActive: k.last_active }));
}

/** The known people with no day of activity in the range: those the users page lists as "Not active". */
export const idleIn = (known: readonly KnownPerson[], r: DayRange) =>
  known.filter((k) => k.lastActive === null || k.lastActive < r.start);

/**
 * Every person known by the range's end, in user id order: those active in it as `mergedUsers` gives them, the
 * others with no activity (no days, nothing summed); each with their latest active day up to the range's end.
 */
export async function peopleOfRange(a: Analytics, r: DayRange): Promise<MergedUser[]> {
  const [active, known] = await Promise.all([mergedUsers(a, r), knownBy(a, r)]);
  const lastActive = new Map(known.map((k) => [k.userId, k.lastActive]));
  for (const u of active) u.lastActiveDay = lastActive.get(u.userId) ?? u.lastDay;
  const idle = idleIn(known, r).map((k): MergedUser => ({
    userId: k.userId,
    email: k.email,
    activeDays: 0,
    firstDay: null,
    lastDay: null,
    ...ZERO_SUMS,
    autonomyRatio: 0,
    primaryModel: '',
    primaryModelTier: '',
    delegationLevel: '',
    languages: [],
    lastActiveDay: k.lastActive,
  }));
  return [...active, ...idle].sort(byCodeUnits);
}

// A range's whole weeks are priced by the week (each person's credits per model and tier summed as days are
// copied, engine.ts) where a model and tier's price holds all week; its edge days, and the weeks where a price
// changes, day by day.
const SPEND = `
WITH week_price AS (
  SELECT ${WEEK_OF_DAY} AS week, model, tier, min(per_million) AS lo, max(per_million) AS hi, count(*) AS n
  FROM price WHERE day BETWEEN $first AND $through GROUP BY ALL),
uniform AS (SELECT week, model, tier, lo AS per_million FROM week_price WHERE lo = hi AND n = 7),
changing AS (
  SELECT p.day, p.model, p.tier, p.per_million FROM price p
  JOIN week_price w ON w.week = ${WEEK_OF_DAY.replaceAll('day', 'p.day')} AND w.model = p.model AND w.tier = p.tier
  WHERE p.day BETWEEN $first AND $through AND NOT (w.lo = w.hi AND w.n = 7))
SELECT user_id, sum(spend) AS spend FROM (
  SELECT m.user_id, m.credits * u.per_million / 1e6 AS spend
  FROM person_model_week m JOIN uniform u USING (week, model, tier) WHERE m.week BETWEEN $first AND $last
  UNION ALL
  SELECT m.user_id, m.credits * p.per_million / 1e6 FROM person_model_day m JOIN price p USING (day, model, tier)
  WHERE m.day BETWEEN $start AND $end AND NOT (m.day BETWEEN $first AND $through)
  UNION ALL
  SELECT m.user_id, m.credits * c.per_million / 1e6 FROM person_model_day m JOIN changing c USING (day, model, tier)
  WHERE m.day BETWEEN $first AND $through)
GROUP BY user_id`;

/** Each person's spend over a range at a price list: every `/tokens` day's credits by model, priced. */
export function createSpendByUser(a: Analytics) {
  const prices = priceTableOf(a);
  return async (r: DayRange, list: PriceList): Promise<Map<string, number>> => {
    await a.catchUp(r);
    await prices(list);
    const rows = await a.rows<{ user_id: string; spend: number }>(SPEND, {
      start: r.start,
      end: r.end,
      ...wholeWeeks(r),
    });
    return new Map(rows.map((x) => [x.user_id, x.spend]));
  };
}
