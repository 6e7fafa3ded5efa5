import { useMemo, useState } from 'react';
import { DataTable, tableCsv } from '../../components/DataTable';
import { Segmented } from '../../components/Segmented';
import { TimeSeriesChart, seriesColor } from '../../components/TimeSeriesChart';
import { Widget, type WidgetSource } from '../../components/Widget';
import { formatDayLong } from '../../lib/dates';
import { AGENT_ONLY_CAVEAT, DEFINITIONS } from '../../lib/definitions';
import type { OutcomeWeek } from '../../lib/outcomes';
import { PARTIAL_NOTE, weekColumns, weekLabel } from './week-columns';

type Per = 'commit' | 'pr' | 'person';
type Unit = 'credits' | 'spend';

const FIGURES = {
  credits: {
    commit: ['creditsPerCommit', DEFINITIONS.creditsPerCommit],
    pr: ['creditsPerPr', DEFINITIONS.creditsPerPullRequest],
    person: ['creditsPerActive', DEFINITIONS.creditsPerActivePerson],
  },
  spend: {
    commit: ['spendPerCommit', DEFINITIONS.spendPerCommit],
    pr: ['spendPerPr', DEFINITIONS.spendPerPullRequest],
    person: ['spendPerActive', DEFINITIONS.spendPerActivePerson],
  },
} as const;

const PER_OPTIONS = [
  { id: 'commit', label: 'Per commit' },
  { id: 'pr', label: 'Per pull request' },
  { id: 'person', label: 'Per active person' },
] as const;

/** The caveat every ratio per commit or pull request carries, where it is read. */
export function AgentOnlyNote() {
  return (
    <p role="note" className="mb-2 text-xs text-fg-muted">
      {AGENT_ONLY_CAVEAT}
    </p>
  );
}

/**
 * A team's credits (and, with a price list, spend) per commit, per pull request and per active person, week
 * by week: a day's ratio is noise. Partial weeks are starred; the table view shows every figure of each week.
 */
export function OutcomeRatiosWidget({
  weeks,
  currency,
  name,
  filename,
}: {
  weeks: WidgetSource<OutcomeWeek[]>;
  currency: string | null;
  name: string;
  filename: string;
}) {
  const [per, setPer] = useState<Per>('commit');
  const [chosenUnit, setUnit] = useState<Unit>('credits');
  const [asTable, setAsTable] = useState(false);
  const unit = currency === null ? 'credits' : chosenUnit;
  const [key, definition] = FIGURES[unit][per];
  const columns = useMemo(() => weekColumns(currency), [currency]);
  const series = useMemo(() => [{ key: 'value', label: definition.label, color: seriesColor(2) }], [definition]);
  const d = weeks.data;
  const chart = useMemo(() => {
    if (!d) return null;
    const labels = new Map(d.map((w) => [w.week, weekLabel(w)]));
    return {
      points: d.map((w) => ({ date: w.week, value: w[key] })),
      xFormat: (x: string) => labels.get(x) ?? x,
    };
  }, [d, key]);
  return (
    <Widget
      title="Outcome ratios per week"
      description={`${definition.label}: ${definition.meaning} Each week of the range (UTC, from Monday).`}
      query={weeks}
      isEmpty={(ws) => ws.length === 0}
      csv={(ws) => ({ filename: `${filename}.csv`, ...tableCsv(columns, ws) })}
      actions={
        <>
          <Segmented size="xs" label="Ratio" options={PER_OPTIONS} value={per} onChange={setPer} />
          {currency !== null && (
            <Segmented
              size="xs"
              label="Amount"
              options={[
                { id: 'credits', label: 'Credits' },
                { id: 'spend', label: `Spend (${currency})` },
              ]}
              value={unit}
              onChange={setUnit}
            />
          )}
          <button
            type="button"
            aria-pressed={asTable}
            onClick={() => setAsTable((t) => !t)}
            className="rounded border border-line-strong px-2 py-1 text-xs font-medium text-fg-soft hover:bg-surface-muted"
            aria-label="Show Outcome ratios per week as a table"
          >
            Table
          </button>
        </>
      }
    >
      {(ws) => (
        <>
          <AgentOnlyNote />
          {asTable || !chart ? (
            <DataTable
              id="outcomeWeeks"
              caption={`Outcome ratios of ${name}, per week`}
              columns={columns}
              rows={ws}
              rowKey={(w) => w.week}
              defaultSort={{ column: 'week', dir: 'asc' }}
            />
          ) : (
            <TimeSeriesChart
              data={chart.points}
              series={series}
              kind="line"
              xFormat={chart.xFormat}
              xTooltipFormat={(x) => `Week of ${formatDayLong(x)}`}
              summary={`${definition.label} of ${name}, per week, from the week of ${formatDayLong(ws[0]!.week)} to that of ${formatDayLong(ws.at(-1)!.week)}; ${ws.filter((w) => w[key] === null).length} weeks without a figure.`}
            />
          )}
          {ws.some((w) => w.partial) && <p className="mt-2 text-xs text-fg-subtle">{PARTIAL_NOTE}</p>}
        </>
      )}
    </Widget>
  );
}
