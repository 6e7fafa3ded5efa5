import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Mark } from '../api/marks';
import { useAppConfig } from '../data/config';
import { pageRefusal, useReader } from '../data/me';
import { useLinkTo } from '../data/search';
import { addDays, formatDayLong, type Day } from '../lib/dates';
import type { Frame } from './chart-frame';

/** A mark as a chart draws it: the point it stands on (its day's, its week's, or the next day shown) and its number. */
export interface PlacedMark {
  mark: Mark;
  /** The x value (a point's date) it is drawn at. */
  x: Day;
  /** 1, 2, …: its number on the chart and in the list under the table view. */
  n: number;
}

/** Days a mark may stand from the point that shows it: a weekend and holidays left out of a daily chart, a week's days. */
const NEAR = 6;

/**
 * Where each mark of the range stands among the points drawn: on a weekly chart, the week holding its day;
 * on a daily chart, its day, or the next day shown when its day is left out (a weekend), else the last.
 * A mark away from every point drawn (of another range, still shown while the new one loads) is left out.
 */
export function placeMarks(marks: readonly Mark[], points: readonly { date: Day }[], weekly: boolean): PlacedMark[] {
  if (points.length === 0) return [];
  const first = points[0]!.date;
  const last = points.at(-1)!.date;
  const out: PlacedMark[] = [];
  for (const mark of [...marks].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0))) {
    const d = mark.day;
    let x: Day | undefined;
    if (weekly) x = d >= first && d <= addDays(last, NEAR) ? points.findLast((p) => p.date <= d)?.date : undefined;
    else if (d >= addDays(first, -NEAR) && d <= addDays(last, NEAR))
      x = (points.find((p) => p.date >= d) ?? points.at(-1)!).date;
    if (x !== undefined) out.push({ mark, x, n: out.length + 1 });
  }
  return out;
}

/** Whose mark it is, in words. */
export const markScope = (m: Mark) => (m.team === '' ? 'Organization' : m.team);

/** A mark in one line, as its button names it and the CSV holds it: its day, its scope, its text. */
export const markLine = (m: Mark) => `${formatDayLong(m.day)}, ${m.team === '' ? 'organization' : m.team}: ${m.text}`;

/**
 * The marks over a chart: a dashed line at each one's point and a numbered flag, a button named by its
 * day, scope and text, which shows the text on hover, on keyboard focus and on a tap (Escape hides it).
 * Drawn over whichever renderer paints, from the same frame.
 */
export function ChartMarks({
  frame,
  placed,
  points,
  xKey,
  offset = 0,
}: {
  frame: Frame;
  placed: readonly PlacedMark[];
  points: readonly Record<string, unknown>[];
  xKey: string;
  /** How far below the plot's top the flags start (under a chart's own labelled lines). */
  offset?: number;
}) {
  const index = new Map(points.map((p, i) => [String(p[xKey]), i]));
  const rows = new Map<string, number>();
  return (
    <>
      {placed.map((p) => {
        const i = index.get(p.x);
        if (i === undefined) return null;
        const row = rows.get(p.x) ?? 0;
        rows.set(p.x, row + 1);
        return (
          <MarkFlag key={p.mark.id} p={p} cx={frame.x(i)} row={row} frame={frame} first={row === 0} offset={offset} />
        );
      })}
    </>
  );
}

function MarkFlag({
  p,
  cx,
  row,
  frame,
  first,
  offset,
}: {
  p: PlacedMark;
  cx: number;
  row: number;
  frame: Frame;
  first: boolean;
  offset: number;
}) {
  const [open, setOpen] = useState(false);
  const right = cx > frame.width / 2;
  const top = frame.top + offset + row * 20;
  return (
    <>
      {first && (
        <div
          aria-hidden="true"
          data-mark-line={p.x}
          className="pointer-events-none absolute border-l border-dashed border-fg-muted"
          style={{ left: cx, top: frame.top, height: frame.bottom - frame.top }}
        />
      )}
      <button
        type="button"
        data-mark={p.mark.id}
        aria-label={`Mark ${p.n}, ${markLine(p.mark)}`}
        aria-expanded={open}
        onMouseEnter={() => setOpen(true)}
        onMouseLeave={() => setOpen(false)}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setOpen(false);
        }}
        className="absolute z-10 flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-accent px-1 text-[10px] leading-none font-semibold text-fg-inverse shadow-sm focus:outline-2 focus:outline-offset-1 focus:outline-accent-strong"
        style={{ left: cx - 9, top }}
      >
        {p.n}
      </button>
      {open && (
        <div
          aria-hidden="true"
          className="absolute z-20 w-max max-w-[min(16rem,80vw)] rounded border border-line bg-surface px-2 py-1 text-xs text-fg shadow-md"
          style={{ top: top + 22, ...(right ? { right: frame.width - cx - 9 } : { left: cx - 9 }) }}
        >
          <span className="block font-medium text-fg-muted">
            {formatDayLong(p.mark.day)} · {markScope(p.mark)}
          </span>
          <span className="block">{p.mark.text}</span>
        </div>
      )}
    </>
  );
}

/** The marks under a chart's table view: number, day, scope and text. */
export function MarksList({ placed }: { placed: readonly PlacedMark[] }) {
  if (placed.length === 0) return null;
  return (
    <table className="mt-3 w-full text-sm">
      <caption className="mb-1 text-left text-sm font-semibold text-fg">Marks</caption>
      <thead className="text-left text-fg-muted">
        <tr>
          <th scope="col" className="py-1 pr-3 font-medium">
            #
          </th>
          <th scope="col" className="py-1 pr-3 font-medium">
            Day (UTC)
          </th>
          <th scope="col" className="py-1 pr-3 font-medium">
            For
          </th>
          <th scope="col" className="py-1 font-medium">
            Mark
          </th>
        </tr>
      </thead>
      <tbody>
        {placed.map((p) => (
          <tr key={p.mark.id} className="border-t border-line-subtle align-top">
            <td className="py-1 pr-3 tabular-nums">{p.n}</td>
            <th scope="row" className="py-1 pr-3 text-left font-normal whitespace-nowrap">
              {formatDayLong(p.mark.day)}
            </th>
            <td className="py-1 pr-3">{markScope(p.mark)}</td>
            <td className="py-1 break-words">
              {p.mark.text}
              {p.mark.source === 'prices' && <span className="text-fg-subtle"> (from the price list)</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Under a chart's table view, for a reader who may write marks: the way to the marks screen. */
export function MarksLink() {
  const { teams } = useAppConfig();
  const mayMark = pageRefusal(useReader(), '/settings/marks') === null;
  const linkTo = useLinkTo();
  if (!teams || !mayMark) return null;
  return (
    <p className="mt-2 text-xs">
      <Link to={linkTo('/settings/marks')} className="text-accent-strong underline">
        Add a mark
      </Link>{' '}
      <span className="text-fg-subtle">(a rollout, a training, a change in how the vendor counts)</span>
    </p>
  );
}

/** The CSV cell of a point's marks: each as `<day> <scope>: <text>`, separated by `; `. */
export function marksCell(placed: readonly PlacedMark[], x: Day): string {
  return placed
    .filter((p) => p.x === x)
    .map((p) => `${p.mark.day} ${p.mark.team === '' ? 'organization' : p.mark.team}: ${p.mark.text}`)
    .join('; ');
}
