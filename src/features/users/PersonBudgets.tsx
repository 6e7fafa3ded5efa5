/**
 * The team budgets that apply to a person, on their page: apart from the spend widgets the pages share
 * (components/SpendWidgets.tsx), whose code the landing page carries.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import type { TeamSpendRow } from '../../api/spend';
import { ApiError } from '../../api/errors';
import { BudgetBadge } from '../../components/MonthSpend';
import { useAppConfig } from '../../data/config';
import { useReader } from '../../data/me';
import { useLinkTo } from '../../data/search';
import { teamsSpendQuery } from '../../data/spend';
import type { DayRange } from '../../lib/dates';
import { formatMoney } from '../../lib/money';

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
