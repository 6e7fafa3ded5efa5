import type { TeamSpendRow } from '../../api/spend';
import type { TeamSummaryRow } from '../../api/teams';
import type { Column } from '../../components/DataTable';
import { BudgetBadge, budgetSentence } from '../../components/MonthSpend';
import { spendColumn } from '../../components/SpendWidgets';
import { perCommit, perPullRequest, spendPerActivePerson } from '../../lib/definitions';
import { formatMoney, moneyFormat } from '../../lib/money';

const STATE_ORDER = { 'on-track': 0, 'at-risk': 1, over: 2 } as const;

/**
 * The teams table's spend columns, from each team's spend row (`/api/spend/teams`): spend in the range,
 * the budget's state (sorted on track → at risk → over, teams without a budget last), month to date and
 * the forecast to month end (its middle; the range on hover). Spend and budget come first: the teams page
 * puts them right after the credits, beside the team's name.
 */
export function spendColumns(
  currency: string,
  spendOf: (team: string) => TeamSpendRow | undefined,
): Column<TeamSummaryRow>[] {
  const money = (n: number) => formatMoney(n, currency);
  const format = moneyFormat(currency);
  return [
    spendColumn<TeamSummaryRow>(currency, (r) => spendOf(r.team)?.spend ?? null),
    {
      id: 'budget',
      header: 'Budget',
      numeric: true,
      value: (r) => {
        const b = spendOf(r.team)?.month.budget;
        return b ? STATE_ORDER[b.state] : null;
      },
      render: (r) => {
        const b = spendOf(r.team)?.month.budget;
        return b ? (
          <span className="flex items-center justify-end gap-1.5 tabular-nums" title={budgetSentence(b, currency)}>
            {money(b.budget)} <BudgetBadge status={b} currency={currency} />
          </span>
        ) : (
          <span className="text-fg-subtle">none</span>
        );
      },
    },
    {
      id: 'monthToDate',
      header: 'Month to date',
      value: (r) => spendOf(r.team)?.month.monthToDate ?? null,
      numeric: true,
      format,
    },
    {
      id: 'forecast',
      header: 'Month forecast',
      value: (r) => spendOf(r.team)?.month.forecast?.mid ?? null,
      numeric: true,
      format,
      render: (r, inColumn) => {
        const f = spendOf(r.team)?.month.forecast;
        return f ? (
          <span className="tabular-nums" title={`${money(f.low)} – ${money(f.high)}; most likely ${money(f.mid)}`}>
            {inColumn(f.mid)}
          </span>
        ) : (
          '–'
        );
      },
    },
  ];
}

/** The spend columns of the teams CSV: amounts to the cent, the forecast's three figures, the budget and its state. */
export function spendCsv(currency: string, spendOf: (team: string) => TeamSpendRow | undefined) {
  const cur = currency.toLowerCase();
  const cents = (n: number | undefined) => (n === undefined ? undefined : Number(n.toFixed(2)));
  return {
    header: [
      `spend_${cur}`,
      `month_to_date_${cur}`,
      `forecast_low_${cur}`,
      `forecast_mid_${cur}`,
      `forecast_high_${cur}`,
      `monthly_budget_${cur}`,
      'budget_state',
      'budget_crossing',
      `spend_per_active_user_${cur}`,
      `spend_per_commit_${cur}`,
      `spend_per_pull_request_${cur}`,
    ],
    cells: (r: TeamSummaryRow) => {
      const s = spendOf(r.team);
      const f = s?.month.forecast;
      const b = s?.month.budget;
      return [
        cents(s?.spend),
        cents(s?.month.monthToDate),
        cents(f?.low),
        cents(f?.mid),
        cents(f?.high),
        cents(b?.budget),
        b?.state,
        b?.crossing ?? undefined,
        ...(s
          ? [
              spendPerActivePerson(s.spend, r.current.active),
              perCommit(s.spend, r.current.commits),
              perPullRequest(s.spend, r.current.prs),
            ]
          : []),
      ];
    },
  };
}
