import type { Better, Definition } from '../lib/definitions';
import { formatChange, formatCompact, formatExact } from '../lib/format';
import { changeArrow, changeTone } from './Change';
import { DefinitionTip } from './Definition';
import { OrgOnlyNote } from './OrgOnlyNote';

interface Props {
  label: string;
  value: number | null | undefined;
  /**
   * The figure over the previous period, to say the change against it: null when there is no earlier period,
   * undefined while it loads (or when the card makes no comparison).
   */
  before?: number | null;
  /** The change of a share in percentage points ("+4.0 pts"), not relative to it. */
  points?: boolean;
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

/**
 * The change line: relative to the earlier figure ("▲ +12.0%"), in points for a share, "from 0" when the
 * earlier period had none (it exists: it is not "no earlier period"), coloured by the figure's good way.
 */
function changeLine({
  value,
  before,
  points,
  better,
  against,
}: Pick<Props, 'value' | 'before' | 'points' | 'against'> & { better?: Better }) {
  if (before === null) return <span>no earlier period</span>;
  if (value == null || before === undefined) return null;
  if (!points && before === 0 && value !== 0)
    return <span title="The previous period had none.">{`${changeArrow(value)} from 0 ${against}`}</span>;
  const change = points ? value - before : before === 0 ? 0 : (value - before) / Math.abs(before);
  return (
    <span className={changeTone(change, better)}>
      {`${changeArrow(change)} ${formatChange(change, points ? ' pts' : '%')} ${against}`}
    </span>
  );
}

export function KpiCard({
  label,
  value,
  before,
  points,
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
  const change = changeLine({ value, before, points, better: definition?.better, against });
  if (orgOnly) {
    return (
      <div data-kpi={label} className="relative rounded-lg border border-line bg-surface p-4 shadow-sm">
        <p className={labelClass}>{label}</p>
        {tip}
        <OrgOnlyNote className="mt-1" />
      </div>
    );
  }
  return (
    <div data-kpi={label} className="relative rounded-lg border border-line bg-surface p-4 shadow-sm">
      <p className={labelClass}>{label}</p>
      {tip}
      <p
        className="mt-1 text-2xl font-semibold tabular-nums text-fg"
        title={value == null ? undefined : formatExact(value)}
      >
        {value == null ? '–' : format(value)}
      </p>
      <p className="mt-1 text-xs text-fg-subtle">
        {change}
        {hint && <span className={change ? 'ml-1' : undefined}>{hint}</span>}
      </p>
    </div>
  );
}
