import { formatChange, formatCompact, formatExact } from '../lib/format';
import { OrgOnlyNote } from './OrgOnly';

interface Props {
  label: string;
  value: number | null | undefined;
  /** Relative change against the previous period, or null when there is none. */
  change?: number | null;
  /** Shown under the value, e.g. "latest day". */
  hint?: string;
  format?: (n: number) => string;
  /** The figure is given for the whole organization only and teams are selected: a note, no number. */
  orgOnly?: boolean;
}

export function KpiCard({ label, value, change, hint, format = formatCompact, orgOnly }: Props) {
  if (orgOnly) {
    return (
      <div className="rounded-lg border border-line bg-surface p-4 shadow-sm">
        <p className="text-sm text-fg-subtle">{label}</p>
        <OrgOnlyNote className="mt-1" />
      </div>
    );
  }
  const up = change != null && change > 0;
  const down = change != null && change < 0;
  return (
    <div className="rounded-lg border border-line bg-surface p-4 shadow-sm">
      <p className="text-sm text-fg-subtle">{label}</p>
      <p
        className="mt-1 text-2xl font-semibold tabular-nums text-fg"
        title={value == null ? undefined : formatExact(value)}
      >
        {value == null ? '–' : format(value)}
      </p>
      <p className="mt-1 text-xs text-fg-subtle">
        {change !== undefined && (
          <span className={up ? 'text-success' : down ? 'text-danger' : ''}>
            {change === null
              ? 'no earlier period'
              : `${up ? '▲' : down ? '▼' : '■'} ${formatChange(change)} vs previous period`}
          </span>
        )}
        {hint && <span className="ml-1">{hint}</span>}
      </p>
    </div>
  );
}
