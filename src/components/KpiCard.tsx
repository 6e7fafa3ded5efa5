import type { Definition } from '../lib/definitions';
import { formatChange, formatCompact, formatExact } from '../lib/format';
import { changeArrow, changeTone } from './Change';
import { DefinitionTip } from './Definition';
import { OrgOnlyNote } from './OrgOnlyNote';

interface Props {
  label: string;
  value: number | null | undefined;
  /** Relative change against the previous period, or null when there is none. */
  change?: number | null;
  /** What the change is against, e.g. "vs April" (lib/dates.ts' comparisonLabel). */
  against?: string;
  /** Shown under the value, e.g. "latest day". */
  hint?: string;
  format?: (n: number) => string;
  /** The figure is given for the whole organization only and teams are selected: a note, no number. */
  orgOnly?: boolean;
  /** What the figure counts (lib/definitions.ts): an info button in the card's corner says it. */
  definition?: Definition;
}

export function KpiCard({
  label,
  value,
  change,
  against = 'vs previous period',
  hint,
  format = formatCompact,
  orgOnly,
  definition,
}: Props) {
  // The button sits in the corner, not inside the label's paragraph: the label stays a line of its own,
  // and room is kept for the button so a long label wraps before it rather than under it.
  const tip = definition && <DefinitionTip definition={definition} className="absolute top-3 right-3" />;
  const labelClass = `text-sm text-fg-subtle ${definition ? 'pr-5' : ''}`;
  if (orgOnly) {
    return (
      <div className="relative rounded-lg border border-line bg-surface p-4 shadow-sm">
        <p className={labelClass}>{label}</p>
        {tip}
        <OrgOnlyNote className="mt-1" />
      </div>
    );
  }
  return (
    <div className="relative rounded-lg border border-line bg-surface p-4 shadow-sm">
      <p className={labelClass}>{label}</p>
      {tip}
      <p
        className="mt-1 text-2xl font-semibold tabular-nums text-fg"
        title={value == null ? undefined : formatExact(value)}
      >
        {value == null ? '–' : format(value)}
      </p>
      <p className="mt-1 text-xs text-fg-subtle">
        {change !== undefined && (
          <span className={change === null ? undefined : changeTone(change, definition?.better)}>
            {change === null ? 'no earlier period' : `${changeArrow(change)} ${formatChange(change)} ${against}`}
          </span>
        )}
        {hint && <span className="ml-1">{hint}</span>}
      </p>
    </div>
  );
}
