import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { SortState } from '../data/search';

/*
 * What every table shares around its rows: the box it scrolls in, its name column held in place, and
 * on a phone (below Tailwind's `sm`, 640 px) each row drawn as a card of label: value lines, so that
 * no number is ever cut by the edge of the screen, and a long list's first rows with a "Show more" in
 * the page rather than a box that scrolls inside it.
 */

/** The table: on a phone, a stack of cards instead of a grid. */
export const CARD_TABLE = 'max-sm:block max-sm:[&_tbody]:block';
/** A row: on a phone, a card whose figures sit two to a line. */
export const CARD_ROW = 'max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-4 max-sm:py-2';
/** A figure's cell: on a phone, its column's name (the cell's `data-label`, never narrower than its longest word) then its value, never cut. */
export const CARD_CELL =
  'max-sm:flex max-sm:items-baseline max-sm:justify-between max-sm:gap-2 max-sm:py-0.5 max-sm:pr-0 max-sm:text-right max-sm:before:min-w-min max-sm:before:[overflow-wrap:normal] ' +
  'max-sm:before:text-left max-sm:before:text-xs max-sm:before:whitespace-normal max-sm:before:text-fg-muted max-sm:before:content-[attr(data-label)]';
/** A text cell takes a card's whole line, and wraps there rather than running off it. */
export const CARD_TEXT = 'max-sm:col-span-2 max-sm:whitespace-normal max-sm:[overflow-wrap:anywhere]';
/**
 * The name cell: held at the left while the figures scroll sideways, with a line at its edge once they
 * pass beneath it; on a phone, the card's heading.
 */
export const FIRST_CELL =
  'sticky left-0 z-10 bg-inherit group-data-[scrolled=true]:shadow-[inset_-1px_0_0_var(--line)] max-sm:static max-sm:col-span-2 max-sm:pb-1 max-sm:font-medium max-sm:group-data-[scrolled=true]:shadow-none';
/** The name column's header, held at the left too, above the name cells. */
export const STICKY_HEAD = 'sticky left-0 z-30 bg-surface';

/**
 * The box a table scrolls in. No taller than `maxHeight` (any CSS length), rounded down to whole rows so
 * that no row is cut at its bottom edge (measured as drawn at the top: a virtual table's first rows); a
 * table shorter than that takes its own height. When columns lie beyond
 * its right edge, a fade at that edge and a "More columns" button above the table say so.
 */
export function TableBox({
  caption,
  maxHeight,
  measure,
  boxRef,
  inPage = false,
  children,
}: {
  caption: string;
  maxHeight: string;
  /**
   * On a phone, no box: the rows lie in the page (the table shows its first ones, `usePhoneRows`). A
   * virtual table keeps its box, which it scrolls to draw its rows.
   */
  inPage?: boolean;
  /** What changes the rows' heights: the box is fitted again when any of these change. */
  measure: readonly unknown[];
  boxRef?: React.RefObject<HTMLDivElement | null>;
  children: React.ReactNode;
}) {
  const own = useRef<HTMLDivElement>(null);
  const box = boxRef ?? own;
  const frame = useRef<HTMLDivElement>(null);
  // Whether columns lie beyond the right edge is written on the frame (`data-more`), which the fade and
  // the button read: a scroll changes no React state.
  const markMore = () => {
    const b = box.current;
    if (!b || !frame.current) return;
    frame.current.dataset.more = String(b.scrollLeft + b.clientWidth < b.scrollWidth - 1);
    frame.current.dataset.scrolled = String(b.scrollLeft > 0);
  };
  useLayoutEffect(() => {
    if (box.current) fitWholeRows(box.current, maxHeight);
    markMore();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `measure` lists what the rows' heights depend on
  }, [maxHeight, ...measure]);
  useEffect(() => {
    const b = box.current;
    if (!b || typeof ResizeObserver === 'undefined') return;
    let width = b.clientWidth;
    const observer = new ResizeObserver(() => {
      // A new width rewraps the rows; a new height is the fit's own doing. The table's own size (its
      // rows arriving, its fonts) changes only what lies to the side.
      if (b.clientWidth !== width) {
        width = b.clientWidth;
        fitWholeRows(b, maxHeight);
      }
      markMore();
    });
    observer.observe(b);
    const table = b.querySelector('table');
    if (table) observer.observe(table);
    return () => observer.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- markMore reads refs only
  }, [box, maxHeight]);
  return (
    <div ref={frame} className="group relative" data-more="false" data-scrolled="false">
      <p className="mb-1 hidden justify-end group-data-[more=true]:flex max-sm:group-data-[more=true]:hidden">
        <button
          type="button"
          onClick={() => box.current?.scrollBy({ left: box.current.clientWidth * 0.7, behavior: 'smooth' })}
          className="rounded border border-line-strong px-2 py-0.5 text-xs font-medium text-fg-soft hover:bg-surface-muted"
        >
          More columns <span aria-hidden>→</span>
        </button>
      </p>
      <div
        ref={box}
        // Above the height the fit writes on the element: a phone's list has no box.
        className={`overflow-auto ${inPage ? 'max-sm:max-h-none!' : ''}`}
        style={{ maxHeight }}
        tabIndex={0}
        aria-label={`${caption}, scrollable`}
        onScroll={markMore}
      >
        {children}
      </div>
      <div
        aria-hidden
        className="pointer-events-none absolute right-0 bottom-0 hidden h-[calc(100%-1.75rem)] w-10 bg-gradient-to-l from-surface to-transparent group-data-[more=true]:block"
      />
    </div>
  );
}

