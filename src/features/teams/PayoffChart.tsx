import { useMemo, useState } from 'react';
import { DataTable, type Column } from '../../components/DataTable';
import type { ChartMarker } from '../../components/chart-frame';
import { MarksList, placeMarks } from '../../components/ChartMarks';
import { Segmented } from '../../components/Segmented';
import { useChartMarks } from '../../data/marks';
import { TimeSeriesChart, seriesColor } from '../../components/TimeSeriesChart';
import { formatDayLong, weekStart } from '../../lib/dates';
import { DEFINITIONS } from '../../lib/definitions';
import type { OutcomeWeek } from '../../lib/outcomes';
import type { LevelChange } from '../../lib/payoff';
import { shortRepo } from './payoff-shaping';
import { weekColumns, weekLabel } from './week-columns';

type Figure = 'toolCallsPerTurn' | 'creditsPerCommit' | 'creditsPerPr' | 'active';
const FIGURES = [
  { id: 'toolCallsPerTurn', label: DEFINITIONS.toolCallsPerTurn.label },
  { id: 'creditsPerCommit', label: DEFINITIONS.creditsPerCommit.label },
  { id: 'creditsPerPr', label: DEFINITIONS.creditsPerPullRequest.label },
  { id: 'active', label: DEFINITIONS.activePeople.label },
] as const;

const changeText = (c: LevelChange) =>
  `${shortRepo(c.repo)} ${c.direction === 'rise' ? 'rose' : 'fell'} ${c.from} → ${c.to} (${formatDayLong(c.day)})`;

/**
 * The team's weekly figures with each level change marked on its week, and the marks of its charts (a training, a
 * rollout) on theirs; the table view lists the changes of each week beside its figures, and the marks under it.
 */
export function PayoffChart({
  weeks,
  changes,
  markers,
  team,
  name,
  asTable,
}: {
  weeks: readonly OutcomeWeek[];
  changes: readonly LevelChange[];
  markers: readonly ChartMarker[];
  /** The team's path: the marks of its charts. */
  team: string;
  name: string;
  asTable: boolean;
}) {
  const [figure, setFigure] = useState<Figure>('toolCallsPerTurn');
  const label = FIGURES.find((f) => f.id === figure)!.label;
  const series = useMemo(() => [{ key: 'value', label, color: seriesColor(0) }], [label]);
  const chart = useMemo(() => {
    const labels = new Map(weeks.map((w) => [w.week, weekLabel(w)]));
    return {
      points: weeks.map((w) => ({ date: w.week, value: w[figure] })),
      xFormat: (x: string) => labels.get(x) ?? x,
    };
  }, [weeks, figure]);
  const teams = useMemo(() => [team], [team]);
  const marks = useChartMarks(teams);
  const placed = useMemo(() => placeMarks(marks, chart.points, true), [marks, chart]);
  const columns = useMemo<Column<OutcomeWeek>[]>(() => {
    const byWeek = (w: OutcomeWeek) => changes.filter((c) => weekStart(c.day) === w.week);
    const all = weekColumns(null).filter((c) =>
      ['week', 'days', 'toolCallsPerTurn', 'creditsPerCommit', 'creditsPerPr', 'active'].includes(c.id),
    );
    return [
      ...all,
      {
        id: 'changes',
        header: 'Level changes',
        value: (w) => byWeek(w).map(changeText).join('; ') || null,
        render: (w) => byWeek(w).map(changeText).join('; ') || <span className="text-fg-subtle">—</span>,
      },
    ];
  }, [changes]);
  if (asTable)
    return (
      <>
        <DataTable
          id="payoffWeeks"
          caption={`Weekly figures of ${name}, with its repositories' level changes`}
          columns={columns}
          rows={weeks}
          rowKey={(w) => w.week}
          defaultSort={{ column: 'week', dir: 'asc' }}
        />
        <MarksList placed={placed} />
      </>
    );
  return (
    <div>
      <Segmented size="xs" label="Figure" options={FIGURES} value={figure} onChange={setFigure} />
      <TimeSeriesChart
        data={chart.points}
        series={series}
        kind="line"
        xFormat={chart.xFormat}
        xTooltipFormat={(x) => `Week of ${formatDayLong(x)}`}
        markers={markers}
        marks={placed}
        summary={`${label} of ${name} per week, with ${markers.length} week${markers.length === 1 ? '' : 's'} of level changes marked: ${changes.map(changeText).join('; ') || 'none'}.`}
      />
    </div>
  );
}
