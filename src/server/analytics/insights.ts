/**
 * The per-person figures of the highlights, the adoption cohorts and the digest, as SQL over the copy (run on
 * DuckDB's threads): nothing here walks a person's days in JavaScript.
 *
 * A spike: a person's day far above their own usual level. The usual level is the median of their active days
 * in the 28 days before; "far above" is more than `k` robust deviations over it, the deviation being the median
 * absolute deviation (MAD) scaled by 1.4826 (so it estimates the standard deviation of normal data) — medians,
 * not means, so one earlier spike or a few idle days do not move the bar. With fewer than 7 active days before,
 * there is too little history to say what is usual. A person who spends the same every day has a MAD of 0: the
 * deviation then counts as at least a tenth of the median, so a day a little above a flat habit is not a spike.
 * And a spike is at least twice the usual level, so a busy but ordinary day of a steady person is not one either.
 */
import { LIST, listValue, VARCHAR } from '@duckdb/node-api';
import { addDays, HISTORY_START, maxDay, weekStart, type Day, type DayRange } from '../../lib/dates';
import type { Mapping } from '../teams/mapping';
import type { Analytics } from './engine';
import { WEEK_OF_DAY } from './schema';
import { scoped, type PeopleScope } from './teams';

export const SPIKE_WINDOW = 28;
export const SPIKE_MIN_HISTORY = 7;
export const SPIKE_K = 4;
const MAD_TO_SD = 1.4826;

/** The weeks after joining at which a cohort's retention is read. */
export const COHORT_OFFSETS = [1, 2, 4, 8, 12, 16, 24, 32, 40, 52] as const;

/** Teams chosen, or none for the organization. */
const selection = (teams: readonly string[]) => (teams.length > 0 ? teams : null);

export interface Spike {
  userId: string;
  email: string | null;
  day: Day;
  value: number;
  median: number;
  /** The day's credits over the spike's threshold: how far past it. */
  ratio: number;
}

/**
 * Each person's most extreme day of `week` against their own 28 days before it: the largest `limit` spikes (the
 * most credits above the person's usual first: what weighs on the organization's credits, not a small user's tenfold), how many people had one, and how many active people had too little history
 * on every day of the week to tell.
 *
 * A spike's median is under half the day (its threshold is at least twice the median), so at least half the days
 * before are under half of it: counting those (a cheap pass) leaves the few days whose medians are worth taking.
 */
export async function weekSpikes(
  a: Analytics,
  mapping: Mapping | null,
  teams: readonly string[],
  week: DayRange,
  limit: number,
): Promise<{ top: Spike[]; count: number; unjudged: number }> {
  const from = maxDay(HISTORY_START, addDays(week.start, -SPIKE_WINDOW));
  const ask = await scoped(a, mapping, selection(teams), { start: from, end: week.end });
  const [row] = await ask<{
    count: number;
    unjudged: number;
    top: (Omit<Spike, 'email' | 'ratio'> & { ratio: number | null })[] | null;
  }>(
    `
    WITH d AS (
      SELECT pid, day, coalesce(sum(billable_tokens), 0) AS v FROM person_day
      WHERE day BETWEEN $start AND $end AND <selected> GROUP BY pid, day),
    c AS (
      SELECT w.pid, w.day, any_value(w.v) AS v, count(p.v) AS n, count_if(p.v < w.v / 2) AS below
      FROM (SELECT * FROM d WHERE day >= $week::DATE) w
      LEFT JOIN d p ON p.pid = w.pid AND p.day < w.day AND p.day >= w.day - ${SPIKE_WINDOW}
      GROUP BY w.pid, w.day),
    s AS (
      SELECT c.pid, c.day, c.v, median(p.v) AS med, mad(p.v) AS mad
      FROM c JOIN d p ON p.pid = c.pid AND p.day < c.day AND p.day >= c.day - ${SPIKE_WINDOW}
      WHERE c.n >= ${SPIKE_MIN_HISTORY} AND c.v > 0 AND c.below >= (c.n + 1) // 2
      GROUP BY c.pid, c.day, c.v),
    t AS (
      SELECT *, greatest(med + ${SPIKE_K} * greatest(${MAD_TO_SD} * mad, 0.1 * med), 2 * med) AS threshold FROM s),
    best AS (
      SELECT user_id, day, v, med, v / threshold AS ratio FROM t JOIN person USING (pid) WHERE v > threshold
      QUALIFY row_number() OVER (PARTITION BY pid ORDER BY v / threshold DESC, day) = 1)
    SELECT
      (SELECT count(*) FROM best)::INTEGER AS count,
      (SELECT count(*) FROM (SELECT pid FROM c GROUP BY pid HAVING max(n) < ${SPIKE_MIN_HISTORY}))::INTEGER
        AS unjudged,
      -- A bar of zero (a person whose usual day is no credits) is passed infinitely far: JSON has no Infinity.
      (SELECT list({userId: user_id, day: strftime(day, '%Y-%m-%d'), value: v, median: med,
          ratio: CASE WHEN isfinite(ratio) THEN ratio END}
         ORDER BY v - med DESC, ratio DESC, user_id)[1:$limit] FROM best) AS top`,
    { week: week.start, limit },
  );
  const top = row?.top ?? [];
  const emails = await firstEmails(
    a,
    { start: from, end: week.end },
    top.map((s) => s.userId),
  );
  return {
    count: row?.count ?? 0,
    unjudged: row?.unjudged ?? 0,
    top: top.map((s) => ({ ...s, ratio: s.ratio ?? Infinity, email: emails.get(s.userId) ?? null })),
  };
}

