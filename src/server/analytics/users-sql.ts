/**
 * The SQL of a range's users table (analytics/users.ts): each person's merge of the range (the merge rules of a
 * person's days, written once, here), the people known by its end and those of them not active in it, spend, and the
 * order a question reads it in.
 */
import { SUMS, type MergedSums, type UserColumnId } from '../../lib/user-merge';
import { spendOf } from './spend';
import type { UsersQuestion } from './users-question';

// A range is its whole weeks, from the week tables (engine.ts), and its edge days, from `person_day`, each as
// rows of one shape: the merge of the weeks' partial merges is the merge of their days. Each part reads them
// where they are (NOT MATERIALIZED): a copy of them all first took longer than the merge. `only`: a condition on
// `pid` every part reads with: a person's merge reads their rows alone.
const MERGE = (only = 'true') => `
WITH edge AS NOT MATERIALIZED (
  SELECT * FROM person_day WHERE day BETWEEN $start AND $end AND NOT (day BETWEEN $first AND $through) AND ${only}),
r AS NOT MATERIALIZED (
  SELECT pid, days, first_day, last_day, first_email, given_day, given_email, ${SUMS.map(([, c]) => c).join(', ')}
  FROM person_week WHERE week BETWEEN $first AND $last AND ${only}
  UNION ALL
  SELECT pid, 1, day, day, user_email, CASE WHEN user_email <> '' THEN day END,
    CASE WHEN user_email <> '' THEN user_email END, ${SUMS.map(([, c]) => c).join(', ')}
  FROM edge),
top_model AS (
  SELECT pid, model, tier FROM (
    SELECT pid, model, sum(n) AS n, arg_max(last_tier, last_day) AS tier FROM (
      SELECT pid, model, n, last_day, last_tier FROM person_week_model WHERE week BETWEEN $first AND $last AND ${only}
      UNION ALL SELECT pid, primary_model, 1, day, primary_model_tier FROM edge)
    GROUP BY pid, model)
  QUALIFY row_number() OVER (PARTITION BY pid ORDER BY n DESC, model) = 1),
top_level AS (
  SELECT pid, level FROM (
    SELECT pid, level, sum(n) AS n FROM (
      SELECT pid, level, n FROM person_week_level WHERE week BETWEEN $first AND $last AND ${only}
      UNION ALL SELECT pid, delegation_level, 1 FROM edge)
    GROUP BY pid, level)
  QUALIFY row_number() OVER (PARTITION BY pid ORDER BY n DESC, level) = 1),
-- Every language once.
spoken AS (
  SELECT pid, list(name ORDER BY name) AS langs FROM (
    SELECT DISTINCT pid, language FROM (
      SELECT pid, language FROM person_week_language WHERE week BETWEEN $first AND $last AND ${only}
      UNION ALL SELECT pid, unnest(languages) FROM edge)) JOIN language ON code = language
  GROUP BY pid),
people AS (
  SELECT pid,
    coalesce(arg_min_null(first_email, first_day), arg_min(given_email, given_day) FILTER (WHERE given_day IS NOT NULL)) AS email,
    sum(days)::INTEGER AS active_days, min(first_day) AS first_day, max(last_day) AS last_day,
    ${SUMS.map(([k, c]) => `sum(${c}) AS "${k}"`).join(', ')},
    -- Tool calls per user turn over the range: Σ tool calls ÷ Σ user messages (src/lib/definitions.ts).
    coalesce(sum(tool_calls) / nullif(sum(user_messages), 0), 0) AS autonomy_ratio
  FROM r GROUP BY pid)
SELECT p.*, coalesce(s.langs, []::VARCHAR[]) AS langs, t.model, t.tier, l.level
FROM people p JOIN top_model t USING (pid) JOIN top_level l USING (pid) LEFT JOIN spoken s USING (pid)`;

