import { useCallback, useMemo } from 'react';
import type { CsvValue } from '../lib/csv';
import type { Definition } from '../lib/definitions';
import { formatCompact, formatExact } from '../lib/format';
import { useSortParam, type SortState } from '../data/search';
import { DefinitionTip } from './Definition';

export interface Column<R> {
  id: string;
  header: string;
  /** The cell's value: what sorting and the CSV use. */
  value: (r: R) => string | number | null;
  /** Custom cell content; by default numbers are shown compact with the exact value on hover. */
  render?: (r: R) => React.ReactNode;
  numeric?: boolean;
  format?: (v: number) => string;
  /** What the column counts (lib/definitions.ts): an info button beside the header says it. */
  definition?: Definition;
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
  maxHeight?: string;
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

/** A sortable table whose sort lives in the URL. */
export function DataTable<R>({ id, caption, columns, rows, rowKey, defaultSort, maxHeight = '28rem' }: TableProps<R>) {
  const { sorted, sort, setSort } = useSortedRows(id, rows, columns, defaultSort);
  // The rows are made again only when they, their order or the columns change: the table renders again on
  // every change of the URL (its sort lives there), and at a page's size its rows are the costly part.
  const body = useMemo(
    () =>
      sorted.map((r) => (
        <tr key={rowKey(r)} className="border-t border-line-subtle">
          <RowCells columns={columns} row={r} />
        </tr>
      )),
    [sorted, columns, rowKey],
  );
  return (
    <div className="overflow-auto" style={{ maxHeight }}>
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <SortableHead columns={columns} sort={sort} onSort={setSort} />
        <tbody>{body}</tbody>
      </table>
    </div>
  );
}

/** One row's cells; `nowrap` keeps fixed-height rows (virtual tables) on one line. */
export function RowCells<R>({
  columns,
  row,
  nowrap = false,
}: {
  columns: readonly Column<R>[];
  row: R;
  nowrap?: boolean;
}) {
  return (
    <>
      {columns.map((c) => (
        <td
          key={c.id}
          className={`${nowrap ? 'whitespace-nowrap ' : ''}py-1.5 pr-3 ${c.numeric ? 'text-right tabular-nums' : ''}`}
        >
          <CellContent column={c} row={row} />
        </td>
      ))}
    </>
  );
}

/** A cell: custom content, or numbers compact with the exact value on hover. */
export function CellContent<R>({ column, row }: { column: Column<R>; row: R }) {
  if (column.render) return <>{column.render(row)}</>;
  const value = column.value(row);
  if (value === null) return <span className="text-fg-subtle">–</span>;
  if (typeof value === 'number')
    return <span title={formatExact(value)}>{(column.format ?? formatCompact)(value)}</span>;
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
    <thead className="sticky top-0 z-10 bg-surface text-left text-fg-muted shadow-[0_1px_0_var(--line)]">
      <tr>
        {columns.map((c) => {
          const active = sort.column === c.id;
          return (
            <th
              key={c.id}
              scope="col"
              aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
              className={`whitespace-nowrap py-2 pr-3 font-medium ${c.numeric ? 'text-right' : ''}`}
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
