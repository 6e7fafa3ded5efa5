import type { Better } from '../lib/definitions';
import { formatChange, formatExact } from '../lib/format';

/**
 * The colour of a change: green when it goes the figure's good way, red when the other, and neutral when
 * the figure declares no good way (`Definition.better`) or did not move. The decision is the figure's, in
 * lib/definitions.ts, never the badge's.
 */
export function changeTone(change: number, better: Better | undefined): string {
  if (!better || change === 0) return 'text-fg-soft';
  return change > 0 === (better === 'up') ? 'text-success' : 'text-danger';
}

/** The arrow of a change (the colour alone never says the direction). */
export const changeArrow = (change: number) => (change > 0 ? '▲' : change < 0 ? '▼' : '■');

/**
 * A figure's change against the previous period, in a table cell: "▲ +12.3%", "no earlier period" when
 * that period lies before history, "from 0" when the figure was zero then; coloured by `better`.
 */
export function Change({ now, before, better }: { now: number; before: number | null; better?: Better }) {
  if (before === null) return <span className="text-fg-subtle">no earlier period</span>;
  if (before === 0) {
    return now === 0 ? (
      <span className="text-fg-subtle">
        <span aria-hidden>■</span> 0%
      </span>
    ) : (
      <span className="text-fg-subtle" title="The previous period had none.">
        from 0
      </span>
    );
  }
  const change = (now - before) / Math.abs(before);
  return (
    <span className={changeTone(change, better)} title={`previous period: ${formatExact(before)}`}>
      <span aria-hidden>{changeArrow(change)}</span> {formatChange(change)}
    </span>
  );
}
