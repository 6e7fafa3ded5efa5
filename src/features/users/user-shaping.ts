import type { TokenDay, UserRow } from '../../api/schemas';
import type { DayRange } from '../../lib/dates';
import { fillDays, rankTotals, sumBy } from '../../lib/series';

export function userDailyPoints(range: DayRange, rows: readonly UserRow[]) {
  return fillDays(
    range,
    rows,
    (r) => ({
      credits: r.billable_tokens,
      toolCalls: r.tool_calls,
      sessions: r.sessions,
      messages: r.messages,
      userMessages: r.user_messages,
    }),
    { credits: 0, toolCalls: 0, sessions: 0, messages: 0, userMessages: 0 },
  );
}

/** The user's credits per model and share of the organization's credits, from `/tokens` `by_user`. */
export function userCredits(userId: string, days: readonly TokenDay[]) {
  const models = new Map<string, number>();
  let user = 0;
  for (const d of days) {
    for (const u of d.by_user) {
      if (u.user_id !== userId) continue;
      user += u.billable_tokens;
      for (const m of u.by_model) models.set(m.model_id, (models.get(m.model_id) ?? 0) + m.billable_tokens);
    }
  }
  const org = sumBy(days, (d) => d.billable_tokens);
  return { credits: user, orgCredits: org, share: org > 0 ? user / org : null, models: rankTotals(models) };
}
