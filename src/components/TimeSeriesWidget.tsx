import { useDeferredValue, useMemo, useState } from 'react';
import { formatDayLong, formatDayShort, type Day } from '../lib/dates';
import { formatExact, formatPercent } from '../lib/format';
import { isPartialWeek, rollupWeeks, workingDaysOnly, type Rollup } from '../lib/series';
import { useAppConfig } from '../data/config';
import { useChartMarks } from '../data/marks';
import { useSearchParam, useTeams } from '../data/search';
import { AddMarkButton, ChartMarkPanel, useMarkAdder } from './ChartMarkAdd';
import { MarksLink, MarksList, marksCell, placeMarks } from './ChartMarks';
import { OrgOnlyNote } from './OrgOnlyNote';
import { Segmented } from './Segmented';
import { TimeSeriesChart, type SeriesConfig } from './TimeSeriesChart';
import { useHeld } from './use-held';
import { Empty } from './states';
import { Widget, type WidgetSource } from './Widget';
import { TableToggle } from './TableToggle';

/** The day/week switch, shared by every chart of a page through the URL. */
export function useInterval() {
  return useSearchParam('interval');
}

/**
 * The days the daily charts leave out, from the URL (`?weekends=hide`, which follows the reader from page to
 * page) and the server's configuration: Saturdays, Sundays and the organization's listed holidays (UTC
 * days), or none. With it, what to call the days left (`weekdays`, or `working days` once holidays are
 * listed) and the checkbox's and the footnotes' words.
 */
export function useDaysOff() {
  const [weekends, setWeekends] = useSearchParam('weekends');
  const { holidays } = useAppConfig();
  const listed = holidays.length > 0;
  const set = useMemo(() => new Set(holidays), [holidays]);
  return {
    hidden: weekends === 'hide',
    setHidden: (hide: boolean) => setWeekends(hide ? 'hide' : 'show'),
    holidays: set,
    label: listed ? 'Hide weekends and holidays' : 'Hide weekends',
    days: listed ? 'Saturdays, Sundays and the organization’s listed holidays' : 'Saturdays and Sundays',
    left: listed ? 'working days' : 'weekdays',
  };
}

/** The checkbox that hides the days off on the daily charts; off (and said why) while the charts are weekly. */
export function DaysOffToggle({ weekly = false }: { weekly?: boolean }) {
  const off = useDaysOff();
  return (
    <label
      className={`flex items-center gap-1.5 text-sm ${weekly ? 'text-fg-subtle' : 'text-fg-soft'}`}
      title={weekly ? 'Weeks always count all seven days.' : `${off.days} (UTC) on the daily charts.`}
    >
      <input
        type="checkbox"
        checked={off.hidden}
        disabled={weekly}
        onChange={(e) => off.setHidden(e.target.checked)}
        className="size-4 accent-accent"
      />
      {off.label}
    </label>
  );
}

/**
 * The charts' controls of a page: daily or weekly points, and whether the daily charts leave out the days
 * off (a week always counts its seven). Both live in the URL.
 */
export function IntervalSwitch() {
  const [interval, setChartInterval] = useInterval();
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Segmented
        label="Chart interval"
        options={[
          { id: 'day', label: 'Daily' },
          { id: 'week', label: 'Weekly' },
        ]}
        value={interval}
        onChange={setChartInterval}
      />
      <DaysOffToggle weekly={interval === 'week'} />
    </div>
  );
}

type Point = { date: Day } & Record<string, number | string | null>;

interface Props<P extends Point> {
  title: string;
  description?: string;
  query: WidgetSource<P[]>;
  series: readonly (SeriesConfig & { csv?: string })[];
  kind?: 'area' | 'line' | 'bar';
  stacked?: boolean;
  percent?: boolean;
  /** How each field rolls up to weeks (default: summed). */
  rollup?: Partial<Record<string, Rollup>>;
  filename: string;
  /** The metric in words, for the chart's accessible name. */
  what: string;
  actions?: React.ReactNode;
  className?: string;
  footnote?: React.ReactNode;
  /**
   * While teams are selected, the figures the chart leaves out because the service gives them for
   * the whole organization only ("Cache read and cache write tokens"): said under the chart or table.
   */
  orgOnly?: string;
  /**
   * The teams whose marks the chart shows (with the organization's, and their parent teams'): a team's
   * page names its team; by default the teams of the URL (none: the organization's marks).
   */
  marksOf?: readonly string[];
}

function toShares<P extends Point>(p: P, keys: readonly string[]): P {
  let total = 0;
  for (const k of keys) total += Number(p[k]) || 0;
  const out: Record<string, number | string | null> = { ...p };
  for (const k of keys) out[k] = total > 0 ? (Number(p[k]) || 0) / total : 0;
  return out as P;
}

