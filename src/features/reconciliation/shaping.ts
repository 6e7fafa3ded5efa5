/**
 * The reconciliation's answer as the page shows it: a row per day of one figure, the chart's points (the difference
 * by part), the range's sums and the days that need a word, and the CSV of every figure.
 */
import {
  RECONCILED,
  SERVICE_FIELDS,
  type Reconciled,
  type Reconciliation,
  type ReconciledFigure,
} from '../../api/reconciliation';
import type { CsvSpec } from '../../components/Widget';
import type { Day } from '../../lib/dates';
import { MEASURES } from '../../lib/measures';

/** A figure's name on the page: the measure's own label (lib/measures.ts). */
export const figureLabel = (m: Reconciled) => MEASURES[m].definition.label;

/** Where the service gives the figure, in words: "billable_tokens of /tokens". */
export const serviceSource = (m: Reconciled) => `${SERVICE_FIELDS[m].field} of /${SERVICE_FIELDS[m].endpoint}`;

/** Whether a day is synced, and whether its figures may still change. */
export type DayState = 'synced' | 'open' | 'not synced';

export const stateOf = (d: { synced: boolean; final: boolean }): DayState =>
  !d.synced ? 'not synced' : d.final ? 'synced' : 'open';

export const STATE_LABEL: Record<DayState, string> = {
  synced: 'Synced',
  open: 'Synced, may still change',
  'not synced': 'Not yet synced',
};

export interface DayRow extends ReconciledFigure {
  day: Day;
  state: DayState;
  /** The service's figure less the dashboard's. */
  difference: number;
}

export const rowsOf = (r: Reconciliation, m: Reconciled): DayRow[] =>
  r.days.map((d) => {
    const f = d.figures[m];
    return { day: d.day, state: stateOf(d), ...f, difference: f.service - f.dashboard };
  });

/** The parts of the difference, as the chart stacks them. */
export const PARTS = ['notSynced', 'outside', 'unexplained'] as const;
export type Part = (typeof PARTS)[number];

export const pointsOf = (r: Reconciliation, m: Reconciled) =>
  r.days.map((d) => ({
    date: d.day,
    notSynced: d.figures[m].notSynced,
    outside: d.figures[m].outside,
    unexplained: d.figures[m].unexplained,
  }));

/** The range's sums of one figure (of active people, person-days), and the days a reader should be told of. */
export function summaryOf(r: Reconciliation, m: Reconciled) {
  const sum = (k: keyof ReconciledFigure) => r.days.reduce((n, d) => n + d.figures[m][k], 0);
  return {
    service: sum('service'),
    dashboard: sum('dashboard'),
    notSynced: sum('notSynced'),
    outside: sum('outside'),
    unexplained: sum('unexplained'),
    unsynced: r.days.filter((d) => !d.synced).map((d) => d.day),
    open: r.days.filter((d) => d.synced && !d.final).map((d) => d.day),
    /** Days with anything unexplained, in any figure. */
    unexplainedDays: r.days.filter((d) => RECONCILED.some((x) => d.figures[x].unexplained !== 0)).map((d) => d.day),
  };
}

/** Every figure of every day, one row each: what the page's tables show, figure by figure. */
export function csvOfAll(r: Reconciliation, filename: string): CsvSpec {
  return {
    filename,
    header: [
      'date',
      'figure',
      'state',
      'service',
      'dashboard',
      'difference',
      'not_synced',
      r.outside === 'mapping' ? 'outside_mapping' : 'outside_teams',
      'unexplained',
    ],
    rows: r.days.flatMap((d) =>
      RECONCILED.map((m) => {
        const f = d.figures[m];
        return [
          d.day,
          m,
          stateOf(d),
          f.service,
          f.dashboard,
          f.service - f.dashboard,
          f.notSynced,
          f.outside,
          f.unexplained,
        ];
      }),
    ),
  };
}
