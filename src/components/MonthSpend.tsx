import { lazy, Suspense, useMemo } from 'react';
import type { BudgetStatusView, MonthSpend as Month } from '../api/spend';
import { BURN_LOOK, burnPoints } from './burn-points';
import { useWidth } from './use-width';
import { formatDayLong, formatDayShort } from '../lib/dates';
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

const BurnChart = lazy(() => import('./BurnChart'));
const HEIGHT = 220;

/** The burn chart's frame: its size, its summary for assistive technology, and its legend. */
function Burn({
  month: m,
  currency,
  summary,
  daysOff,
}: {
  month: Month;
  currency: string;
  summary: string;
  daysOff?: string | null;
}) {
  const points = useMemo(() => burnPoints(m), [m]);
  const [ref, width] = useWidth<HTMLDivElement>();
  const legend = [
    BURN_LOOK.spent,
    ...(m.forecast ? [BURN_LOOK.forecast, BURN_LOOK.range] : []),
    ...(m.budget ? [BURN_LOOK.budget] : []),
  ];
  return (
    <figure role="figure" aria-label={summary} className="m-0">
      <div ref={ref} style={{ height: HEIGHT }}>
        {width > 0 && (
          <Suspense fallback={null}>
            <BurnChart points={points} currency={currency} budget={m.budget?.budget} width={width} height={HEIGHT} />
          </Suspense>
        )}
      </div>
      <ul className="mt-1 flex flex-wrap justify-center gap-x-4 gap-y-1 text-xs text-fg-soft">
        {legend.map((l) => (
          <li key={l.label} className="flex items-center gap-1.5">
            <svg aria-hidden="true" width="16" height="10" className="shrink-0">
              {'opacity' in l ? (
                <rect width="16" height="10" rx="2" fill={l.color} fillOpacity={l.opacity * 2} />
              ) : (
                <line
                  x1="0"
                  x2="16"
                  y1="5"
                  y2="5"
                  stroke={l.color}
                  strokeWidth="2"
                  strokeDasharray={'dash' in l ? l.dash : undefined}
                />
              )}
            </svg>
            {l.label}
          </li>
        ))}
      </ul>
      {/* A running total over the calendar month, as its forecast and budget are: hiding the days off would
          make its line jump on Mondays and squeeze the month, so it keeps them, and says so. */}
      {daysOff && (
        <p className="mt-1 text-xs text-fg-subtle">
          The burn chart keeps every day, {daysOff} included: it is the month’s running total, and its forecast and
          budget run over calendar days.
        </p>
      )}
    </figure>
  );
}

/**
 * The month of the latest day: spent so far, the forecast to month end as a range, the budget's state,
 * and the burn chart (the month's running total, its forecast and the budget).
 */
export function MonthSpend({
  month: m,
  currency,
  method,
  budgets,
  daysOff,
}: {
  month: Month;
  currency: string;
  method: string;
  /** What is said of budgets instead of the month's own budget (a person's page: their teams'). */
  budgets?: React.ReactNode;
  /** The days off the daily charts hide, in words, while they do: the burn chart says it keeps them. */
  daysOff?: string | null;
}) {
  const money = (n: number) => formatMoney(n, currency);
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
          {budgets ?? (
            <>
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
            </>
          )}
        </div>
      </dl>
      <Burn
        month={m}
        currency={currency}
        daysOff={daysOff}
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
