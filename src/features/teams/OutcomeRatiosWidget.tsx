import { useCallback, useMemo, useState } from 'react';
import { AddMarkButton, ChartMarkPanel } from '../../components/ChartMarkAdd';
import { MarksLink, MarksList } from '../../components/ChartMarks';
import { DataTable } from '../../components/DataTable';
import { Segmented } from '../../components/Segmented';
import { TimeSeriesChart, seriesColor, type ValueFormat } from '../../components/TimeSeriesChart';
import { Widget, type WidgetSource } from '../../components/Widget';
import { useSearchParam } from '../../data/search';
import { formatDayLong } from '../../lib/dates';
import { AGENT_ONLY_CAVEAT, DEFINITIONS } from '../../lib/definitions';
import { formatCompact } from '../../lib/format';
import { formatMoney, formatMoneyAxis } from '../../lib/money';
import type { OutcomeWeek } from '../../lib/outcomes';
import { PARTIAL_NOTE, weekColumns } from './week-columns';
import { useWeeklyChart } from './weekly-chart';
import { TableToggle } from '../../components/TableToggle';

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

/** Credits as the dashboard writes them everywhere (the tables, the cards): "15.7K", exact under 10,000. */
const CREDITS: ValueFormat = { axis: formatCompact, value: formatCompact };
const moneyFormats = new Map<string, ValueFormat>();
/** Amounts in the price list's currency: "$1.5K" on the axis, "$1,532" or "$12.34" in the tooltip. */
function money(currency: string): ValueFormat {
  let f = moneyFormats.get(currency);
  if (!f) {
    f = { axis: (n) => formatMoneyAxis(n, currency), value: (n) => formatMoney(n, currency) };
    moneyFormats.set(currency, f);
  }
  return f;
}

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
 * by week: a day's ratio is noise. The organization's line for the same ratio beside it (when the reader sees the
 * organization's figures), partial weeks starred and shaded, the marks of the team's charts on their weeks, and
 * the choices in the URL (`per`, `amount`); the table view shows every figure of each week.
 */
export function OutcomeRatiosWidget({
  weeks,
  organization,
  currency,
  team,
  name,
  filename,
}: {
  weeks: WidgetSource<OutcomeWeek[]>;
  /** The organization's weeks, for its line; none when the reader does not see the organization's figures. */
  organization: WidgetSource<OutcomeWeek[]> | null;
  currency: string | null;
  /** The team's path: its marks, and the scope of a mark added here. */
  team: string;
  name: string;
  filename: string;
}) {
  const [per, setPer] = useSearchParam('per');
  const [chosenUnit, setUnit] = useSearchParam('amount');
  const [asTable, setAsTable] = useState(false);
  const unit = currency === null ? 'credits' : chosenUnit;
  const [key, definition] = FIGURES[unit][per];
  const columns = useMemo(() => weekColumns(currency), [currency]);
  const org = organization?.data;
  const series = useMemo(
    () => [
      { key: 'value', label: name, color: seriesColor(2) },
      ...(org ? [{ key: 'org', label: 'Whole organization', color: seriesColor(1) }] : []),
    ],
    [name, org],
  );
  const d = weeks.data;
  const orgOf = useMemo(() => new Map((org ?? []).map((w) => [w.week, w[key]])), [org, key]);
  const point = useCallback(
    (w: OutcomeWeek) => ({ value: w[key], ...(org && { org: orgOf.get(w.week) ?? null }) }),
    [key, org, orgOf],
  );
  const teams = useMemo(() => [team], [team]);
  const { chart, placed, adder, csv } = useWeeklyChart(d, point, teams);
  const format = unit === 'spend' && currency ? money(currency) : CREDITS;
  const title = 'Outcome ratios per week';
  return (
    <Widget
      title={title}
      description={`${definition.label}: ${definition.meaning} Each week of the range (UTC, from Monday), beside the whole organization's.`}
      query={weeks}
      isEmpty={(ws) => ws.length === 0}
      csv={(ws) => csv(filename, columns, ws)}
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
          <AddMarkButton adder={adder} chart={title} last={d?.at(-1)?.week} />
          <TableToggle what="Outcome ratios per week" pressed={asTable} onChange={setAsTable} />
        </>
      }
    >
      {(ws) => (
        <>
          <AgentOnlyNote />
          {asTable || !chart ? (
            <>
              <DataTable
                id="outcomeWeeks"
                caption={`Outcome ratios of ${name}, per week`}
                columns={columns}
                rows={ws}
                rowKey={(w) => w.week}
                defaultSort={{ column: 'week', dir: 'asc' }}
              />
              <MarksList placed={placed} />
              <MarksLink />
            </>
          ) : (
            <TimeSeriesChart
              data={chart.points}
              series={series}
              kind="line"
              xFormat={chart.xFormat}
              xTooltipFormat={chart.tooltip}
              format={format}
              shaded={chart.partial}
              marks={placed}
              onPick={adder.pick}
              summary={`${definition.label} of ${name}, per week${org ? ', beside the whole organization’s' : ''}, from the week of ${formatDayLong(ws[0]!.week)} to that of ${formatDayLong(ws.at(-1)!.week)}; ${ws.filter((w) => w[key] === null).length} weeks without a figure${placed.length > 0 ? `; ${placed.length} mark${placed.length === 1 ? '' : 's'}` : ''}.`}
            />
          )}
          <ChartMarkPanel adder={adder} chart={title} weekly />
          {ws.some((w) => w.partial) && <p className="mt-2 text-xs text-fg-subtle">{PARTIAL_NOTE}</p>}
          {organization?.status === 'error' && (
            <p className="mt-2 text-xs text-fg-subtle">The organization’s line could not be read: it is left out.</p>
          )}
        </>
      )}
    </Widget>
  );
}
