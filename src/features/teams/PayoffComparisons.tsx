import { CARD_CELL, CARD_ROW, CARD_TABLE, CARD_TEXT } from '../../components/TableFrame';
import { formatDayLong } from '../../lib/dates';
import { DEFINITIONS } from '../../lib/definitions';
import { formatCompact, formatDecimal } from '../../lib/format';
import type { Comparison, PayoffFigures } from '../../lib/payoff';
import { ratio } from './columns';
import { markerLabel, shortRepo } from './payoff-shaping';

const FIGURES: readonly { key: keyof PayoffFigures; label: string; format: (n: number) => string }[] = [
  { key: 'toolCallsPerTurn', label: DEFINITIONS.toolCallsPerTurn.label, format: ratio },
  { key: 'creditsPerCommit', label: DEFINITIONS.creditsPerCommit.label, format: formatCompact },
  { key: 'creditsPerPr', label: DEFINITIONS.creditsPerPullRequest.label, format: formatCompact },
  { key: 'activePeople', label: `${DEFINITIONS.activePeople.label} (weekly mean)`, format: (n) => formatDecimal(n, 1) },
];

const show = (v: number | null, format: (n: number) => string) => (v === null ? '—' : format(v));

/**
 * Each change's before and after figures, or why there are none; with the repositories and weeks behind it.
 * On a phone each change is a card (TableFrame's), a figure to a line, so no figure lies off to the side.
 */
export function PayoffComparisons({ comparisons }: { comparisons: readonly Comparison[] }) {
  return (
    <div className="overflow-auto">
      <p className="text-xs text-fg-muted">
        Each change, numbered as on the chart; each figure over the whole weeks before → after it.
      </p>
      <table className={`w-full text-sm ${CARD_TABLE}`}>
        <caption className="sr-only">Figures in the whole weeks before and after each level change</caption>
        <thead className="text-left text-fg-muted max-sm:hidden">
          <tr>
            <th scope="col" className="py-1.5 pr-3 font-medium">
              Change
            </th>
            <th scope="col" className="py-1.5 pr-3 font-medium">
              Behind it
            </th>
            {FIGURES.map((f) => (
              <th key={f.key} scope="col" className="py-1.5 pr-3 text-right font-medium">
                {f.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {comparisons.map((c, i) => (
            <tr key={`${c.week}|${c.direction}`} className={`border-t border-line-subtle align-top ${CARD_ROW}`}>
              <th scope="row" className="py-1.5 pr-3 text-left font-normal max-sm:col-span-2">
                <span className="whitespace-nowrap max-sm:whitespace-normal">
                  #{i + 1} {markerLabel(c)}, week of {formatDayLong(c.week)}
                </span>
                <span className="block text-xs text-fg-subtle">
                  {c.changes.map((x) => `${shortRepo(x.repo)} ${x.from} → ${x.to}`).join('; ')}
                </span>
              </th>
              <td data-label="Behind it" className={`py-1.5 pr-3 whitespace-nowrap ${CARD_CELL} ${CARD_TEXT}`}>
                {c.repos} {c.repos === 1 ? 'repository' : 'repositories'}
                {c.before && `; ${c.before.weeks.length} + ${c.after.weeks.length} whole weeks`}
              </td>
              {c.before ? (
                FIGURES.map((f) => (
                  <td
                    key={f.key}
                    data-label={f.label}
                    className={`py-1.5 pr-3 text-right whitespace-nowrap tabular-nums ${CARD_CELL} max-sm:col-span-2`}
                  >
                    {show(c.before.figures[f.key], f.format)} → {show(c.after.figures[f.key], f.format)}
                  </td>
                ))
              ) : (
                <td colSpan={FIGURES.length} className={`py-1.5 pr-3 text-fg-muted ${CARD_TEXT}`}>
                  {c.reason}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
