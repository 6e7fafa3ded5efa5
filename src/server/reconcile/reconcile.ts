/**
 * The reconciliation's arithmetic, pure: each day's service total split into the dashboard's figure and the parts of
 * the difference, so that they add up to the service's exactly (src/api/reconciliation.ts says what each part is).
 */
import { RECONCILED, type ReconciledDay, type ReconciledFigure, type Reconciled } from '../../api/reconciliation';
import type { Day } from '../../lib/dates';

export type DayValues = Record<Reconciled, number>;

export interface ReconcileInput {
  days: readonly Day[];
  /** The service's organization totals of each day (a day it gave no row for: none). */
  service: ReadonlyMap<Day, DayValues>;
  /** The days whose per-person rows the dashboard holds. */
  synced: ReadonlySet<Day>;
  /** The days no figure of will change (past the refresh window, for every answer they come from). */
  final: ReadonlySet<Day>;
  /** Everyone's sum over their per-person rows, each day. */
  everyone: ReadonlyMap<Day, DayValues>;
  /** The dashboard's: the sum over the people it shows for the scope. */
  counted: ReadonlyMap<Day, DayValues>;
}

/**
 * A difference of sums of the same numbers taken in another order is not exactly 0 when they have fractions: what is
 * under a billionth of the figures it comes from is rounding, not a difference.
 */
const clean = (x: number, ...of: number[]) => (Math.abs(x) <= 1e-9 * Math.max(1, ...of.map(Math.abs)) ? 0 : x);

export function reconcile(input: ReconcileInput): ReconciledDay[] {
  return input.days.map((day) => {
    const synced = input.synced.has(day);
    const figures = Object.fromEntries(
      RECONCILED.map((m): [Reconciled, ReconciledFigure] => {
        const service = input.service.get(day)?.[m] ?? 0;
        const everyone = input.everyone.get(day)?.[m] ?? 0;
        const dashboard = input.counted.get(day)?.[m] ?? 0;
        // A day not synced is the whole difference: the dashboard has none of its people yet.
        if (!synced)
          return [
            m,
            { service, dashboard, notSynced: clean(service - dashboard, service), outside: 0, unexplained: 0 },
          ];
        const outside = clean(everyone - dashboard, everyone);
        const unexplained = clean(service - everyone, service, everyone);
        return [m, { service, dashboard, notSynced: 0, outside, unexplained }];
      }),
    ) as Record<Reconciled, ReconciledFigure>;
    return { day, synced, final: input.final.has(day), figures };
  });
}
