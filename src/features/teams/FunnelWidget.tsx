import { useMemo, useState } from 'react';
import type { FiguresAnswer } from '../../api/figures';
import { AddMarkButton, ChartMarkPanel } from '../../components/ChartMarkAdd';
import { MarksLink, MarksList } from '../../components/ChartMarks';
import { DataTable } from '../../components/DataTable';
import { TimeSeriesChart, seriesColor } from '../../components/TimeSeriesChart';
import { Widget, type WidgetSource } from '../../components/Widget';
import { addDays, formatDayLong, HISTORY_START, type Day, type DayRange } from '../../lib/dates';
import { DEFAULT_GRACE_DAYS, STEPS } from '../../lib/funnel';
import { funnelColumns, funnelRows, STEP_DEFINITION, type FunnelRow } from './funnel';
import { useWeeklyChart } from './weekly-chart';
import { TableToggle } from '../../components/TableToggle';

type Cohort = FunnelRow & { week: Day; partial: boolean };

const sharesOf = (w: Cohort) => w.share;
const startersOf = (week: Day) => `Starters of the week of ${formatDayLong(week)}`;

const SERIES = STEPS.map((s, i) => ({ key: s, label: STEP_DEFINITION[s].label, color: seriesColor(i) }));

const COLUMNS = funnelColumns<Cohort>({
  id: 'week',
  header: 'Starters of the week of',
  value: (w) => w.key,
  render: (w) => (
    <span className="whitespace-nowrap">
      {formatDayLong(w.key)}
      {w.partial && <span className="text-fg-subtle"> (partial)</span>}
    </span>
  ),
});

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * From access to a first pull request, per weekly cohort of starters (lib/funnel.ts): the share of each week's
 * starters reaching a first session, commit and pull request within four weeks and still active after them, a line a
 * step; a table view (with the median days to each step) and its CSV, the scope's marks on their weeks, the starters
 * in grace counted apart and the cohorts privacy mode withholds said so. It lists no one.
 */
export function FunnelWidget({
  answer,
  range,
  teams,
  name,
  filename,
}: {
  answer: WidgetSource<FiguresAnswer>;
  range: DayRange;
  /** The teams whose marks are drawn and to which a mark added here goes (none: the organization). */
  teams: readonly string[];
  name: string;
  filename: string;
}) {
  const [asTable, setAsTable] = useState(false);
  const a = answer.data;
  const cohorts = useMemo(
    () =>
      a
        ? funnelRows(a).map((r) => ({
            ...r,
            week: r.key,
            partial: r.key < range.start || addDays(r.key, 6) > range.end,
          }))
        : undefined,
    [a, range],
  );
  const { chart, placed, adder, csv } = useWeeklyChart(cohorts, sharesOf, teams, startersOf);
  const grace = a?.funnel?.graceDays ?? DEFAULT_GRACE_DAYS;
  const minStarters = a?.funnel?.minStarters ?? 1;
  const title = 'From access to a first pull request';
  const source: WidgetSource<Cohort[]> = { ...answer, data: cohorts };
  return (
    <Widget
      title={title}
      description={`Of ${name}'s starters of each week (their access day in it: the mapping's since, else the first day named or seen), the share who had a first session, commit and pull request through the agent within four weeks of access, and who were still active in the fifth week; over the starters whose window has ended by ${formatDayLong(range.end)}.`}
      query={source}
      isEmpty={(ws) => ws.length === 0}
      csv={(ws) => csv(filename, COLUMNS, ws)}
      actions={
        <>
          <AddMarkButton adder={adder} chart={title} last={cohorts?.at(-1)?.key} />
          <TableToggle what={title} pressed={asTable} onChange={setAsTable} />
        </>
      }
    >
      {(ws) => {
        const starters = ws.reduce((n, w) => n + (w.starters ?? 0), 0);
        const inGrace = ws.reduce((n, w) => n + (w.grace ?? 0), 0);
        const withheld = ws.filter((w) => w.withheld).length;
        // Weeks with starters none of whose four weeks have ended: no share yet, which an empty chart does not say.
        const unripe = ws.filter((w) => !w.withheld && (w.starters ?? 0) > 0 && w.due === 0).length;
        // Privacy mode gives no shares of a week only part of whose starters are four weeks in: a group of its own.
        const split = ws.filter((w) => !w.withheld && (w.starters ?? 0) > 0 && w.due === null).length;
        return (
          <>
            {asTable || !chart ? (
              <>
                <DataTable
                  id="funnelWeeks"
                  caption={`From access to a first pull request, ${name}, per weekly cohort`}
                  columns={COLUMNS}
                  rows={ws}
                  rowKey={(w) => w.key}
                  defaultSort={{ column: 'week', dir: 'asc' }}
                />
                <MarksList placed={placed} />
                <MarksLink />
              </>
            ) : (
              <TimeSeriesChart
                data={chart.points}
                series={SERIES}
                kind="line"
                percent
                xFormat={chart.xFormat}
                xTooltipFormat={chart.tooltip}
                marks={placed}
                onPick={adder.pick}
                summary={`Of ${name}'s ${plural(starters, 'starter')} from the week of ${formatDayLong(ws[0]!.key)} to that of ${formatDayLong(ws.at(-1)!.key)}, the share reaching each step per weekly cohort${withheld > 0 ? `; ${plural(withheld, 'week')} withheld` : ''}${placed.length > 0 ? `; ${plural(placed.length, 'mark')}` : ''}.`}
              />
            )}
            <ChartMarkPanel adder={adder} chart={title} weekly />
            <ul className="mt-2 space-y-1 text-xs text-fg-muted">
              <li>
                {plural(inGrace, 'starter')} of {starters.toLocaleString('en-US')} still within {grace} days of access
                {inGrace === 1 ? ' is' : ' are'} in grace: new, not lagging, and counted apart until it ends.
              </li>
              {unripe > 0 && (
                <li>
                  {plural(unripe, 'week')} of starters {unripe === 1 ? 'has' : 'have'} no shares yet: their four weeks
                  end after {formatDayLong(range.end)}.
                </li>
              )}
              <li>
                People there on {formatDayLong(HISTORY_START)}, the history’s first day, came before it: they are no
                starters.
              </li>
              {split > 0 && (
                <li>
                  {plural(split, 'week')} of starters {split === 1 ? 'gives' : 'give'} no shares in privacy mode: only
                  some of {split === 1 ? 'its' : 'their'} starters are four weeks in by {formatDayLong(range.end)}.
                </li>
              )}
              {withheld > 0 && (
                <li>
                  {plural(withheld, 'week')} of {ws.length} withheld: privacy mode shows no cohort of fewer than{' '}
                  {minStarters} starters, nor one that the teams’ and the other weeks’ figures would tell by difference.
                </li>
              )}
            </ul>
          </>
        );
      }}
    </Widget>
  );
}
