import { useMemo } from 'react';
import type { SortState } from '../data/search';
import { formatPercent } from '../lib/format';
import type { NamedTotal } from '../lib/series';
import { DataTable, useTableCsv, type Column } from './DataTable';
import { useHeld } from './use-held';
import { Widget, type WidgetSource } from './Widget';

interface TableWidgetProps<R> {
  /** Names the table's sort parameter in the URL. */
  id: string;
  title: string;
  description?: string;
  columns: readonly Column<R>[];
  rowKey: (r: R) => string;
  defaultSort: SortState;
  query: WidgetSource<R[]>;
  filename: string;
  emptyText?: string;
  actions?: React.ReactNode;
  footnote?: React.ReactNode;
  maxHeight?: string;
}

/** A sortable table in its own widget, with a CSV of exactly its columns and rows. */
export function TableWidget<R>({
  id,
  title,
  description,
  columns,
  rowKey,
  defaultSort,
  query,
  filename,
  emptyText = 'None in this range.',
  actions,
  footnote,
  maxHeight,
}: TableWidgetProps<R>) {
  // Placeholder rows are shown as they were: a new URL's columns (links that carry it) wait for the new
  // answer, so the table is drawn once for it, not also for the placeholder.
  const next = useMemo(() => ({ rows: query.data, columns }), [query.data, columns]);
  const shown = useHeld(next, (last) => !!query.isPlaceholderData && last.rows === next.rows);
  const csvOf = useTableCsv(id, shown.columns, defaultSort);
  return (
    <Widget
      title={title}
      description={description}
      query={query}
      actions={actions}
      isEmpty={(d) => d.length === 0}
      emptyText={emptyText}
      csv={(d) => ({ filename: `${filename}.csv`, ...csvOf(d) })}
    >
      {(d) => (
        <>
          <DataTable
            id={id}
            caption={title}
            columns={shown.columns}
            rows={d}
            rowKey={rowKey}
            defaultSort={defaultSort}
            maxHeight={maxHeight}
          />
          {footnote && <p className="mt-2 text-xs text-fg-subtle">{footnote}</p>}
        </>
      )}
    </Widget>
  );
}

export function breakdownColumns(nameHeader: string, valueHeader: string): Column<NamedTotal>[] {
  return [
    { id: 'name', header: nameHeader, value: (r) => r.name },
    { id: 'value', header: valueHeader, value: (r) => r.value, numeric: true },
    { id: 'share', header: 'Share', value: (r) => r.share, numeric: true, format: formatPercent },
  ];
}

const byName = (r: NamedTotal) => r.name;

interface BreakdownProps extends Omit<TableWidgetProps<NamedTotal>, 'columns' | 'rowKey' | 'defaultSort'> {
  nameHeader: string;
  valueHeader: string;
}

/** A name / count / share table, largest first. */
export function BreakdownWidget({ nameHeader, valueHeader, ...props }: BreakdownProps) {
  const columns = useMemo(() => breakdownColumns(nameHeader, valueHeader), [nameHeader, valueHeader]);
  return (
    <TableWidget
      {...props}
      columns={columns}
      rowKey={byName}
      defaultSort={{ column: 'value', dir: 'desc' }}
      maxHeight={props.maxHeight ?? '20rem'}
    />
  );
}