// Everyone known by the range's end (a `/users` day or a `/tokens` split on or before it), with their latest day of
// activity up to it and their latest email given: the weeks before the end's week, then its days. `only`: a
// condition on `pid` that keeps fewer people (their emails are the costly part).
export const KNOWN = (only = 'true') => `
SELECT pid, max(d) AS last_active, arg_max(ge, gd) FILTER (WHERE gd IS NOT NULL) AS email FROM (
  SELECT pid, last_day AS d, last_given_day AS gd, last_given_email AS ge FROM person_week WHERE week < $week
  UNION ALL SELECT pid, NULL, last_given_day, last_given_email FROM person_credits_week WHERE week < $week
  UNION ALL SELECT pid, day, CASE WHEN user_email <> '' THEN day END, nullif(user_email, '')
    FROM person_day WHERE day BETWEEN $week AND $end
  UNION ALL SELECT pid, NULL, CASE WHEN user_email <> '' THEN day END, nullif(user_email, '')
    FROM person_credits_day WHERE day BETWEEN $week AND $end)
WHERE ${only}
GROUP BY pid`;

// The people known by the range's end with no day of activity in it: the users page's "Not active".
export const IDLE = `
SELECT pid FROM (
  SELECT pid FROM person_week WHERE week < $week UNION SELECT pid FROM person_credits_week WHERE week < $week
  UNION SELECT pid FROM person_day WHERE day BETWEEN $week AND $end
  UNION SELECT pid FROM person_credits_day WHERE day BETWEEN $week AND $end)
WHERE pid NOT IN (
  SELECT pid FROM person_week WHERE week BETWEEN $first AND $last
  UNION SELECT pid FROM person_day WHERE day BETWEEN $start AND $end AND NOT (day BETWEEN $first AND $through))`;

// Each person of `merged` (MERGE) as a row of the range's table: their last active day up to the range's end (their
// last in it) and, `priced`, their spend (`spent`: SPEND).
const ACTIVE = (priced: boolean) => `
SELECT pr.user_id, m.*, m.last_day AS last_active_day, ${priced ? 'coalesce(s.spend, 0)' : 'NULL::DOUBLE'} AS spend
FROM merged m JOIN person pr USING (pid)${priced ? ' LEFT JOIN spent s USING (pid)' : ''}`;

// The range's table: everyone active in it (ACTIVE), and the known people who were not (IDLE, KNOWN), each with their
// spend. Their teams are joined as a page is read (`member`, kept for the mapping in force): a new mapping changes no
// table.
export const TABLE = (priced: boolean) => `
WITH merged AS (${MERGE()}),
idle AS (${IDLE}),
known AS (${KNOWN('pid IN (SELECT pid FROM idle)')})${priced ? `,\nspent AS (${spendOf()})` : ''}
${ACTIVE(priced)}
UNION ALL BY NAME
SELECT pr.user_id, pid, k.email, 0 AS active_days, NULL AS first_day, NULL AS last_day,
  ${SUMS.map(([k]) => `0 AS "${k}"`).join(', ')}, 0 AS autonomy_ratio, []::VARCHAR[] AS langs,
  '' AS model, '' AS tier, '' AS level, k.last_active AS last_active_day,
  ${priced ? 'coalesce(s.spend, 0)' : 'NULL::DOUBLE'} AS spend
FROM known k JOIN person pr USING (pid)${priced ? ' LEFT JOIN spent s USING (pid)' : ''}`;

// One person's row of the range's table when they were active in it (parameter `pid`), made from their rows alone: the
// same merge, restricted to them.
export const PERSON = (priced: boolean) => `
WITH merged AS (${MERGE('pid = $pid')})${priced ? `,\nspent AS (${spendOf('pid = $pid')})` : ''}
${ACTIVE(priced)}`;

