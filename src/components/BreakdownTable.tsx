import { formatPercent } from '../lib/format';
import type { NamedTotal } from '../lib/series';
import { DataTable, tableCsv, type Column } from './DataTable';
import { Widget, type WidgetQuery } from './Widget';

export function breakdownColumns(nameHeader: string, valueHeader: string): Column<NamedTotal>[] {
  return [
    { id: 'name', header: nameHeader, value: (r) => r.name },
    { id: 'value', header: valueHeader, value: (r) => r.value, numeric: true },
    { id: 'share', header: 'Share', value: (r) => r.share, numeric: true, format: formatPercent },
  ];
}

interface Props {
  id: string;
  title: string;
  description?: string;
  nameHeader: string;
  valueHeader: string;
  query: WidgetQuery<NamedTotal[]>;
  filename: string;
  actions?: React.ReactNode;
  footnote?: React.ReactNode;
}

/** A name / count / share table in its own widget, sortable, with CSV. */
export function BreakdownWidget({
  id,
  title,
  description,
  nameHeader,
  valueHeader,
  query,
  filename,
  actions,
  footnote,
}: Props) {
  const columns = breakdownColumns(nameHeader, valueHeader);
  return (
    <Widget
      title={title}
      description={description}
      query={query}
      actions={actions}
      isEmpty={(d) => d.length === 0}
      emptyText="None in this range."
      csv={(d) => ({ filename: `${filename}.csv`, ...tableCsv(columns, d) })}
    >
      {(d) => (
        <>
          <DataTable
            id={id}
            caption={title}
            columns={columns}
            rows={d}
            rowKey={(r) => r.name}
            defaultSort={{ column: 'value', dir: 'desc' }}
            maxHeight="20rem"
          />
          {footnote && <p className="mt-2 text-xs text-slate-500">{footnote}</p>}
        </>
      )}
    </Widget>
  );
}
