import { useCallback, useMemo } from 'react';
import type { CsvValue } from '../lib/csv';
import type { Definition } from '../lib/definitions';
import { formatCompact, formatExact, type NumberFormat } from '../lib/format';
import { useSortParam, type SortState } from '../data/search';
import { DefinitionTip } from './Definition';
import {
  CARD_CELL,
  CARD_ROW,
  CARD_TABLE,
  CARD_TEXT,
  FIRST_CELL,
  PhoneSort,
  STICKY_HEAD,
  TableBox,
  usePhoneRows,
} from './TableFrame';

export interface Column<R> {
  id: string;
  header: string;
  /** The cell's value: what sorting and the CSV use. */
  value: (r: R) => string | number | null;
  /**
   * Custom cell content; by default numbers are shown in the column's one format (`format`'s rule for the
   * whole column, compact or exact) with the exact value on hover. `format` is that column format.
   */
  render?: (r: R, format: (n: number) => string) => React.ReactNode;
  numeric?: boolean;
  /** How the column's numbers read (default `formatCompact`); with `forColumn`, one format for all its cells. */
  format?: NumberFormat;
  /** What the column counts (lib/definitions.ts): an info button beside the header says it. */
  definition?: Definition;
  /**
   * A text column kept to the room the other columns leave (from `sm` up): its content, cut to a line by
   * `render` (with the whole on hover), never widens the table.
   */
  fill?: boolean;
}

export function compareValues(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return 1; // empty cells last, either direction
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

export function sortRows<R>(rows: readonly R[], columns: readonly Column<R>[], sort: SortState): R[] {
  const col = columns.find((c) => c.id === sort.column) ?? columns[0];
  if (!col) return [...rows];
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...rows].sort((x, y) => {
    const a = col.value(x);
    const b = col.value(y);
    if (a === null || b === null) return compareValues(a, b);
    return sign * compareValues(a, b);
  });
}

/** The CSV of a table's columns and rows, in the order given. */
export function tableCsv<R>(columns: readonly Column<R>[], rows: readonly R[]) {
  return {
    header: columns.map((c) => c.id),
    rows: rows.map((r) => columns.map((c) => c.value(r) as CsvValue)),
  };
}

/** The CSV of exactly what a table shows: its columns and rows, in the order its sort in the URL puts them. */
export function useTableCsv<R>(id: string, columns: readonly Column<R>[], defaultSort: SortState) {
  const [sort] = useSortParam(id, defaultSort);
  return useCallback((rows: readonly R[]) => tableCsv(columns, sortRows(rows, columns, sort)), [columns, sort]);
}

export interface TableProps<R> {
  /** Names the sort parameter in the URL. */
  id: string;
  caption: string;
  columns: readonly Column<R>[];
  rows: readonly R[];
  rowKey: (r: R) => string;
  defaultSort: SortState;
  /** The most the table's box may take before it scrolls, rounded down to whole rows (any CSS length). */
  maxHeight?: string;
}

/** Each column's one format for these rows: what `format.forColumn` makes of every value of the column. */
export function columnFormats<R>(
  columns: readonly Column<R>[],
  rows: readonly R[],
): Map<string, (n: number) => string> {
  const formats = new Map<string, (n: number) => string>();
  for (const c of columns) {
    const f = c.format ?? formatCompact;
    if (!c.numeric || !f.forColumn) {
      formats.set(c.id, f);
      continue;
    }
    const values: number[] = [];
    for (const r of rows) {
      const v = c.value(r);
      if (typeof v === 'number') values.push(v);
    }
    formats.set(c.id, f.forColumn(values));
  }
  return formats;
}

/** The column formats, made again only when the rows or columns change. */
export function useColumnFormats<R>(columns: readonly Column<R>[], rows: readonly R[]) {
  return useMemo(() => columnFormats(columns, rows), [columns, rows]);
}

/** The rows in the order the URL's sort parameter asks for, with the setter for the headers. */
export function useSortedRows<R>(
  id: string,
  rows: readonly R[],
  columns: readonly Column<R>[],
  defaultSort: SortState,
) {
  const [sort, setSort] = useSortParam(id, defaultSort);
  // Followed by value: a page gives its default sort as a new object on each render.
  const { column, dir } = sort;
  const sorted = useMemo(() => sortRows(rows, columns, { column, dir }), [rows, columns, column, dir]);
  return { sorted, sort, setSort };
}

/**
 * A sortable table whose sort lives in the URL. The name column stays in place while the others scroll
 * sideways (a fade and a button say more columns lie to the side); on a phone each row is a card of
 * label: value lines, so no number is cut, with the sort in a select above, and a long table shows its
 * first rows and a "Show more" in the page rather than scrolling in a box.
 */
