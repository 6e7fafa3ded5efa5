import { formatChange, formatExact } from '../lib/format';

/**
 * A figure's change against the previous period of the same length, in a table cell: "▲ +12.3%",
 * "no earlier period" when that period lies before history, "from 0" when the figure was zero then.
 */
export function Change({ now, before }: { now: number; before: number | null }) {
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
  const up = change > 0;
  const down = change < 0;
  return (
    <span className={up ? 'text-success' : down ? 'text-danger' : ''} title={`previous period: ${formatExact(before)}`}>
      <span aria-hidden>{up ? '▲' : down ? '▼' : '■'}</span> {formatChange(change)}
    </span>
  );
}
