import { useQueries } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import type { UsersTableAnswer } from '../../api/users';
import { RowCells, SortableHead, useColumnFormats, type Column } from '../../components/DataTable';
import { CARD_ROW, CARD_TABLE, PhoneSort, TableBox } from '../../components/TableFrame';
import { measuredRow, ROW_HEIGHT, SCREEN_HIGH } from '../../components/VirtualTable';
import type { SortState } from '../../data/search';
import type { MergedUser } from '../../lib/user-merge';
import { forgetPlace, keepPlace, placeOf } from './place';
import { TABLE_PAGE, usersTablePageQuery, type TableParams } from './queries';

/**
 * The users table as the server sorts, filters and pages it: a virtual list
 * as long as the filtered table, whose rows in view are asked for a page at a
 * time (any page, so a jump to the end asks for the end only). The first page
 * comes from the page's own query, with the count and facets. Where the reader had scrolled to is kept as
 * they open a person, and given back when they come back to the same list (place.ts).
 */
export function StoredUsersTable({
  caption,
  columns,
  params,
  first,
  sort,
  onSort,
  maxHeight = SCREEN_HIGH,
}: {
  caption: string;
  columns: readonly Column<MergedUser>[];
  params: TableParams;
  first: UsersTableAnswer;
  sort: SortState;
  onSort: (s: SortState) => void;
  maxHeight?: string;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const { search } = useLocation();
  // Read once, as the list is first drawn.
  const [place] = useState(() => placeOf(search));
  const total = first.total;
  // One format per column, from the first page (the rows a reader sees first): it holds as they scroll.
  const formats = useColumnFormats(columns, first.users);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is meant to be used this way
  const virtual = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    measureElement: measuredRow,
    overscan: 12,
  });
  const items = virtual.getVirtualItems();
  const wanted = [...new Set(items.map((v) => Math.floor(v.index / TABLE_PAGE)))].filter((p) => p > 0);
  const pages = useQueries({ queries: wanted.map((p) => usersTablePageQuery(params, p)) });
  const loaded = new Map<number, UsersTableAnswer>([[0, first]]);
  wanted.forEach((p, i) => {
    const d = pages[i]?.data;
    if (d) loaded.set(p, d);
  });
  const rowAt = (index: number): MergedUser | undefined => {
    const page = loaded.get(Math.floor(index / TABLE_PAGE));
    return page?.users[index - page.offset];
  };
  /** The failed request of a row's page, if it failed. */
  const failedAt = (index: number) => {
    const q = pages[wanted.indexOf(Math.floor(index / TABLE_PAGE))];
    return q?.isError ? q : undefined;
  };

  // A new sort or filter starts at the top of the new list.
  const question = JSON.stringify([
    params.sort,
    params.q,
    params.delegation,
    params.tier,
    params.lang,
    params.teams,
    params.range,
  ]);
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
  }, [question]);
  // After the reset above: back from a person's page, the reader is where they were.
  useEffect(() => {
    if (!place) return;
    forgetPlace();
    if (scroller.current) scroller.current.scrollTop = place.table;
    // The page may still grow for a few frames (the table's "More columns" line): scrolled again until it has.
    let frames = 0;
    let next = 0;
    const scroll = () => {
      window.scrollTo(0, place.page);
      if (window.scrollY < place.page - 1 && ++frames < 30) next = requestAnimationFrame(scroll);
    };
    scroll();
    return () => cancelAnimationFrame(next);
  }, [place]);
  /** A person opened from the list: where the reader is in it is kept for the way back. */
  const keep = (e: React.MouseEvent) => {
    if ((e.target as Element).closest('a[href]'))
      keepPlace(search, { page: window.scrollY, table: scroller.current?.scrollTop ?? 0 });
  };

  const top = items[0]?.start ?? 0;
  const bottom = virtual.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <>
      <PhoneSort caption={caption} columns={columns} sort={sort} onSort={onSort} />
      {/* Clicks reach the links inside; the box only notes where the reader was. */}
      <div onClickCapture={keep}>
        <TableBox caption={caption} maxHeight={maxHeight} measure={[total, columns]} boxRef={scroller}>
          <table className={`w-full text-sm ${CARD_TABLE}`} aria-rowcount={total + 1}>
            <caption className="sr-only">{caption}</caption>
            <SortableHead columns={columns} sort={sort} onSort={onSort} />
            <tbody>
              {top > 0 && (
                <tr aria-hidden style={{ height: top }}>
                  <td colSpan={columns.length} />
                </tr>
              )}
              {items.map((v) => {
                const u = rowAt(v.index);
                const failed = u ? undefined : failedAt(v.index);
                return (
                  <tr
                    key={u ? u.userId || `email:${u.email}` : `row-${v.index}`}
                    ref={virtual.measureElement}
                    data-index={v.index}
                    aria-rowindex={v.index + 2}
                    className={`h-9 border-t border-line-subtle bg-surface ${CARD_ROW} max-sm:h-auto`}
                  >
                    {u ? (
                      <RowCells columns={columns} row={u} formats={formats} nowrap />
                    ) : failed ? (
                      <td colSpan={columns.length} className="py-1.5 text-danger-fg max-sm:col-span-2">
                        These rows could not be loaded.{' '}
                        <button type="button" className="underline" onClick={() => void failed.refetch()}>
                          Retry
                        </button>
                      </td>
                    ) : (
                      <td colSpan={columns.length} className="py-1.5 text-fg-subtle max-sm:col-span-2">
                        Loading…
                      </td>
                    )}
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
      </div>
    </>
  );
}
