import type { ActivityDay } from '../../api/schemas';
import type { DayRange } from '../../lib/dates';
import { fillDays, sumBy } from '../../lib/series';

export function activityTotals(days: readonly ActivityDay[]) {
  const last = [...days].sort((a, b) => a.date.localeCompare(b.date)).at(-1);
  return {
    avgDau: days.length ? sumBy(days, (d) => d.daily_active_users) / days.length : null,
    // Weekly and monthly actives are levels, not flows: the latest day's value.
    latestWau: last?.weekly_active_users ?? null,
    latestMau: last?.monthly_active_users ?? null,
    sessions: sumBy(days, (d) => d.sessions),
    messages: sumBy(days, (d) => d.messages),
    userMessages: sumBy(days, (d) => d.user_messages),
  };
}

export function activityPoints(range: DayRange, days: readonly ActivityDay[]) {
  return fillDays(
    range,
    days,
    (d) => ({
      dau: d.daily_active_users,
      wau: d.weekly_active_users,
      mau: d.monthly_active_users,
      sessions: d.sessions,
      messages: d.messages,
      userMessages: d.user_messages,
    }),
    { dau: 0, wau: 0, mau: 0, sessions: 0, messages: 0, userMessages: 0 },
  );
}
