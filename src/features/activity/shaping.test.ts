import { describe, expect, it } from 'vitest';
import type { ActivityDay } from '../../api/schemas';
import { activityTotals } from './shaping';

const d = (date: string, dau: number, wau: number): ActivityDay => ({
  date,
  daily_active_users: dau,
  weekly_active_users: wau,
  monthly_active_users: wau * 2,
  daily_active_users_by_client: { 'terminal-ui': dau },
  sessions: 10,
  messages: 100,
  user_messages: 30,
});

describe('activity shaping', () => {
  it('averages DAU, takes the latest WAU and MAU whatever the row order, sums flows', () => {
    expect(activityTotals([d('2026-02-03', 30, 70), d('2026-02-01', 10, 50), d('2026-02-02', 20, 60)])).toEqual({
      avgDau: 20,
      latestWau: 70,
      latestMau: 140,
      sessions: 30,
      messages: 300,
      userMessages: 90,
    });
    expect(activityTotals([])).toMatchObject({ avgDau: null, latestWau: null });
  });
});
