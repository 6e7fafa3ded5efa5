/** The store's reads and writes of intensity's frozen thresholds (table `intensity_threshold`, migration 0014). */
import type { Kysely } from 'kysely';
import type { Thresholds } from '../../lib/intensity';
import type { IntensityThresholdTable, Schema } from './schema';

/** Where a quarter's thresholds are kept: the store, or (without one, in tests and the bench) memory. */
export interface ThresholdKeeper {
  /** The thresholds kept for these quarters (those of none are left out). */
  read(quarters: readonly string[]): Promise<Thresholds[]>;
  /**
   * Keeps a quarter's thresholds and gives those kept: with `by` (an admin's refresh, their email, or '' without
   * sign-in) in place of any kept; without it, only if none are kept yet (two replicas computing a quarter's first
   * thresholds at once keep the first one's).
   */
  keep(t: Omit<Thresholds, 'refreshed'>, by?: string): Promise<Thresholds>;
}

const fromRow = (r: IntensityThresholdTable): Thresholds => ({
  quarter: r.quarter,
  p25: Number(r.p25),
  p50: Number(r.p50),
  p75: Number(r.p75),
  people: Number(r.people),
  basis: { start: r.basis_start, end: r.basis_end },
  computedAt: r.computed_at,
  refreshed: r.refreshed_by !== null,
});

export function storedThresholds(db: Kysely<Schema>): ThresholdKeeper {
  const read = async (quarters: readonly string[]) =>
    quarters.length === 0
      ? []
      : (
          await db
            .selectFrom('intensity_threshold')
            .selectAll()
            .where('quarter', 'in', [...quarters])
            .orderBy('quarter')
            .execute()
        ).map(fromRow);
  return {
    read,
    async keep(t, by) {
      const row: IntensityThresholdTable = {
        quarter: t.quarter,
        p25: t.p25,
        p50: t.p50,
        p75: t.p75,
        people: t.people,
        basis_start: t.basis.start,
        basis_end: t.basis.end,
        computed_at: t.computedAt,
        refreshed_by: by ?? null,
      };
      await db
        .insertInto('intensity_threshold')
        .values(row)
        .onConflict((oc) => {
          const on = oc.column('quarter');
          if (by === undefined) return on.doNothing();
          const { p25, p50, p75, people, basis_start, basis_end, computed_at, refreshed_by } = row;
          return on.doUpdateSet({ p25, p50, p75, people, basis_start, basis_end, computed_at, refreshed_by });
        })
        .execute();
      const [kept] = await read([t.quarter]);
      return kept!;
    },
  };
}

/** Thresholds kept in memory, for a runner without a store. */
export function memoryThresholds(): ThresholdKeeper {
  const kept = new Map<string, Thresholds>();
  return {
    read: async (quarters) =>
      quarters.flatMap((q) => kept.get(q) ?? []).sort((a, b) => (a.quarter < b.quarter ? -1 : 1)),
    async keep(t, by) {
      if (by === undefined && kept.has(t.quarter)) return kept.get(t.quarter)!;
      const v = { ...t, refreshed: by !== undefined };
      kept.set(t.quarter, v);
      return v;
    },
  };
}
