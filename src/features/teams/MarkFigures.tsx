import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/errors';
import type { Mark, MarkFigures as Answer } from '../../api/marks';
import { CARD_CELL, CARD_ROW, CARD_TABLE } from '../../components/TableFrame';
import { Change } from '../../components/Change';
import { markFiguresQuery } from '../../data/marks';
import { formatDayLong, formatDayShort, type DayRange } from '../../lib/dates';
import { formatCompact, formatExact } from '../../lib/format';
import { MEASURES, type Measure, type MeasureId } from '../../lib/measures';
import { formatMoney, formatMoneyExact } from '../../lib/money';
import { CORRELATION_CAVEAT } from '../../lib/payoff';
import { ratio } from './columns';

/** A figure as the rest of the dashboard writes its unit: people whole, money in its currency, ratios to a tenth. */
function formatOf(m: Measure, currency: string | null): { short: (n: number) => string; exact: (n: number) => string } {
  if (m.unit === 'money' && currency)
    return { short: (n) => formatMoney(n, currency), exact: (n) => formatMoneyExact(n, currency) };
  if (m.unit === 'ratio') return { short: ratio, exact: formatExact };
  if (m.unit === 'people') return { short: formatExact, exact: formatExact };
  return { short: formatCompact, exact: formatExact };
}

const span = (r: DayRange) => `${formatDayShort(r.start)} – ${formatDayLong(r.end)}`;
const weeksWord = (n: number) => `${n} whole week${n === 1 ? '' : 's'}`;

/** A figure's value in a cell, exact on hover; "—" with the reason read out when there is nothing to divide by. */
function Value({ v, format }: { v: number | null; format: ReturnType<typeof formatOf> }) {
  if (v === null)
    return (
      <span className="text-fg-subtle" title="none: nothing to divide by in these weeks">
        <span aria-hidden>—</span>
        <span className="sr-only">none: nothing to divide by in these weeks</span>
      </span>
    );
  return <span title={format.exact(v)}>{format.short(v)}</span>;
}

/** The figures of a mark's answer: the measures this dashboard knows, in the server's order. */
const knownFigures = (a: Answer) =>
  a.figures.flatMap((f) => (f.measure in MEASURES ? [{ ...f, m: MEASURES[f.measure as MeasureId] as Measure }] : []));

/**
 * "Did our change work": a mark's scope's figures over the whole weeks before its week beside as many after it,
 * asked of the server when the reader opens them; or why there are none (too recent, too early, not the reader's
 * to see).
 */
export function MarkFigures({ mark, id }: { mark: Mark; id: string }) {
  const q = useQuery(markFiguresQuery(mark.id));
  const scope = mark.team === '' ? 'The organization' : mark.team;
  if (q.isPending)
    return (
      <p id={id} role="status" className="mt-2 text-sm text-fg-subtle">
        Reading the figures before and after it…
      </p>
    );
  if (q.isError)
    return (
      <p id={id} role="alert" className="mt-2 rounded-md bg-danger-surface p-2 text-sm text-danger-fg">
        {q.error instanceof ApiError ? q.error.detail : String(q.error)}
      </p>
    );
  const a = q.data;
  if (a.reason !== null || !a.before || !a.after)
    return (
      <p id={id} role="status" className="mt-2 text-sm text-fg-soft">
        {a.reason}
      </p>
    );
  return (
    <div id={id} className="mt-2">
      <p className="text-sm text-fg-soft">
        {scope}’s figures over the {weeksWord(a.weeks)} before the week of {formatDayLong(a.week)} ({span(a.before)})
        and the {weeksWord(a.weeks)} after it ({span(a.after)}); the week of the mark itself is left out.
      </p>
      <table className={`mt-1 w-full text-sm ${CARD_TABLE}`}>
        <caption className="sr-only">
          Figures of {scope} before and after the mark of {formatDayLong(mark.day)}
        </caption>
        <thead className="text-left text-fg-muted max-sm:hidden">
          <tr>
            <th scope="col" className="py-1 pr-3 font-medium">
              Figure
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              Before ({weeksWord(a.weeks)})
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              After ({weeksWord(a.weeks)})
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Change
            </th>
          </tr>
        </thead>
        <tbody>
          {knownFigures(a).map((f) => {
            const format = formatOf(f.m, a.currency);
            const label = `${f.m.definition.label}${f.measure === 'active' ? ' (distinct over the weeks)' : ''}`;
            return (
              <tr key={f.measure} className={`border-t border-line-subtle ${CARD_ROW}`}>
                <th scope="row" className="py-1 pr-3 text-left font-normal max-sm:col-span-2 max-sm:font-medium">
                  {label}
                </th>
                <td data-label="Before" className={`py-1 pr-3 text-right tabular-nums ${CARD_CELL}`}>
                  <Value v={f.before} format={format} />
                </td>
                <td data-label="After" className={`py-1 pr-3 text-right tabular-nums ${CARD_CELL}`}>
                  <Value v={f.after} format={format} />
                </td>
                <td data-label="Change" className={`py-1 text-right tabular-nums ${CARD_CELL} max-sm:col-span-2`}>
                  {f.after === null || f.before === null ? (
                    <span className="text-fg-subtle">—</span>
                  ) : (
                    <Change now={f.after} before={f.before} better={f.m.definition.better} />
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p role="note" className="mt-1 text-xs text-fg-muted">
        {CORRELATION_CAVEAT}
      </p>
    </div>
  );
}
