import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { RowCells, SortableHead, useColumnFormats, useSortedRows, type TableProps } from './DataTable';
import { CARD_ROW, CARD_TABLE, PhoneSort, TableBox } from './TableFrame';

/** A row's height on a desk (one line); a phone's cards are measured as drawn. */
export const ROW_HEIGHT = 36;
/** A row's drawn height (a phone's card), or a desk row's where nothing is laid out. */
export const measuredRow = (el: Element) => el.getBoundingClientRect().height || ROW_HEIGHT;

/** A virtual table's box: the screen's height less a header's, so a page scrolled to it shows the whole box. */
export const SCREEN_HIGH = 'calc(100dvh - 4rem)';

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
  maxHeight = SCREEN_HIGH,
}: TableProps<R>) {
  const { sorted, sort, setSort } = useSortedRows(id, rows, columns, defaultSort);
  const formats = useColumnFormats(columns, rows);
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is meant to be used this way
  const virtual = useVirtualizer({
    count: sorted.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    measureElement: measuredRow,
    overscan: 12,
  });
  const items = virtual.getVirtualItems();
  const top = items[0]?.start ?? 0;
  const bottom = virtual.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <>
      <PhoneSort caption={caption} columns={columns} sort={sort} onSort={setSort} />
      <TableBox
        caption={caption}
        maxHeight={maxHeight}

        measure={[sorted.length, columns]}
        boxRef={scroller}
      >
        <table className={`w-full text-sm ${CARD_TABLE}`} aria-rowcount={sorted.length + 1}>
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
                  ref={virtual.measureElement}
                  data-index={v.index}
                  aria-rowindex={v.index + 2}
                  className={`h-9 border-t border-line-subtle bg-surface ${CARD_ROW} max-sm:h-auto`}
                >
                  <RowCells columns={columns} row={r} formats={formats} nowrap />
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
      </TableBox>
    </>
  );
}
