import type { TeamSummaryRow } from '../../api/teams';
import { Change } from '../../components/Change';
import type { Column } from '../../components/DataTable';
import { labelled } from '../../lib/definitions';
import { measureOf } from '../../lib/measures';
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

type Ratio =
  'creditsPerActive' | 'creditsPerCommit' | 'creditsPerPr' | 'spendPerActive' | 'spendPerCommit' | 'spendPerPr';

/** Why a ratio has no value (its denominator is 0), by measure. */
const NONE: Record<Ratio, string> = {
  creditsPerActive: NO_ACTIVE,
  creditsPerCommit: NO_COMMITS,
  creditsPerPr: NO_PRS,
  spendPerActive: NO_ACTIVE,
  spendPerCommit: NO_COMMITS,
  spendPerPr: NO_PRS,
};

/** A ratio's change against the previous period, as the server's runner gives it, coloured by its good way. */
function ratioChange(r: TeamSummaryRow, m: Ratio) {
  const now = r.current[m];
  const before = r.previous?.[m] ?? null;
  if (r.previous === null) return <span className="text-fg-subtle">no earlier period</span>;
  if (now === null || before === null)
    return ratioCell(null, String, `none: ${now === null ? 'none in the range' : 'none in the previous period'}`);
  return <Change now={now} before={before} better={measureOf(m).definition.better} />;
}

/**
 * Outcome ratios by measure (lib/measures.ts), each followed by its change against the previous period: credits
 * per active person, per commit and per pull request; with a price list, spend per each (`currency`). Every value
 * and change is the summary's, computed once by the server's figures runner (Σ numerator ÷ Σ denominator).
 */
export function outcomeColumns(currency: string | null = null): Column<TeamSummaryRow>[] {
  const ratios: Ratio[] = currency
    ? ['spendPerActive', 'spendPerCommit', 'spendPerPr']
    : ['creditsPerActive', 'creditsPerCommit', 'creditsPerPr'];
  const money = currency ? moneyFormat(currency) : undefined;
  const exact = currency ? (n: number) => formatMoneyExact(n, currency) : formatExact;
  return ratios.flatMap((m): Column<TeamSummaryRow>[] => {
    const d = measureOf(m).definition;
    return [
      {
        id: m,
        ...labelled(d),
        value: (r) => r.current[m],
        numeric: true,
        ...(money && { format: money }),
        render: (r, format) => ratioCell(r.current[m], format, NONE[m], exact),
      },
      {
        id: `${m}Change`,
        header: `${d.label} change`,
        value: (r) => r.change?.[m] ?? null,
        numeric: true,
        render: (r) => ratioChange(r, m),
      },
    ];
  });
}
