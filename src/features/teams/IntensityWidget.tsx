import { useMemo, useState } from 'react';
import type { FiguresAnswer } from '../../api/figures';
import { AddMarkButton, ChartMarkPanel } from '../../components/ChartMarkAdd';
import { MarksLink, MarksList } from '../../components/ChartMarks';
import { DataTable, type Column } from '../../components/DataTable';
import { TimeSeriesChart, seriesColor } from '../../components/TimeSeriesChart';
import { Widget, type WidgetSource } from '../../components/Widget';
import { formatDayLong, type DayRange } from '../../lib/dates';
import { DEFINITIONS, INTENSITY_CAVEAT, labelled } from '../../lib/definitions';
import { formatCompact, formatPercent } from '../../lib/format';
import { BANDS, MIN_ACTIVE, type Band } from '../../lib/intensity';
import { RefreshThresholds } from './RefreshThresholds';
import { intensityWeeks, thresholdsText, type IntensityWeek } from './intensity';
import { useWeeklyChart } from './weekly-chart';
import { TableToggle } from '../../components/TableToggle';

/** Each band's definition and colour, heaviest first; None in the grey the charts keep for what is left over. */
export const BAND_STYLE: Record<Band, { definition: (typeof DEFINITIONS)[keyof typeof DEFINITIONS]; color: string }> = {
  heavy: { definition: DEFINITIONS.intensityHeavy, color: seriesColor(0) },
  moderate: { definition: DEFINITIONS.intensityModerate, color: seriesColor(1) },
  light: { definition: DEFINITIONS.intensityLight, color: seriesColor(2) },
  minimal: { definition: DEFINITIONS.intensityMinimal, color: seriesColor(3) },
  none: { definition: DEFINITIONS.intensityNone, color: seriesColor(7) },
};

const SERIES = BANDS.map((b) => ({ key: b, label: BAND_STYLE[b].definition.label, color: BAND_STYLE[b].color }));

/** The table view's (and the CSV's) columns: each week's people, then each band's share and count. */
function intensityColumns(): Column<IntensityWeek>[] {
  return [
    {
      id: 'week',
      header: 'Week of',
      value: (w) => w.week,
      render: (w) => (
        <span className="whitespace-nowrap">
          {formatDayLong(w.week)}
          {w.partial && <span className="text-fg-subtle"> (partial)</span>}
        </span>
      ),
    },
    { id: 'members', ...labelled(DEFINITIONS.members), value: (w) => w.members, numeric: true },
    { id: 'active', header: 'Active in the four weeks', value: (w) => w.active, numeric: true },
    ...BANDS.flatMap((b): Column<IntensityWeek>[] => [
      {
        id: `${b}Share`,
        header: `${BAND_STYLE[b].definition.label} (share)`,
        definition: BAND_STYLE[b].definition,
        value: (w) => w.share[b],
        numeric: true,
        format: formatPercent,
      },
      {
        id: `${b}People`,
        header: `${BAND_STYLE[b].definition.label} (people)`,
        value: (w) => w.people[b],
        numeric: true,
      },
    ]),
  ];
}

const COLUMNS = intensityColumns();

const sharesOf = (w: IntensityWeek) => w.share;

/**
 * A team's intensity week by week: the share of its members in each band of use over the four whole weeks to each
 * week's end (lib/intensity.ts), a 100 % stacked bar a week, the weeks withheld (too few active people) left blank and
 * said so, the quarter's thresholds beneath, the team's marks on their weeks, a table view and its CSV. It is use,
 * not merit: the widget says so, and no list of people is drawn from it.
 */
export function IntensityWidget({
  answer,
  range,
  team,
  name,
  filename,
}: {
  answer: WidgetSource<FiguresAnswer>;
  range: DayRange;
  /** The team's path: its marks, and the scope of a mark added here. */
  team: string;
  name: string;
  filename: string;
}) {
  const [asTable, setAsTable] = useState(false);
  const a = answer.data;
  const weeks = useMemo(() => (a ? intensityWeeks(range, a) : undefined), [a, range]);
  const teams = useMemo(() => [team], [team]);
  const { chart, placed, adder, csv } = useWeeklyChart(weeks, sharesOf, teams);
  const minActive = a?.intensity?.minActive ?? MIN_ACTIVE;
  const title = 'Intensity per week';
  const source: WidgetSource<IntensityWeek[]> = { ...answer, data: weeks };
  return (
    <Widget
      title={title}
      description={`The share of ${name}'s members in each band of use over the four whole weeks to each week's end (UTC, Monday to Sunday), by the quarter's frozen thresholds; shown for a week with at least ${minActive} people active in its four weeks.`}
      query={source}
      isEmpty={(ws) => ws.length === 0}
      csv={(ws) => csv(filename, COLUMNS, ws)}
      actions={
        <>
          <AddMarkButton adder={adder} chart={title} last={weeks?.at(-1)?.week} />
          <TableToggle what={title} pressed={asTable} onChange={setAsTable} />
        </>
      }
    >
      {(ws) => {
        const withheld = ws.filter((w) => !w.shown).length;
        return (
          <>
            <p role="note" className="mb-2 text-xs text-fg-muted">
              {INTENSITY_CAVEAT}
            </p>
            {asTable || !chart ? (
              <>
                <DataTable
                  id="intensityWeeks"
                  caption={`Intensity of ${name}, per week`}
                  columns={COLUMNS}
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
                series={SERIES}
                kind="bar"
                percent
                xFormat={chart.xFormat}
                xTooltipFormat={chart.tooltip}
                shaded={chart.partial}
                marks={placed}
                onPick={adder.pick}
                summary={`The share of ${name}'s members in each band of intensity, per week, from the week of ${formatDayLong(ws[0]!.week)} to that of ${formatDayLong(ws.at(-1)!.week)}; ${withheld} week${withheld === 1 ? '' : 's'} not shown${placed.length > 0 ? `; ${placed.length} mark${placed.length === 1 ? '' : 's'}` : ''}.`}
              />
            )}
            <ChartMarkPanel adder={adder} chart={title} weekly />
            {withheld > 0 && (
              <p className="mt-2 text-xs text-fg-subtle">
                {withheld === ws.length
                  ? 'No week has bands'
                  : `${withheld} of ${ws.length} weeks ${withheld === 1 ? 'has' : 'have'} no bands`}
                : fewer than {minActive} people were active in the four weeks to {withheld === 1 ? 'its' : 'their'} end
                {a?.intensity?.thresholds.length === 0 ? ', or the quarter has no thresholds yet' : ''}.
              </p>
            )}
            {ws.some((w) => w.partial) && (
              <p className="mt-2 text-xs text-fg-subtle">
                A partial week’s bands are of the four whole weeks to the last Sunday in the range.
              </p>
            )}
            {a?.intensity && a.intensity.thresholds.length > 0 && (
              <ul className="mt-2 text-xs text-fg-muted" aria-label={DEFINITIONS.intensityThresholds.label}>
                {a.intensity.thresholds.map((t) => (
                  <li key={t.quarter}>
                    {DEFINITIONS.intensityThresholds.label}, {t.quarter}: {thresholdsText(t, formatCompact)} over four
                    weeks; from the {t.people.toLocaleString('en-US')} people active {formatDayLong(t.basis.start)} to{' '}
                    {formatDayLong(t.basis.end)}
                    {t.refreshed ? ', refreshed by an admin' : ''}.
                  </li>
                ))}
              </ul>
            )}
            {a?.intensity?.thresholds.map((t) => (
              <RefreshThresholds key={t.quarter} quarter={t.quarter} />
            ))}
          </>
        );
      }}
    </Widget>
  );
}
