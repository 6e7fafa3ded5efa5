import { useRange } from '../data/search';
import { comparisonLabel } from '../lib/dates';
import type { Definition } from '../lib/definitions';
import { KpiCard } from './KpiCard';

export interface Kpi {
  label: string;
  value: number | null | undefined;
  /** The same figure over the previous period; undefined while it loads, null when there is none to say. */
  previous?: number | null;
  /** A share: its change in percentage points. */
  points?: boolean;
  hint?: string;
  format?: (n: number) => string;
  /** Given for the whole organization only, and teams are selected: the card says so instead of a number. */
  orgOnly?: boolean;
  /**
   * How the figure is counted (lib/definitions.ts), said by the card's info button: every headline card has one.
   * Undefined only while a page's glossary is still loading (the usage page loads it after its first chart).
   */
  definition: Definition | undefined;
}

/** A card labelled as its definition and carrying it: `{ ...definedAs(DEFINITIONS.sessions), value }`. */
export const definedAs = (definition: Definition) => ({ label: definition.label, definition });

/** Columns by the number of cards: rows of four (seven or eight as two), five, or six, never a straggler. */
const COLUMNS: Record<number, string> = {
  4: 'md:grid-cols-4',
  5: 'md:grid-cols-3 xl:grid-cols-5',
  7: 'md:grid-cols-3 xl:grid-cols-4',
  8: 'md:grid-cols-3 xl:grid-cols-4',
};

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
    <div className={`grid grid-cols-2 gap-3 ${COLUMNS[items.length] ?? 'md:grid-cols-3 xl:grid-cols-6'}`}>
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
          points={k.points}
          before={hasPrevious === undefined ? undefined : hasPrevious ? (k.previous ?? undefined) : null}
        />
      ))}
    </div>
  );
}