/** "Wk Nov 23", marked "Wk Nov 23*" when the range holds only part of the week. */
const weekTick = (x: string, partial: boolean) => `Wk ${formatDayShort(x)}${partial ? '*' : ''}`;
/** "1 of 7 days": how much of a partial week the range holds. */
const partOfWeek = (days: number) => `${days} of 7 days`;

/**
 * The x labels of the points drawn: weeks marked where partial (on the axis, in the tooltip). Made once per
 * set of points, so a chart whose points did not change is not drawn again.
 */
function xLabels(points: readonly { date: Day; days?: number }[] | undefined, weekly: boolean) {
  if (!weekly) return { tick: formatDayShort, tooltip: formatDayLong, partial: [] as Day[] };
  const days = new Map((points ?? []).filter(isPartialWeek).map((p) => [p.date, p.days!]));
  return {
    tick: (x: string) => weekTick(x, days.has(x)),
    tooltip: (x: string) =>
      `Week of ${formatDayLong(x)}${days.has(x) ? ` (partial: ${partOfWeek(days.get(x)!)} in the range)` : ''}`,
    partial: [...days.keys()],
  };
}

/** The footnote of a weekly chart with partial weeks, or of a daily chart without its days off (`daysOff`: which). */
function pointsNote(points: readonly { date: Day; days?: number }[], weekly: boolean, daysOff: string | null) {
  if (daysOff) return `${daysOff} are left out of this chart; the totals above count every day.`;
  const partial = weekly ? points.filter(isPartialWeek) : [];
  if (partial.length === 0) return null;
  const each = partial.map((p) => `Wk ${formatDayShort(p.date)} holds ${partOfWeek(p.days!)}`).join(', ');
  return `* Partial ${partial.length === 1 ? 'week' : 'weeks'}, shaded: ${each} of the range, so ${
    partial.length === 1 ? 'its figure is' : 'their figures are'
  } not comparable with a whole week's.`;
}