/** The rows a phone shows of a long list before its "Show more", and how many more each press shows. */
export const PHONE_ROWS = 10;

/**
 * A long list on a phone: its first `PHONE_ROWS` rows, then a "Show more" in the page that shows as many
 * again (and a "Show fewer" once it has), instead of a box that scrolls inside the page, where a thumb
 * scrolling the page gets caught. `hide(i)` is the class of the i-th row drawn: hidden on a phone only,
 * so a desk draws every row, in its box, as before.
 */
export function usePhoneRows(total: number, label: string) {
  const [limit, setLimit] = useState(PHONE_ROWS);
  // The same function while the limit stands: a table's rows are made again only when it changes.
  const hide = useCallback((i: number) => (i >= limit ? 'max-sm:hidden!' : ''), [limit]);
  const shown = Math.min(limit, total);
  const button = 'rounded border border-line-strong px-3 py-1 font-medium text-fg-soft hover:bg-surface-muted';
  const more =
    total > PHONE_ROWS ? (
      <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-sm sm:hidden">
        <span className="text-fg-muted" aria-live="polite">
          {shown} of {total} shown
        </span>
        <span className="flex gap-2">
          {limit > PHONE_ROWS && (
            <button type="button" className={button} onClick={() => setLimit(PHONE_ROWS)}>
              Show fewer
            </button>
          )}
          {shown < total && (
            <button
              type="button"
              className={button}
              aria-label={`Show more of ${label}`}
              onClick={() => setLimit(limit + PHONE_ROWS)}
            >
              Show more
            </button>
          )}
        </span>
      </div>
    ) : null;
  return { hide, more };
}

/** Sets the box's height to the bottom of the last whole row within `maxHeight`. */
export function fitWholeRows(box: HTMLElement, maxHeight: string) {
  box.style.maxHeight = maxHeight;
  const limit = parseFloat(getComputedStyle(box).maxHeight);
  const table = box.querySelector('table');
  if (!table || !Number.isFinite(limit)) return;
  // A sideways scrollbar takes its height from the rows'.
  const scrollbar = box.offsetHeight - box.clientHeight;
  if (table.offsetHeight + scrollbar <= limit) return;
  const head = table.tHead?.offsetHeight ?? 0;
  const top = table.getBoundingClientRect().top;
  let bottom = 0;
  for (const tr of table.tBodies[0]?.rows ?? []) {
    const end = tr.getBoundingClientRect().bottom - top;
    if (end + scrollbar > limit) break;
    bottom = end;
  }
  if (bottom > head) box.style.maxHeight = `${bottom + scrollbar}px`;
}

/**
 * On a phone, where the headers are not shown, the table's sort: a column and a direction, the same
 * URL parameter the headers write.
 */
export function PhoneSort({
  caption,
  columns,
  sort,
  onSort,
}: {
  caption: string;
  columns: readonly { id: string; header: string; numeric?: boolean }[];
  sort: SortState;
  onSort: (s: SortState) => void;
}) {
  const asc = sort.dir === 'asc';
  return (
    <div className="mb-2 flex items-center gap-2 text-sm sm:hidden">
      <label className="flex min-w-0 flex-1 items-center gap-1.5">
        <span className="text-fg-muted">Sort by</span>
        <select
          aria-label={`Sort ${caption} by`}
          value={sort.column}
          onChange={(e) => {
            const c = columns.find((x) => x.id === e.target.value);
            if (c) onSort({ column: c.id, dir: c.numeric ? 'desc' : 'asc' });
          }}
          className="min-w-0 flex-1 rounded border border-line-strong bg-surface px-2 py-1"
        >
          {columns.map((c) => (
            <option key={c.id} value={c.id}>
              {c.header}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        aria-label={asc ? 'Ascending: sort descending' : 'Descending: sort ascending'}
        onClick={() => onSort({ ...sort, dir: asc ? 'desc' : 'asc' })}
        className="rounded border border-line-strong px-2 py-1 font-medium text-fg-soft"
      >
        <span aria-hidden>{asc ? '▲' : '▼'}</span> {asc ? 'Ascending' : 'Descending'}
      </button>
    </div>
  );
}
