import type { Column } from '../../components/DataTable';
import { formatDayLong, formatDayShort } from '../../lib/dates';
import { DEFINITIONS, labelled, type Definition } from '../../lib/definitions';
import { formatCompact, type NumberFormat } from '../../lib/format';
import { moneyFormat } from '../../lib/money';
import type { OutcomeWeek } from '../../lib/outcomes';
import { ratio } from './columns';
import { ratioCell } from './outcome-columns';

/** "Wk May 4", with a star for a week the range cuts. */
export const weekLabel = (w: { week: string; partial: boolean }) =>
  `Wk ${formatDayShort(w.week)}${w.partial ? '*' : ''}`;

export const PARTIAL_NOTE =
  '* A partial week: the range holds only some of its days; its sums are of those days, and its active people are not known (a week’s distinct people are known once it ends).';

const none = (what: string) => `none: ${what}`;

/** One row per week: the sums and the ratios (with a price list, the spend's too); the CSV's columns as well. */
export function weekColumns(currency: string | null): Column<OutcomeWeek>[] {
  const money: NumberFormat = currency ? moneyFormat(currency) : formatCompact;
  const ratioColumn = (
    id: keyof OutcomeWeek & string,
    header: { header: string; definition?: Definition },
    missing: string,
    format: NumberFormat = formatCompact,
  ): Column<OutcomeWeek> => ({
    id,
    ...header,
    value: (w) => w[id] as number | null,
    numeric: true,
    format,
    render: (w, inColumn) => ratioCell(w[id] as number | null, inColumn, none(missing), format.exact),
  });
  return [
    {
      id: 'week',
      header: 'Week of',
      value: (w) => w.week,
      render: (w) => (
        <span className="whitespace-nowrap">
          {formatDayLong(w.week)}
          {w.partial && <span className="text-fg-subtle"> (partial: {w.days} of 7 days)</span>}
        </span>
      ),
    },
    { id: 'days', header: 'Days', value: (w) => w.days, numeric: true },
    { id: 'credits', header: 'Credits', value: (w) => w.credits, numeric: true },
    { id: 'commits', header: 'Commits', value: (w) => w.commits, numeric: true },
    { id: 'prs', header: 'Pull requests', value: (w) => w.prs, numeric: true },
    ratioColumn('active', labelled(DEFINITIONS.activePeople), 'a partial week'),
    ratioColumn('creditsPerCommit', labelled(DEFINITIONS.creditsPerCommit), 'no commits through the agent'),
    ratioColumn('creditsPerPr', labelled(DEFINITIONS.creditsPerPullRequest), 'no pull requests through the agent'),
    ratioColumn('creditsPerActive', labelled(DEFINITIONS.creditsPerActivePerson), 'a partial week, or nobody active'),
    ratioColumn('toolCallsPerTurn', labelled(DEFINITIONS.toolCallsPerTurn), 'no user turns', ratio),
    ...(currency === null
      ? []
      : [
          {
            id: 'spend',
            header: `Spend (${currency})`,
            value: (w: OutcomeWeek) => w.spend,
            numeric: true,
            format: money,
          },
          ratioColumn('spendPerCommit', labelled(DEFINITIONS.spendPerCommit), 'no commits through the agent', money),
          ratioColumn(
            'spendPerPr',
            labelled(DEFINITIONS.spendPerPullRequest),
            'no pull requests through the agent',
            money,
          ),
          ratioColumn(
            'spendPerActive',
            labelled(DEFINITIONS.spendPerActivePerson),
            'a partial week, or nobody active',
            money,
          ),
        ]),
  ];
}