/** A daily series, rolled up to weeks when the page says so, with a CSV of exactly the points drawn. */
export function TimeSeriesWidget<P extends Point>({
  title,
  description,
  query,
  series,
  kind,
  stacked,
  percent,
  rollup = {},
  filename,
  what,
  actions,
  className,
  footnote,
  orgOnly,
  marksOf,
}: Props<P>) {
  const [interval] = useInterval();
  const off = useDaysOff();
  const [asTable, setAsTable] = useState(false);
  const rollupKey = JSON.stringify(rollup);
  const byWeek = interval === 'week';
  const weekdays = !byWeek && off.hidden;
  const holidays = off.holidays;
  const keys = series.map((s) => s.key).join('|');
  const points = useMemo(() => {
    const rolled = query.data && (byWeek ? rollupWeeks(query.data, JSON.parse(rollupKey)) : query.data);
    const shown = rolled && weekdays ? workingDaysOnly(rolled, holidays) : rolled;
    // A 100 % chart takes counts, so weeks weigh each day by its volume, and shows shares.
    return percent && shown ? shown.map((p) => toShares(p, keys.split('|'))) : shown;
  }, [query.data, byWeek, weekdays, holidays, rollupKey, percent, keys]);
  // The series by what they hold: a page builds the array afresh on each render.
  const seriesKey = JSON.stringify(series.map((s) => [s.key, s.label, s.color, s.csv]));
  // eslint-disable-next-line react-hooks/exhaustive-deps -- followed by what it holds (`seriesKey`)
  const sameSeries = useMemo(() => series, [seriesKey]);
  const next = useMemo(
    () => ({ points, weekly: byWeek, weekdays, labels: xLabels(points, byWeek), series: sameSeries, what, orgOnly }),
    [points, byWeek, weekdays, sameSeries, what, orgOnly],
  );
  // Placeholder points are drawn as they were: a new URL's series and wording (a team's answer lacks some
  // series, and says so) wait for the new answer, so the chart is drawn once for it, not also for the
  // placeholder.
  const held = useHeld(next, (last) => !!query.isPlaceholderData && last.points === next.points);
  // New points are drawn in a render of their own, after the urgent one that brought them (a page's KPI cards
  // are not held up by its charts, the costliest part of a page) and interruptible by the next answer;
  // meanwhile the widget keeps showing what it shows, dimmed. The first points are drawn at once.
  const deferred = useDeferredValue(held);
  const view = deferred.points === undefined ? held : deferred;
  const { weekly, weekdays: weekdaysOnlyShown, labels, series: drawnSeries } = view;
  const marks = useChartMarks(marksOf);
  const [selected] = useTeams();
  const adder = useMarkAdder(marksOf ?? selected);
  const placed = useMemo(() => placeMarks(marks, view.points ?? [], weekly), [marks, view.points, weekly]);
  const grain = `${weekly ? 'per week' : 'per day'}${weekdaysOnlyShown ? `, ${off.left} only` : ''}`;
  const q: WidgetSource<(P & { days?: number })[]> = {
    ...query,
    data: view.points,
    isPlaceholderData: query.isPlaceholderData || view !== held,
  };
  return (
    <Widget
      title={title}
      // The heading says the grain of the points drawn: "Standard credits per week"; a figure of a day (its weeks
      // the mean of their days) says so, and a title that names its days already ("Daily …") needs no more.
      grain={
        weekly
          ? drawnSeries.every((s) => rollup[s.key] === 'mean')
            ? '(weekly average of days)'
            : 'per week'
          : /^Daily /.test(title)
            ? undefined
            : 'per day'
      }
      description={description}
      query={q}
      className={className}
      actions={
        <>
          {actions}
          <AddMarkButton adder={adder} chart={title} last={view.points?.at(-1)?.date} />
          <TableToggle what={title} pressed={asTable} onChange={setAsTable} />
        </>
      }
      isEmpty={(d) => d.length === 0}
      csv={(d) => ({
        filename: `${filename}${weekly ? '-weekly' : weekdaysOnlyShown ? `-${off.left.replace(' ', '-')}` : ''}.csv`,
        header: [
          weekly ? 'week_start' : 'date',
          ...(weekly ? ['days', 'partial_week'] : []),
          ...drawnSeries.map((s) => s.csv ?? s.key),
          // With marks in the range: each point's marks (a week's, or a day left out's on the next day shown).
          ...(placed.length > 0 ? ['marks'] : []),
        ],
        rows: d.map((p) => [
          p.date,
          ...(weekly ? [p.days ?? 7, isPartialWeek(p)] : []),
          ...drawnSeries.map((s) => p[s.key] as number),
          ...(placed.length > 0 ? [marksCell(placed, p.date)] : []),
        ]),
      })}
    >
      {(d) => {
        const note = pointsNote(d, weekly, weekdaysOnlyShown ? `${off.days} (UTC)` : null);
        // Nothing to draw (a team with no activity in the range): a sentence, not an empty chart from 0 to 1.
        const blank = d.every((p) => drawnSeries.every((s) => !Number(p[s.key])));
        const unit = weekly ? 'week' : 'day';
        return (
          <>
            {asTable ? (
              <>
                <PointsTable caption={`${view.what}, ${grain}`} points={d} series={drawnSeries} percent={percent} />
                <MarksList placed={placed} />
                <MarksLink />
              </>
            ) : blank ? (
              <Empty>
                {d.some((p) => drawnSeries.some((s) => p[s.key] === 0))
                  ? `Nothing in this range: every ${unit} is 0.`
                  : `Nothing in this range: no ${unit} has a value.`}
              </Empty>
            ) : (
              <>
                <TimeSeriesChart
                  data={d}
                  series={drawnSeries}
                  kind={kind}
                  stacked={stacked}
                  percent={percent}
                  xFormat={labels.tick}
                  xTooltipFormat={labels.tooltip}
                  shaded={labels.partial}
                  marks={placed}
                  onPick={adder.pick}
                  summary={`${view.what}, ${grain}, from ${d[0]?.date} to ${d.at(-1)?.date}.`}
                />
                {footnote && <p className="mt-2 text-xs text-fg-subtle">{footnote}</p>}
              </>
            )}
            <ChartMarkPanel adder={adder} chart={title} weekly={weekly} />
            {note && <p className="mt-2 text-xs text-fg-subtle">{note}</p>}
            {view.orgOnly && <OrgOnlyNote what={view.orgOnly} size="xs" className="mt-2" />}
          </>
        );
      }}
    </Widget>
  );
}

/** The table alternative of a chart: the same points, exact values. */
function PointsTable<P extends Point>({
  caption,
  points,
  series,
  percent,
}: {
  caption: string;
  points: readonly (P & { days?: number })[];
  series: readonly SeriesConfig[];
  percent?: boolean;
}) {
  const weekly = points.some((p) => p.days !== undefined);
  const fmt = percent ? formatPercent : formatExact;
  return (
    <div className="max-h-80 overflow-auto">
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 bg-surface text-left text-fg-muted">
          <tr>
            <th scope="col" className="py-1.5 pr-3 font-medium">
              {weekly ? 'Week of' : 'Day (UTC)'}
            </th>
            {series.map((s) => (
              <th key={s.key} scope="col" className="py-1.5 pr-3 text-right font-medium">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {points.map((p) => (
            <tr key={p.date} className="border-t border-line-subtle">
              <th scope="row" className="py-1 pr-3 text-left font-normal">
                {formatDayLong(p.date)}
                {isPartialWeek(p) && <span className="text-fg-subtle"> (partial: {partOfWeek(p.days!)})</span>}
              </th>
              {series.map((s) => (
                <td key={s.key} className="py-1 pr-3 text-right tabular-nums">
                  {p[s.key] == null ? 'none' : fmt(Number(p[s.key]))}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