// The seats' lists of the users page: the people of the range's table (`table`: everyone known by its end) the mapping
// names, with their teams, and those it names who had no day of activity and no credits by then (`never_used`): never
// seen (`unseen_member`, by the mapping's id or email), or first seen after the range's end (by their latest email).
export const SEATED = (table: string, priced: boolean) => `
WITH named AS (SELECT pid, team FROM member WHERE team <> $unassigned),
never AS (SELECT pid, team FROM named WHERE pid NOT IN (SELECT pid FROM ${table})),
later AS (
  SELECT pid, arg_max(last_given_email, last_given_day) FILTER (WHERE last_given_day IS NOT NULL) AS email FROM (
    SELECT pid, last_given_day, last_given_email FROM person_week
    UNION ALL SELECT pid, last_given_day, last_given_email FROM person_credits_week)
  WHERE pid IN (SELECT pid FROM never WHERE pid > 0)
  GROUP BY pid)
SELECT t.*, n.team, false AS never_used FROM ${table} t JOIN named n USING (pid)
UNION ALL BY NAME
SELECT n.pid, coalesce(pr.user_id, u.user_id, '') AS user_id, coalesce(u.email, g.email) AS email, 0 AS active_days,
  NULL::DATE AS first_day, NULL::DATE AS last_day, ${SUMS.map(([k]) => `0 AS "${k}"`).join(', ')},
  0 AS autonomy_ratio, []::VARCHAR[] AS langs, '' AS model, '' AS tier, '' AS level, NULL::DATE AS last_active_day,
  ${priced ? '0::DOUBLE' : 'NULL::DOUBLE'} AS spend, n.team, true AS never_used
FROM never n LEFT JOIN person pr USING (pid) LEFT JOIN unseen_member u USING (pid) LEFT JOIN later g USING (pid)`;

// The seats' counts: the people the mapping names (of the teams asked for: `selected`, a condition on `team`), those
// active in the range, those known with no day of activity in the 7 and the 30 days to its end ($idle7, $idle30: the
// first day of each), and those never seen by its end; the last three without the new starters in grace (`grace`: a
// table of their `pid`, none without one), who are counted apart (`grace_…`).
export const SEAT_COUNTS = (table: string, selected: string, grace: string | null) => {
  const inGrace = grace ? 'g.pid IS NOT NULL' : 'false';
  const unused = [
    ['idle7', 't.pid IS NOT NULL AND coalesce(t.last_active_day < $idle7, true)'],
    ['idle30', 't.pid IS NOT NULL AND coalesce(t.last_active_day < $idle30, true)'],
    ['never', 't.pid IS NULL'],
  ].map(
    ([n, kind]) => `count(*) FILTER (WHERE ${kind} AND NOT ${inGrace})::INTEGER AS ${n},
  count(*) FILTER (WHERE ${kind} AND ${inGrace})::INTEGER AS grace_${n}`,
  );
  return `SELECT count(*)::INTEGER AS named,
  count(*) FILTER (WHERE t.active_days > 0)::INTEGER AS active,
  ${unused.join(',\n  ')}
FROM member m LEFT JOIN ${table} t USING (pid)${grace ? ` LEFT JOIN ${grace} g ON g.pid = m.pid` : ''}
WHERE m.team <> $unassigned AND ${selected}`;
};

// Each column's order: numbers by value, text as the browser's tables sort it (ICU's en-US collation, as
// Intl.Collator('en-US')); people without a value last either way, ties in user id order.
const ORDER: Record<UserColumnId, string> = {
  ...(Object.fromEntries(SUMS.map(([k]) => [k, `"${k}"`])) as Record<keyof MergedSums, string>),
  user: 'coalesce(email, user_id) COLLATE en_us',
  team: 'team COLLATE en_us',
  spend: 'spend',
  activeDays: 'active_days',
  firstDay: 'first_day',
  lastDay: 'last_day',
  lastActiveDay: 'last_active_day',
  autonomy: 'autonomy_ratio',
  model: 'model COLLATE en_us',
  tier: 'tier COLLATE en_us',
  delegation: 'level COLLATE en_us',
  languages: "array_to_string(langs, ', ') COLLATE en_us",
};

/** A question's ORDER BY: by its column and direction, ties by what the reader sees. */
export const order = (q: UsersQuestion) =>
  q.view
    ? `ORDER BY ${q.sort === 'team' ? 'seen_team COLLATE en_us' : ORDER[q.sort]} ${q.dir.toUpperCase()} NULLS LAST, seen_name`
    : // A person the mapping names by email alone has no id: their email tells them apart.
      `ORDER BY ${ORDER[q.sort]} ${q.dir.toUpperCase()} NULLS LAST, user_id, email`;
