/**
 * The users table's figures from the analytics engine: each person's merge over a range (the merge rules of a
 * person's days, written once, here, in SQL) and their spend at the price list in force. They agree with the
 * browser's merge of the same `/users` rows (src/lib/user-merge.ts) to the last field: the sums, the ratio
 * weighted by user messages, the email of the first day (else the first one given later), the model and
 * delegation level of most days (ties: the first by name) with the model's tier on its latest day, every
 * language.
 */
import type { DayRange } from '../../lib/dates';
import { SUMMED_FIELDS, type MergedSums, type MergedUser } from '../../lib/user-merge';
import type { PriceList } from '../spend/prices';
import type { Analytics } from './engine';
import { priceTableOf } from './spend';

const SUMS = Object.entries(SUMMED_FIELDS) as [keyof MergedSums, string][];

// The range's rows are read by each part where it is (NOT MATERIALIZED): a copy of them all first took longer
// than the merge (3.5 s against 1.5 s at 50,000 people × 88 days).
const MERGE = `
WITH r AS NOT MATERIALIZED (SELECT * FROM person_day WHERE day BETWEEN $start AND $end),
top_model AS (
  SELECT user_id, model, tier FROM (
    SELECT user_id, primary_model AS model, count(*) AS n, arg_max(primary_model_tier, day) AS tier
    FROM r GROUP BY user_id, primary_model)
  QUALIFY row_number() OVER (PARTITION BY user_id ORDER BY n DESC, model) = 1),
top_level AS (
  SELECT user_id, level FROM (
    SELECT user_id, delegation_level AS level, count(*) AS n FROM r GROUP BY user_id, delegation_level)
  QUALIFY row_number() OVER (PARTITION BY user_id ORDER BY n DESC, level) = 1),
people AS (
  SELECT user_id,
    coalesce(arg_min_null(user_email, day), arg_min(user_email, day) FILTER (WHERE user_email <> '')) AS email,
    count(*)::INTEGER AS active_days, min(day) AS first_day, max(day) AS last_day,
    ${SUMS.map(([k, c]) => `sum(${c}) AS "${k}"`).join(', ')},
    -- Tool calls per user turn over the range: Σ tool calls ÷ Σ user messages (src/lib/definitions.ts).
    coalesce(sum(tool_calls) / nullif(sum(user_messages), 0), 0) AS autonomy_ratio,
    list(DISTINCT languages) AS language_lists
  FROM r GROUP BY user_id)
SELECT p.*, t.model, t.tier, l.level
FROM people p JOIN top_model t USING (user_id) JOIN top_level l USING (user_id)`;

const byCodeUnits = (a: MergedUser, b: MergedUser) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);

/** One row per person active in the range, in user id order (the order ties keep when the table is sorted). */
export async function mergedUsers(a: Analytics, r: DayRange): Promise<MergedUser[]> {
  await a.catchUp(r);
  const c = await a.columns(MERGE, { start: r.start, end: r.end });
  const col = <T>(name: string) => c[name] as T[];
  const parsed = new Map<string, string[]>();
  const languagesOf = (lists: string[]) => {
    const all = new Set<string>();
    for (const l of lists) {
      let langs = parsed.get(l);
      if (!langs) parsed.set(l, (langs = JSON.parse(l) as string[]));
      for (const x of langs) all.add(x);
    }
    return [...all].sort();
  };
  const [ids, emails, activeDays, firstDays, lastDays, ratios, lists, models, tiers, levels] = [
    col<string>('user_id'),
    col<string | null>('email'),
    col<number>('active_days'),
    col<string>('first_day'),
    col<string>('last_day'),
    col<number>('autonomy_ratio'),
    col<string[]>('language_lists'),
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

const SPEND = `
SELECT m.user_id, sum(m.credits * p.per_million / 1e6) AS spend
FROM person_model_day m JOIN price p ON p.day = m.day AND p.model = m.model AND p.tier = m.tier
WHERE m.day BETWEEN $start AND $end
GROUP BY m.user_id`;

/** Each person's spend over a range at a price list: every `/tokens` day's credits by model, priced. */
export function createSpendByUser(a: Analytics) {
  const prices = priceTableOf(a);
  return async (r: DayRange, list: PriceList): Promise<Map<string, number>> => {
    await a.catchUp(r);
    await prices(list);
    const rows = await a.rows<{ user_id: string; spend: number }>(SPEND, { start: r.start, end: r.end });
    return new Map(rows.map((x) => [x.user_id, x.spend]));
  };
}
