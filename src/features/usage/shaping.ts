import type { TokenDay, TokenModelRow } from '../../api/schemas';
import type { DayRange } from '../../lib/dates';
import { formatPercent } from '../../lib/format';
import { fillDays, sumBy } from '../../lib/series';

export interface CreditPoint {
  date: string;
  billable: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  [k: string]: number | string;
}

const ZERO = { billable: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

export function toDailyCredits(range: DayRange, rows: readonly TokenDay[]): CreditPoint[] {
  return fillDays(
    range,
    rows,
    (r) => ({
      billable: r.billable_tokens,
      input: r.input_tokens,
      output: r.output_tokens,
      cacheRead: r.cache_read_tokens,
      cacheWrite: r.cache_write_tokens,
    }),
    ZERO,
  );
}

export function creditTotals(rows: readonly TokenDay[]) {
  return {
    billable: sumBy(rows, (p) => p.billable_tokens),
    input: sumBy(rows, (p) => p.input_tokens),
    output: sumBy(rows, (p) => p.output_tokens),
    cacheRead: sumBy(rows, (p) => p.cache_read_tokens),
    cacheWrite: sumBy(rows, (p) => p.cache_write_tokens),
  };
}

export interface ModelTotal {
  model: string;
  tier: string;
  credits: number;
  input: number;
  output: number;
  share: number;
}

/** Per model over the range, from the days' `by_model`; shares of the credits. */
export function modelTotals(rows: readonly TokenDay[]): ModelTotal[] {
  const m = new Map<string, ModelTotal>();
  for (const d of rows) {
    for (const b of d.by_model) {
      const t = m.get(b.model_id) ?? {
        model: b.model_id,
        tier: b.model_tier,
        credits: 0,
        input: 0,
        output: 0,
        share: 0,
      };
      t.credits += b.billable_tokens;
      t.input += b.input_tokens;
      t.output += b.output_tokens;
      m.set(b.model_id, t);
    }
  }
  const total = sumBy([...m.values()], (t) => t.credits);
  return [...m.values()].map((t) => ({ ...t, share: total > 0 ? t.credits / total : 0 }));
}

export interface UserCredits {
  userId: string;
  email: string | null;
  credits: number;
  share: number;
  /** Credits per model, largest first. */
  models: { model: string; credits: number }[];
}

/** Users by credits over the range, from the days' `by_user`. */
export function topUsers(rows: readonly TokenDay[], n: number): UserCredits[] {
  const m = new Map<string, { email: string | null; credits: number; models: Map<string, number> }>();
  let total = 0;
  for (const d of rows) {
    for (const u of d.by_user) {
      let t = m.get(u.user_id);
      if (!t) m.set(u.user_id, (t = { email: u.user_email, credits: 0, models: new Map() }));
      if (t.email === null && u.user_email) t.email = u.user_email;
      t.credits += u.billable_tokens;
      total += u.billable_tokens;
      for (const b of u.by_model) t.models.set(b.model_id, (t.models.get(b.model_id) ?? 0) + b.billable_tokens);
    }
  }
  return [...m.entries()]
    .map(([userId, t]) => ({
      userId,
      email: t.email,
      credits: t.credits,
      share: total > 0 ? t.credits / total : 0,
      models: [...t.models.entries()]
        .map(([model, credits]) => ({ model, credits }))
        .sort((a, b) => b.credits - a.credits),
    }))
    .sort((a, b) => b.credits - a.credits || a.userId.localeCompare(b.userId))
    .slice(0, n);
}

/** A model's name without its release date: "claude-opus-4-20250514" → "claude-opus-4". */
export const shortModelName = (model: string) => model.replace(/-\d{8}$/, '');

/**
 * A person's model mix, largest first: in short ("claude-opus-4 71% · claude-sonnet-4-5 29%", whole
 * percents and names without their dates, for one line of a table) and in full (every name and share as
 * the CSV has it, for the line's title).
 */
export function modelMix(u: UserCredits): { short: string; full: string } {
  const share = (credits: number) => credits / (u.credits || 1);
  const percent = (credits: number) => (credits * 100) / (u.credits || 1);
  const whole = (p: number) => (p > 0 && p < 0.5 ? '<1%' : `${Math.round(p)}%`);
  return {
    short: u.models.map((m) => `${shortModelName(m.model)} ${whole(percent(m.credits))}`).join(' · '),
    full: u.models.map((m) => `${m.model} ${formatPercent(share(m.credits))}`).join('; '),
  };
}

/**
 * Daily credits from the rows grouped by model, which sum to the day totals:
 * a far smaller answer than the days with every user, so the first chart
 * does not wait for the per-user breakdown.
 */
export function dailyCreditsFromModels(range: DayRange, rows: readonly TokenModelRow[]) {
  const byDay = new Map<string, { date: string; billable: number }>();
  for (const r of rows) {
    const d = byDay.get(r.date) ?? { date: r.date, billable: 0 };
    d.billable += r.billable_tokens;
    byDay.set(r.date, d);
  }
  return fillDays(range, [...byDay.values()], (d) => ({ billable: d.billable }), { billable: 0 });
}