export function DataTable<R>({ id, caption, columns, rows, rowKey, defaultSort, maxHeight = '28rem' }: TableProps<R>) {
  const { sorted, sort, setSort } = useSortedRows(id, rows, columns, defaultSort);
  const formats = useColumnFormats(columns, rows);
  const phone = usePhoneRows(sorted.length, caption);
  const { hide } = phone;
  // The rows are made again only when they, their order or the columns change: the table renders again on
  // every change of the URL (its sort lives there), and at a page's size its rows are the costly part.
  const body = useMemo(
    () =>
      sorted.map((r, i) => (
        <tr key={rowKey(r)} className={`border-t border-line-subtle bg-surface ${CARD_ROW} ${hide(i)}`}>
          <RowCells columns={columns} row={r} formats={formats} />
        </tr>
      )),
    [sorted, columns, rowKey, formats, hide],
  );
  return (
    <>
      <PhoneSort caption={caption} columns={columns} sort={sort} onSort={setSort} />
      <TableBox caption={caption} maxHeight={maxHeight} measure={[sorted, columns]} inPage>
        <table className={`w-full text-sm ${CARD_TABLE}`}>
          <caption className="sr-only">{caption}</caption>
          <SortableHead columns={columns} sort={sort} onSort={setSort} />
          <tbody>{body}</tbody>
        </table>
      </TableBox>
      {phone.more}
    </>
  );
}

/**
 * One row's cells; `nowrap` keeps fixed-height rows (virtual tables) on one line. The first is the row's
 * name: it stays in place when the table scrolls sideways, and heads the row's card on a phone.
 */
export function RowCells<R>({
  columns,
  row,
  formats,
  nowrap = false,
}: {
  columns: readonly Column<R>[];
  row: R;
  formats: ReadonlyMap<string, (n: number) => string>;
  nowrap?: boolean;
}) {
  return (
    <>
      {columns.map((c, i) => (
        <td
          key={c.id}
          data-label={c.header}
          className={`${nowrap ? 'whitespace-nowrap ' : ''}py-1.5 pr-3 ${c.numeric ? 'text-right tabular-nums' : ''} ${c.fill ? 'sm:w-full sm:max-w-0' : ''} ${i === 0 ? FIRST_CELL : `${CARD_CELL} ${c.numeric ? '' : CARD_TEXT}`}`}
        >
          <CellContent column={c} row={row} format={formats.get(c.id)} />
        </td>
      ))}
    </>
  );
}

/** A cell: custom content, or the number in its column's format with the exact value on hover. */
export function CellContent<R>({
  column,
  row,
  format = column.format ?? formatCompact,
}: {
  column: Column<R>;
  row: R;
  format?: (n: number) => string;
}) {
  if (column.render) return <>{column.render(row, format)}</>;
  const value = column.value(row);
  if (value === null) return <span className="text-fg-subtle">–</span>;
  if (typeof value === 'number')
    return <span title={(column.format?.exact ?? formatExact)(value)}>{format(value)}</span>;
  return <>{value}</>;
}

/** Column headers as sort buttons; numbers sort largest first on the first click. */
export function SortableHead<R>({
  columns,
  sort,
  onSort,
}: {
  columns: readonly Column<R>[];
  sort: SortState;
  onSort: (s: SortState) => void;
}) {
  return (
    <thead className="sticky top-0 z-20 bg-surface text-left text-fg-muted shadow-[0_1px_0_var(--line)] max-sm:hidden">
      <tr>
        {columns.map((c, i) => {
          const active = sort.column === c.id;
          return (
            <th
              key={c.id}
              scope="col"
              aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
              className={`whitespace-nowrap py-2 pr-3 font-medium ${c.numeric ? 'text-right' : ''} ${i === 0 ? STICKY_HEAD : ''}`}
            >
              <button
                type="button"
                className="inline-flex items-center gap-1 hover:text-fg"
                onClick={() =>
                  onSort({
                    column: c.id,
                    dir: active ? (sort.dir === 'asc' ? 'desc' : 'asc') : c.numeric ? 'desc' : 'asc',
                  })
                }
              >
                {c.header}
                <span aria-hidden className="text-xs">
                  {active ? (sort.dir === 'asc' ? '▲' : '▼') : '↕'}
                </span>
              </button>
              {/* Beside the sort button, not in it: a button may not hold another. */}
              {c.definition && <DefinitionTip definition={c.definition} className="ml-1" />}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
