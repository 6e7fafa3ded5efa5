import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import type { SpendAnswer, TeamSpendRow } from '../api/spend';
import type { Column } from './DataTable';
import { Widget } from './Widget';
import { useAppConfig } from '../data/config';
import { useReader } from '../data/me';
import { ApiError } from '../api/errors';
import type { DayRange } from '../lib/dates';
import { BudgetBadge, MonthSpend } from './MonthSpend';
import { formatMoney, moneyFormat } from '../lib/money';
import { spendQuery, teamsSpendQuery } from '../data/spend';
import { useLinkTo } from '../data/search';
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
        <MonthSpend
          month={s.month}
          currency={s.currency}
          method={s.method}
          budgets={budgets}
          daysOff={off.hidden ? off.days : null}
        />
      )}
    </Widget>
  );
}

const depth = (team: string) => (team === '' ? 0 : team.split('/').length);

/**
 * The budgets that cover a person of `team`: their team's, its parent teams' (a budget covers sub-teams)
 * and the organization's, the nearest first.
 */
export function coveringBudgets(rows: readonly TeamSpendRow[], team: string): TeamSpendRow[] {
  return rows
    .filter((r) => r.month.budget && (r.team === '' || r.team === team || team.startsWith(`${r.team}/`)))
    .sort((a, b) => depth(b.team) - depth(a.team));
}

/**
 * Budgets are set per team, not per person: what applies to a person is the budgets of their team and of
 * the teams above it, each with its state (the team's spend against it), or that none covers them.
 */
export function PersonBudgets({
  range,
  team,
  who,
}: {
  range: DayRange;
  /** The person's team by the mapping in force; null without one; undefined while not known yet. */
  team: string | null | undefined;
  who: string;
}) {
  const { currency, teams } = useAppConfig();
  const reader = useReader();
  const linkTo = useLinkTo();
  // The teams' spend and budgets are for admins and managers: a viewer (on their own page) is told where they live.
  const viewer = reader?.role === 'viewer';
  const spend = useQuery({
    ...teamsSpendQuery(range),
    placeholderData: keepPreviousData,
    enabled: currency !== null && teams && typeof team === 'string' && !viewer,
  });
  const dd = 'text-xs text-fg-subtle';
  if (!currency) return null;
  const refused = spend.error instanceof ApiError && spend.error.status === 403;
  if (team === null || !teams || viewer || refused)
    return (
      <>
        <dt className="text-fg-subtle">Budget</dt>
        <dd className="text-fg-muted">
          {team === null || !teams
            ? 'Budgets are set per team; without a team mapping none applies to a person.'
            : 'Budgets are set per team, and shown to admins and the team’s managers.'}
        </dd>
      </>
    );
  const covering = spend.data && team ? coveringBudgets(spend.data.rows, team) : undefined;
  return (
    <>
      <dt className="text-fg-subtle">Team budgets</dt>
      {spend.isError ? (
        <dd className="text-danger">The team budgets could not be read.</dd>
      ) : !covering ? (
        <dd className="text-fg-muted">Reading the team budgets…</dd>
      ) : covering.length === 0 ? (
        <dd className="text-fg-muted">
          Budgets are set per team; none covers {team}
          {team === 'Unassigned' ? ' (the people no team names)' : ''}.{' '}
          <Link to={linkTo('/settings/budgets')} className="text-accent-strong underline">
            Budgets
          </Link>
        </dd>
      ) : (
        <>
          {covering.map((r) => (
            <dd key={r.team} className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
              <Link
                to={linkTo(r.team === '' ? '/' : `/teams/${r.team.split('/').map(encodeURIComponent).join('/')}`)}
                className="text-accent-strong underline"
              >
                {r.team === '' ? 'Whole organization' : r.team}
              </Link>
              <span className="tabular-nums">{formatMoney(r.month.budget!.budget, currency)} a month</span>
              <BudgetBadge status={r.month.budget!} currency={currency} />
            </dd>
          ))}
          <dd className={dd}>
            Budgets are set per team, sub-teams included: each state is the team’s spend against its budget; {who}’s own
            spend is above.
          </dd>
        </>
      )}
    </>
  );
}
