import { useRange } from '../data/search';
import { comparisonLabel } from '../lib/dates';
import type { Definition } from '../lib/definitions';
import { relativeChange } from '../lib/format';
import { KpiCard } from './KpiCard';

export interface Kpi {
  label: string;
  value: number | null | undefined;
  /** The same figure over the previous period; undefined while it loads. */
  previous?: number | null;
  hint?: string;
  format?: (n: number) => string;
  /** Given for the whole organization only, and teams are selected: the card says so instead of a number. */
  orgOnly?: boolean;
  /** What the figure counts, when it is one of the decided definitions (lib/definitions.ts). */
  definition?: Definition;
}

/**
 * KPI cards with the change against the range's previous period (lib/dates.ts' `previousPeriod`: the
 * previous calendar month for a month, else the same length before), shown only when that period lies
 * within history (`hasPrevious`); without `hasPrevious` the cards make no comparison at all. A change is
 * coloured by its figure's definition (`better`), neutral without one.
 */
export function KpiGrid({ items, hasPrevious }: { items: readonly Kpi[]; hasPrevious?: boolean }) {
  const { range } = useRange();
  const against = comparisonLabel(range);
  return (
    // Seven or eight cards read as two rows of four rather than six and a straggler.
    <div
      className={`grid grid-cols-2 gap-3 md:grid-cols-3 ${items.length === 7 || items.length === 8 ? 'xl:grid-cols-4' : 'xl:grid-cols-6'}`}
    >
      {items.map((k) => (
        <KpiCard
          key={k.label}
          label={k.label}
          value={k.value}
          hint={k.hint}
          format={k.format}
          orgOnly={k.orgOnly}
          definition={k.definition}
          against={against}
          change={
            hasPrevious === undefined
              ? undefined
              : !hasPrevious
                ? null
                : k.value == null || k.previous == null
                  ? undefined
                  : relativeChange(k.value, k.previous)
          }
        />
      ))}
    </div>
  );
}
