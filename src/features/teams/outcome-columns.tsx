import type { TeamSpendRow } from '../../api/spend';
import type { TeamSummaryRow } from '../../api/teams';
import type { Column } from '../../components/DataTable';
import {
  DEFINITIONS,
  labelled,
  perCommit,
  perPullRequest,
  spendPerActivePerson,
  type Definition,
} from '../../lib/definitions';
import { formatExact } from '../../lib/format';
import { formatMoneyExact, moneyFormat } from '../../lib/money';

/**
 * A ratio's cell: its value, or "—" when there is nothing to divide by (a team with no commits through the
 * agent has no credits per commit: not infinity, not zero), said in words on hover and to a screen reader.
 */
export function ratioCell(
  value: number | null,
  format: (n: number) => string,
  none: string,
  exact: (n: number) => string = formatExact,
) {
  return value === null ? (
    <span className="text-fg-subtle" title={none}>
      <span aria-hidden>—</span>
      <span className="sr-only">{none}</span>
    </span>
  ) : (
    <span title={exact(value)}>{format(value)}</span>
  );
}

const NO_COMMITS = 'none: no commits through the agent';
const NO_PRS = 'none: no pull requests through the agent';
const NO_ACTIVE = 'none: nobody active';

/** Credits per commit and per pull request over the range (Σ credits ÷ Σ commits, lib/definitions.ts). */
export function outcomeColumns(): Column<TeamSummaryRow>[] {
  const perCommitOf = (r: TeamSummaryRow) => perCommit(r.current.credits, r.current.commits);
  const perPrOf = (r: TeamSummaryRow) => perPullRequest(r.current.credits, r.current.prs);
  return [
    {
      id: 'creditsPerCommit',
      ...labelled(DEFINITIONS.creditsPerCommit),
      value: perCommitOf,
      numeric: true,
      render: (r, format) => ratioCell(perCommitOf(r), format, NO_COMMITS),
    },
    {
      id: 'creditsPerPr',
      ...labelled(DEFINITIONS.creditsPerPullRequest),
      value: perPrOf,
      numeric: true,
      render: (r, format) => ratioCell(perPrOf(r), format, NO_PRS),
    },
  ];
}

/** With a price list: spend per active person, per commit and per pull request, from each team's spend row. */
export function spendOutcomeColumns(
  currency: string,
  spendOf: (team: string) => TeamSpendRow | undefined,
): Column<TeamSummaryRow>[] {
  const money = moneyFormat(currency);
  const exact = (n: number) => formatMoneyExact(n, currency);
  const of = (f: (spend: number, r: TeamSummaryRow) => number | null) => (r: TeamSummaryRow) => {
    const s = spendOf(r.team);
    return s === undefined ? null : f(s.spend, r);
  };
  const make = (
    id: string,
    d: Definition,
    value: (r: TeamSummaryRow) => number | null,
    none: string,
  ): Column<TeamSummaryRow> => ({
    id,
    ...labelled(d),
    value,
    numeric: true,
    format: money,
    render: (r, format) => ratioCell(value(r), format, spendOf(r.team) ? none : 'no spend figure for this team', exact),
  });
  return [
    make(
      'spendPerActive',
      DEFINITIONS.spendPerActivePerson,
      of((s, r) => spendPerActivePerson(s, r.current.active)),
      NO_ACTIVE,
    ),
    make(
      'spendPerCommit',
      DEFINITIONS.spendPerCommit,
      of((s, r) => perCommit(s, r.current.commits)),
      NO_COMMITS,
    ),
    make(
      'spendPerPr',
      DEFINITIONS.spendPerPullRequest,
      of((s, r) => perPullRequest(s, r.current.prs)),
      NO_PRS,
    ),
  ];
}