/** The first email each of these people gave in the range (their name on a highlight). */
async function firstEmails(a: Analytics, r: DayRange, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await a.rows<{ user_id: string; email: string | null }>(
    `SELECT user_id, arg_min(user_email, day) FILTER (WHERE user_email <> '') AS email
     FROM person_day JOIN person USING (pid)
     WHERE day BETWEEN $start AND $end AND list_contains($ids, user_id) GROUP BY user_id`,
    { start: r.start, end: r.end, ids: listValue([...ids]) },
    { ids: LIST(VARCHAR) },
  );
  return new Map(rows.flatMap((x) => (x.email ? [[x.user_id, x.email] as const] : [])));
}

/** The people (of the teams chosen) first active in the copy's whole history during `week`, the earliest first. */
export async function firstActiveIn(
  a: Analytics,
  mapping: Mapping | null,
  teams: readonly string[],
  week: DayRange,
): Promise<{ userId: string; email: string | null }[]> {
  const ask = await scoped(a, mapping, selection(teams), { start: HISTORY_START, end: week.end });
  return ask(
    `SELECT user_id AS "userId", email FROM (
       SELECT pid, arg_min(given_email, given_day) AS email, min(first_day) AS first
       FROM person_week WHERE week >= date_trunc('week', $start::DATE)::DATE AND <selected>
       GROUP BY pid HAVING min(first_day) BETWEEN $week AND $end) JOIN person USING (pid)
     ORDER BY first, email, user_id`,
    { week: week.start },
  );
}

/**
 * The adoption cohorts: people by the week (from `origin`, a Monday) they were first active, and how many of each
 * were active again `offset` weeks later, for each of COHORT_OFFSETS. In privacy mode (`minGroup`) a week's cohort of
 * fewer people is no row (its people still count in the totals), whoever asks.
 */
export async function cohortCounts(
  a: Analytics,
  mapping: Mapping | null,
  scope: PeopleScope & { minGroup?: number },
  origin: Day,
  latest: Day,
): Promise<{ week: number; size: number; back: number[] }[]> {
  // Whole weeks from the week tables, the days after the last of them from the days.
  const through = addDays(weekStart(addDays(latest, 1)), -1);
  const ask = await scoped(a, mapping, scope, { start: origin, end: latest });
  const rows = await ask<{ week: number; size: number; back: number[] }>(
    `WITH w AS (
       SELECT DISTINCT pid, (date_diff('day', $start::DATE, week) // 7)::INTEGER AS w FROM (
         SELECT pid, week FROM person_week WHERE week >= $start AND week <= $through
         UNION ALL
         SELECT pid, ${WEEK_OF_DAY} FROM person_day
         WHERE day > $through AND day <= $end)
       WHERE <selected>),
     f AS (SELECT pid, min(w) AS first FROM w GROUP BY pid)
     SELECT first AS week, count(*) FILTER (WHERE w = first)::INTEGER AS size,
       [${COHORT_OFFSETS.map((o) => `count(*) FILTER (WHERE w = first + ${o})::INTEGER`).join(', ')}] AS back
     FROM f JOIN w USING (pid) GROUP BY first HAVING size >= $k ORDER BY first`,
    { through, k: scope.minGroup ?? 0 },
  );
  return rows;
}
