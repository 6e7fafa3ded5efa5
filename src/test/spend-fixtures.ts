/** Spend answers for component tests: a month of the latest day, a team's spend row, an answer. */
import type { MonthSpend, SpendAnswer, TeamSpendRow } from '../api/spend';
import { FORECAST_METHOD } from '../api/spend';

export function month(over: Partial<MonthSpend> = {}): MonthSpend {
  return {
    month: '2026-05',
    start: '2026-05-01',
    end: '2026-05-31',
    latest: '2026-05-28',
    daysElapsed: 28,
    daysLeft: 3,
    monthToDate: 2800,
    forecast: { low: 3070, mid: 3100, high: 3160 },
    basisDays: 28,
    budget: null,
    days: Array.from({ length: 28 }, (_, i) => ({ date: `2026-05-${String(i + 1).padStart(2, '0')}`, spend: 100 })),
    ...over,
  };
}

export function spendAnswer(over: Partial<SpendAnswer> = {}): SpendAnswer {
  return {
    currency: 'EUR',
    range: { start: '2026-05-01', end: '2026-05-31' },
    teams: [],
    user: null,
    days: [],
    credits: 1_000_000,
    spend: 1234.5,
    previous: { credits: 800_000, spend: 987.6 },
    models: [],
    month: month(),
    method: FORECAST_METHOD,
    ...over,
  };
}

export const teamSpendRow = (team: string, over: Partial<TeamSpendRow> = {}): TeamSpendRow => ({
  team,
  credits: 1000,
  spend: 100,
  month: month(),
  ...over,
});
