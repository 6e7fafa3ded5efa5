import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import type { SpendAnswer } from '../api/spend';
import type { Column } from './DataTable';
import { Widget } from './Widget';
import { useAppConfig } from '../data/config';
import type { DayRange } from '../lib/dates';
import { Loading } from './states';
import { formatMoney, moneyFormat } from '../lib/money';
import { spendQuery } from '../data/spend';
import { useDaysOff } from './TimeSeriesWidget';

/**
 * The spend of the organization (no teams), of teams, or of one user, when the server has a price
 * list (`currency` in its configuration); without one, nothing is asked and nothing is shown.
 */
export function useSpend(range: DayRange, teams: readonly string[], opts: { user?: string; enabled?: boolean } = {}) {
  const { currency } = useAppConfig();
  const query = useQuery({
    ...spendQuery(range, teams, opts.user),
    placeholderData: keepPreviousData,
    enabled: currency !== null && opts.enabled !== false,
  });
  return { currency, query };
}

/** A table's spend column, in the price list's currency (null: no spend for that row). */
export function spendColumn<R>(currency: string, value: (r: R) => number | null): Column<R> {
  return {
    id: 'spend',
    header: `Spend (${currency})`,
    value,
    numeric: true,
    // One format for the whole column: cents in every cell, or whole units in every cell.
    format: moneyFormat(currency),
  };
}

/** A KPI card's figure: the range's spend, against the previous period. */
export function spendKpi(currency: string, s: SpendAnswer | undefined) {
  return {
    label: 'Spend',
    value: s?.spend,
    previous: s?.previous?.spend ?? (s ? null : undefined),
    format: (n: number) => formatMoney(n, currency),
  };
}

// The month's figures and burn chart are drawn after the page's first chart: their code is not in the first bundle.
const MonthSpend = lazy(() => import('./MonthSpend').then((m) => ({ default: m.MonthSpend })));

const monthName = (m: string) =>
  new Date(`${m}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The month of the latest day, with its forecast, budget and burn chart. */
export function MonthSpendWidget({
  query,
  who,
  budgets,
}: {
  query: ReturnType<typeof useSpend>['query'];
  /** Whose spend: "the organization", a team's name, a person. */
  who: string;
  /** What is said of budgets instead of the answer's own (a person's: their teams'). */
  budgets?: React.ReactNode;
}) {
  const m = query.data?.month;
  const off = useDaysOff();
  return (
    <Widget
      title={m ? `Spend in ${monthName(m.month)}` : 'Spend this month'}
      description={`Month to date for ${who}, the forecast to month end, and ${budgets ? 'the team budgets that cover them' : 'the monthly budget'}.`}
      query={query}
      csv={(s) => ({
        filename: `spend-${s.month.month}`,
        header: ['date', `spend_${s.currency.toLowerCase()}`],
        rows: s.month.days.map((d) => [d.date, Number(d.spend.toFixed(2))]),
      })}
    >
      {(s) => (
        <Suspense fallback={<Loading />}>
          <MonthSpend
            month={s.month}
            currency={s.currency}
            method={s.method}
            budgets={budgets}
            daysOff={off.hidden ? off.days : null}
          />
        </Suspense>
      )}
    </Widget>
  );
}
