import { useMemo } from 'react';
import { useMarkAdder } from '../../components/ChartMarkAdd';
import { marksCell, placeMarks } from '../../components/ChartMarks';
import { tableCsv, type Column } from '../../components/DataTable';
import type { CsvSpec } from '../../components/Widget';
import { useChartMarks } from '../../data/marks';
import { formatDayLong, type Day } from '../../lib/dates';
import { weekLabel } from './week-columns';

type Week = { week: Day; partial: boolean };

/**
 * A chart of weeks (each week's point from `point`, which the caller keeps stable): its labels, its partial weeks to
 * shade and say in the tooltip (or `tooltip`'s words), the marks of `teams` (stable too; none: the organization's)
 * placed on their weeks, the adder of a new one, and the CSV of the table view's columns with each week's marks.
 */
export function useWeeklyChart<W extends Week>(
  weeks: readonly W[] | undefined,
  point: (w: W) => Record<string, number | null>,
  teams: readonly string[],
  tooltip?: (week: Day) => string,
) {
  const chart = useMemo(() => {
    if (!weeks) return null;
    const labels = new Map(weeks.map((w) => [w.week, weekLabel(w)]));
    return {
      points: weeks.map((w) => ({ date: w.week, ...point(w) })),
      xFormat: (x: string) => labels.get(x) ?? x,
      partial: weeks.filter((w) => w.partial).map((w) => w.week),
      // Short enough for a phone's chart.
      tooltip:
        tooltip ??
        ((x: string) => `Week of ${formatDayLong(x)}${weeks.find((w) => w.week === x)?.partial ? ' (partial)' : ''}`),
    };
  }, [weeks, point, tooltip]);
  const marks = useChartMarks(teams);
  const placed = useMemo(() => placeMarks(marks, chart?.points ?? [], true), [marks, chart]);
  const adder = useMarkAdder(teams);
  /** The CSV of `columns` over `ws`, with a column of each week's marks when the range has any. */
  const csv = (filename: string, columns: readonly Column<W>[], ws: readonly W[]): CsvSpec => {
    const table = tableCsv(columns, ws);
    return placed.length === 0
      ? { filename: `${filename}.csv`, ...table }
      : {
          filename: `${filename}.csv`,
          header: [...table.header, 'marks'],
          rows: table.rows.map((r, i) => [...r, marksCell(placed, ws[i]!.week)]),
        };
  };
  return { chart, placed, adder, csv };
}
