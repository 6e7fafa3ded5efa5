import { useDeferredValue, useMemo, useState } from 'react';
import { formatDayLong, formatDayShort, type Day } from '../lib/dates';
import { formatExact, formatPercent } from '../lib/format';
import { rollupWeeks, type Rollup } from '../lib/series';
import { useSearchParam } from '../data/search';
import { OrgOnlyNote } from './OrgOnly';
import { Segmented } from './Segmented';
import { TimeSeriesChart, type SeriesConfig } from './TimeSeriesChart';
import { useHeld } from './use-held';
import { Widget, type WidgetSource } from './Widget';

/** The day/week switch, shared by every chart of a page through the URL. */
export function useInterval() {
  return useSearchParam('interval');
}

export function IntervalSwitch() {
  const [interval, setChartInterval] = useInterval();
  return (
    <Segmented
      label="Chart interval"
      options={[
        { id: 'day', label: 'Daily' },
        { id: 'week', label: 'Weekly' },
      ]}
      value={interval}
      onChange={setChartInterval}
    />
  );
}

type Point = { date: Day } & Record<string, number | string>;

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
}

function toShares<P extends Point>(p: P, keys: readonly string[]): P {
  let total = 0;
  for (const k of keys) total += Number(p[k]) || 0;
  const out: Record<string, number | string> = { ...p };
  for (const k of keys) out[k] = total > 0 ? (Number(p[k]) || 0) / total : 0;
  return out as P;
}

// The weekly labels are functions made once, so a chart whose points did not change is not drawn again.
const weekTick = (x: string) => `Wk ${formatDayShort(x)}`;
const weekTooltip = (x: string) => `Week of ${formatDayLong(x)}`;

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
}: Props<P>) {
  const [interval] = useInterval();
  const [asTable, setAsTable] = useState(false);
  const rollupKey = JSON.stringify(rollup);
  const byWeek = interval === 'week';
  const keys = series.map((s) => s.key).join('|');
  const points = useMemo(() => {
    const rolled = query.data && byWeek ? rollupWeeks(query.data, JSON.parse(rollupKey)) : query.data;
    // A 100 % chart takes counts, so weeks weigh each day by its volume, and shows shares.
    return percent && rolled ? rolled.map((p) => toShares(p, keys.split('|'))) : rolled;
  }, [query.data, byWeek, rollupKey, percent, keys]);
  // The series by what they hold: a page builds the array afresh on each render.
  const seriesKey = JSON.stringify(series.map((s) => [s.key, s.label, s.color, s.csv]));
  // eslint-disable-next-line react-hooks/exhaustive-deps -- followed by what it holds (`seriesKey`)
  const sameSeries = useMemo(() => series, [seriesKey]);
  const next = useMemo(
    () => ({ points, weekly: byWeek, series: sameSeries, what, orgOnly }),
    [points, byWeek, sameSeries, what, orgOnly],
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
  const { weekly, series: drawnSeries } = view;
  const q: WidgetSource<(P & { days?: number })[]> = {
    ...query,
    data: view.points,
    isPlaceholderData: query.isPlaceholderData || view !== held,
  };
  return (
    <Widget
      title={title}
      description={description}
      query={q}
      className={className}
      actions={
        <>
          {actions}
          <button
            type="button"
            aria-pressed={asTable}
            onClick={() => setAsTable((t) => !t)}
            className="rounded border border-line-strong px-2 py-1 text-xs font-medium text-fg-soft hover:bg-surface-muted"
            aria-label={`Show ${title} as a table`}
          >
            Table
          </button>
        </>
      }
      isEmpty={(d) => d.length === 0}
      csv={(d) => ({
        filename: `${filename}${weekly ? '-weekly' : ''}.csv`,
        header: [
          weekly ? 'week_start' : 'date',
          ...(weekly ? ['days'] : []),
          ...drawnSeries.map((s) => s.csv ?? s.key),
        ],
        rows: d.map((p) => [p.date, ...(weekly ? [p.days ?? 7] : []), ...drawnSeries.map((s) => p[s.key] as number)]),
      })}
    >
      {(d) => (
        <>
          {asTable ? (
            <PointsTable
              caption={`${view.what}, ${weekly ? 'per week' : 'per day'}`}
              points={d}
              series={drawnSeries}
              weekly={weekly}
              percent={percent}
            />
          ) : (
            <>
              <TimeSeriesChart
                data={d}
                series={drawnSeries}
                kind={kind}
                stacked={stacked}
                percent={percent}
                xFormat={weekly ? weekTick : formatDayShort}
                xTooltipFormat={weekly ? weekTooltip : formatDayLong}
                summary={`${view.what}, ${weekly ? 'per week' : 'per day'}, from ${d[0]?.date} to ${d.at(-1)?.date}.`}
              />
              {footnote && <p className="mt-2 text-xs text-fg-subtle">{footnote}</p>}
            </>
          )}
          {view.orgOnly && <OrgOnlyNote what={view.orgOnly} size="xs" className="mt-2" />}
        </>
      )}
    </Widget>
  );
}

/** The table alternative of a chart: the same points, exact values. */
function PointsTable<P extends Point>({
  caption,
  points,
  series,
  weekly,
  percent,
}: {
  caption: string;
  points: readonly P[];
  series: readonly SeriesConfig[];
  weekly: boolean;
  percent?: boolean;
}) {
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
              </th>
              {series.map((s) => (
                <td key={s.key} className="py-1 pr-3 text-right tabular-nums">
                  {fmt(Number(p[s.key]))}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
