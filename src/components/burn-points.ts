/** The burn chart's points and marks (pure: the chart itself loads with recharts, off the landing path). */
import type { MonthSpend as Month } from '../api/spend';
import { addDays, type Day } from '../lib/dates';
import { CHART_STYLE } from './chart-style';

const color = CHART_STYLE.series[0]!;

export interface BurnPoint {
  date: Day;
  /** The running total, to the latest day. */
  spent?: number;
  /** The forecast's middle, from the latest day to month end. */
  forecast?: number;
  /** The forecast's range, [low, high], from the latest day to month end. */
  range?: [number, number];
}

/** The burn chart's marks, in the chart and in its legend alike. */
export const BURN_LOOK = {
  spent: { label: 'Spent', color: color },
  forecast: { label: 'Forecast, most likely', color: color, dash: '5 4' },
  range: {
    label: 'Forecast range (the quietest to the busiest recent week)',
    color: color,
    opacity: 0.18,
  },
  budget: { label: 'Budget', color: 'var(--danger)', dash: '6 3' },
} as const;

/**
 * The month's days: the running total to the latest day, then the forecast to month end, its middle and
 * its range, both starting from the latest day's total so they join the line of what was spent.
 */
export function burnPoints(m: Month): BurnPoint[] {
  const byDay = new Map(m.days.map((d) => [d.date, d.spend]));
  const out: BurnPoint[] = [];
  let sum = 0;
  const f = m.forecast;
  const rate = (total: number) => (m.daysLeft > 0 ? (total - m.monthToDate) / m.daysLeft : 0);
  const [low, mid, high] = f ? [rate(f.low), rate(f.mid), rate(f.high)] : [0, 0, 0];
  for (let d = m.start; d <= m.latest; d = addDays(d, 1)) {
    sum += byDay.get(d) ?? 0;
    out.push({ date: d, spent: sum });
  }
  // Without a forecast, nothing is drawn past the latest day.
  if (!f) return out;
  Object.assign(out.at(-1)!, { forecast: sum, range: [sum, sum] });
  for (let d = addDays(m.latest, 1), ahead = 1; d <= m.end; d = addDays(d, 1), ahead++)
    out.push({ date: d, forecast: sum + ahead * mid, range: [sum + ahead * low, sum + ahead * high] });
  return out;
}
