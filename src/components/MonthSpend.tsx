import { useMemo } from 'react';
import type { BudgetStatusView, MonthSpend as Month } from '../api/spend';
import { TimeSeriesChart, seriesColor } from './TimeSeriesChart';
import { addDays, formatDayLong, formatDayShort, type Day } from '../lib/dates';
import { formatMoney } from '../lib/money';

const STATE_TEXT = { 'on-track': 'On track', 'at-risk': 'At risk', over: 'Over budget' } as const;
const STATE_CLASS = {
  'on-track': 'bg-success-surface text-success-fg',
  'at-risk': 'bg-warning-surface-strong text-warning-fg',
  over: 'bg-danger-surface text-danger-fg',
} as const;

/** A budget's state as a small badge, with the sentence a screen reader and a tooltip give. */
export function BudgetBadge({ status, currency }: { status: BudgetStatusView; currency: string }) {
  return (
    <span
      className={`inline-block whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-medium ${STATE_CLASS[status.state]}`}
      title={budgetSentence(status, currency)}
    >
      {STATE_TEXT[status.state]}
    </span>
  );
}

/** "Over since Nov 20", "the forecast passes it on Nov 26", or that it stays under. */
export function budgetSentence(s: BudgetStatusView, currency: string): string {
  const budget = `Budget ${formatMoney(s.budget, currency)} a month`;
  if (s.state === 'over') return `${budget}: passed${s.crossing ? ` on ${formatDayLong(s.crossing)}` : ''}.`;
  if (s.crossing) return `${budget}: the forecast passes it on ${formatDayLong(s.crossing)}.`;
  if (s.state === 'at-risk') return `${budget}: a month like the busiest recent week would pass it.`;
  return `${budget}: the forecast stays under it.`;
}

/** A budget's crossing in a few words for a table cell: "passed Nov 11", "passes Nov 28", or nothing. */
export function budgetWhen(s: BudgetStatusView): string | null {
  if (!s.crossing) return null;
  return `${s.crossingForecast ? 'passes' : 'passed'} ${formatDayShort(s.crossing)}`;
}

/** The forecast's range: "€3,070 – €3,160". */
export const forecastRange = (f: { low: number; high: number }, currency: string) =>
  `${formatMoney(f.low, currency)} – ${formatMoney(f.high, currency)}`;

/** The month's days: spent so far, then the forecast's low, middle and high to month end, and the budget. */
export function burnPoints(m: Month) {
  const byDay = new Map(m.days.map((d) => [d.date, d.spend]));
  const out: { date: Day; spent: number; low: number; high: number; budget?: number }[] = [];
  let sum = 0;
  const f = m.forecast;
  const rate = (total: number) => (m.daysLeft > 0 ? (total - m.monthToDate) / m.daysLeft : 0);
  const [low, mid, high] = f ? [rate(f.low), rate(f.mid), rate(f.high)] : [0, 0, 0];
  for (let d = m.start, i = 0; d <= m.end; d = addDays(d, 1), i++) {
    if (d <= m.latest) {
      sum += byDay.get(d) ?? 0;
      out.push({ date: d, spent: sum, low: sum, high: sum });
    } else {
      const ahead = i - (m.daysElapsed - 1);
      out.push({ date: d, spent: sum + ahead * mid, low: sum + ahead * low, high: sum + ahead * high });
    }
    if (m.budget) out[out.length - 1]!.budget = m.budget.budget;
  }
  // Without a forecast, nothing is drawn past the latest day.
  return f ? out : out.filter((p) => p.date <= m.latest);
}

/**
 * The month of the latest day: spent so far, the forecast to month end as a range, the budget's state,
 * and the burn chart (the month's running total, its forecast and the budget).
 */
export function MonthSpend({ month: m, currency, method }: { month: Month; currency: string; method: string }) {
  const points = useMemo(() => burnPoints(m), [m]);
  const money = (n: number) => formatMoney(n, currency);
  const series = useMemo(
    () => [
      { key: 'spent', label: m.forecast ? 'Spent, then forecast' : 'Spent', color: seriesColor(0) },
      ...(m.forecast
        ? [
            { key: 'high', label: 'Forecast, busiest weeks', color: seriesColor(2) },
            { key: 'low', label: 'Forecast, quietest weeks', color: seriesColor(1) },
          ]
        : []),
      ...(m.budget ? [{ key: 'budget', label: 'Budget', color: 'var(--danger)' }] : []),
    ],
    [m.forecast, m.budget],
  );
  return (
    <div className="flex flex-col gap-3 text-sm">
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <div>
          <dt className="text-fg-subtle">Month to date</dt>
          <dd className="text-xl font-semibold tabular-nums">{money(m.monthToDate)}</dd>
          <dd className="text-xs text-fg-subtle">
            {formatDayLong(m.start)} – {formatDayLong(m.latest)}
          </dd>
        </div>
        <div>
          <dt className="text-fg-subtle">Forecast to {formatDayLong(m.end)}</dt>
          {m.forecast ? (
            <>
              <dd className="text-xl font-semibold tabular-nums">
                {money(m.forecast.low)} – {money(m.forecast.high)}
              </dd>
              <dd className="text-xs text-fg-subtle">most likely {money(m.forecast.mid)}</dd>
            </>
          ) : (
            <dd className="text-fg-muted">
              Too little history for a forecast: it needs a whole week ({m.basisDays}{' '}
              {m.basisDays === 1 ? 'day' : 'days'} so far).
            </dd>
          )}
        </div>
        <div>
          <dt className="text-fg-subtle">Budget</dt>
          {m.budget ? (
            <>
              <dd className="flex items-center gap-2 text-xl font-semibold tabular-nums">
                {money(m.budget.budget)} <BudgetBadge status={m.budget} currency={currency} />
              </dd>
              <dd className="text-xs text-fg-subtle">{budgetSentence(m.budget, currency)}</dd>
            </>
          ) : (
            <dd className="text-fg-muted">No monthly budget set.</dd>
          )}
        </div>
      </dl>
      <TimeSeriesChart
        data={points}
        series={series}
        kind="line"
        height={200}
        summary={`Spend in ${m.month}: ${money(m.monthToDate)} to ${formatDayLong(m.latest)}${
          m.forecast ? `, forecast ${money(m.forecast.low)} to ${money(m.forecast.high)} by month end` : ''
        }${m.budget ? `, budget ${money(m.budget.budget)}` : ''}.`}
      />
      {m.forecast && (
        <p className="text-xs text-fg-subtle">
          {method} ({m.basisDays} days read.)
        </p>
      )}
    </div>
  );
}
