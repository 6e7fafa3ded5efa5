/**
 * Month to date, a forecast to month end, and a budget's state, from daily spend (pure).
 *
 * The forecast is the month to date plus the days left at a daily rate read from the trailing 28
 * days (whole weeks, so weekends weigh as they do): the middle uses the window's average day; the
 * range uses the quietest and the busiest of its weeks' average days. It says how many days it read;
 * with less than one whole week of history it gives no forecast and says so.
 */
import { addDays, daysBetween, monthEnd, monthStart, type Day } from '../../lib/dates';

/** Days the forecast reads before the latest day (four whole weeks). */
export const FORECAST_WINDOW = 28;

export interface MonthForecast {
  /** `YYYY-MM` of the latest day. */
  month: string;
  start: Day;
  end: Day;
  /** The latest day with figures (yesterday, UTC). */
  latest: Day;
  daysElapsed: number;
  daysLeft: number;
  monthToDate: number;
  /** The month's total: low, middle and high; null with less than a week of history. */
  forecast: { low: number; mid: number; high: number } | null;
  /** Days of history the rate was read from (whole weeks, at most 28). */
  basisDays: number;
}

export type BudgetState = 'on-track' | 'at-risk' | 'over';

export interface BudgetStatus {
  budget: number;
  state: BudgetState;
  /** The day the month to date passed the budget, or the day the forecast's middle crosses it; null if neither. */
  crossing: Day | null;
  /** Whether `crossing` is a forecast (false: it happened). */
  crossingForecast: boolean;
}

/**
 * `spendOn(day)` gives a day's spend (0 for a day without activity); `first` is the first day with
 * figures (history's start), `latest` the last.
 */
export function forecastMonth(spendOn: (day: Day) => number, first: Day, latest: Day): MonthForecast {
  const start = monthStart(latest);
  const end = monthEnd(latest);
  let monthToDate = 0;
  for (let d = start; d <= latest; d = addDays(d, 1)) if (d >= first) monthToDate += spendOn(d);
  const available = daysBetween(first, latest) + 1;
  const weeks = Math.min(FORECAST_WINDOW, Math.max(0, available)) / 7;
  const whole = Math.floor(weeks);
  const daysLeft = daysBetween(latest, end);
  const base = {
    month: latest.slice(0, 7),
    start,
    end,
    latest,
    daysElapsed: daysBetween(start, latest) + 1,
    daysLeft,
    monthToDate,
  };
  if (whole < 1) return { ...base, forecast: null, basisDays: Math.max(0, available) };
  const weekMeans: number[] = [];
  for (let w = 0; w < whole; w++) {
    let sum = 0;
    for (let i = 0; i < 7; i++) sum += spendOn(addDays(latest, -(w * 7 + i)));
    weekMeans.push(sum / 7);
  }
  const mean = weekMeans.reduce((a, b) => a + b, 0) / whole;
  const at = (rate: number) => monthToDate + daysLeft * rate;
  return {
    ...base,
    forecast: { low: at(Math.min(...weekMeans)), mid: at(mean), high: at(Math.max(...weekMeans)) },
    basisDays: whole * 7,
  };
}

/**
 * A monthly budget against the month so far and its forecast: over once the month to date passes it;
 * at risk when the forecast's high end would; on track otherwise.
 */
export function budgetStatus(
  budget: number,
  m: MonthForecast,
  spendOn: (day: Day) => number,
  first: Day,
): BudgetStatus {
  if (m.monthToDate > budget) {
    let sum = 0;
    let crossed: Day | null = null;
    for (let d = m.start; d <= m.latest; d = addDays(d, 1)) {
      if (d < first) continue;
      sum += spendOn(d);
      if (sum > budget) {
        crossed = d;
        break;
      }
    }
    return { budget, state: 'over', crossing: crossed, crossingForecast: false };
  }
  if (!m.forecast) return { budget, state: 'on-track', crossing: null, crossingForecast: true };
  const rate = m.daysLeft > 0 ? (m.forecast.mid - m.monthToDate) / m.daysLeft : 0;
  let crossing: Day | null = null;
  if (rate > 0) {
    const days = Math.floor((budget - m.monthToDate) / rate) + 1;
    if (days <= m.daysLeft) crossing = addDays(m.latest, days);
  }
  return {
    budget,
    state: m.forecast.high > budget ? 'at-risk' : 'on-track',
    crossing,
    crossingForecast: true,
  };
}
