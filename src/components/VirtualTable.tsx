import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { RowCells, SortableHead, useSortedRows, type TableProps } from './DataTable';

const ROW_HEIGHT = 36;

/**
 * A sortable table that renders only the rows in view, for lists of
 * thousands. Sort lives in the URL like every other table's.
 */
export function VirtualTable<R>({
  id,
  caption,
  columns,
  rows,
  rowKey,
  defaultSort,
  maxHeight = '65vh',
}: TableProps<R>) {
  const { sorted, sort, setSort } = useSortedRows(id, rows, columns, defaultSort);
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is meant to be used this way
  const virtual = useVirtualizer({
    count: sorted.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtual.getVirtualItems();
  const top = items[0]?.start ?? 0;
  const bottom = virtual.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <div
      ref={scroller}
      className="overflow-auto"
      style={{ maxHeight }}
      tabIndex={0}
      aria-label={`${caption}, scrollable`}
    >
      <table className="w-full text-sm" aria-rowcount={sorted.length + 1}>
        <caption className="sr-only">{caption}</caption>
        <SortableHead columns={columns} sort={sort} onSort={setSort} />
        <tbody>
          {top > 0 && (
            <tr aria-hidden style={{ height: top }}>
              <td colSpan={columns.length} />
            </tr>
          )}
          {items.map((v) => {
            const r = sorted[v.index]!;
            return (
              <tr
                key={rowKey(r)}
                aria-rowindex={v.index + 2}
                className="border-t border-line-subtle"
                style={{ height: ROW_HEIGHT }}
              >
                <RowCells columns={columns} row={r} nowrap />
              </tr>
            );
          })}
          {bottom > 0 && (
            <tr aria-hidden style={{ height: bottom }}>
              <td colSpan={columns.length} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
