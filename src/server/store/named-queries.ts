/** The store's record of the first day each member of the team mapping was named (table `member_named`, 0015). */
import type { Kysely } from 'kysely';
import type { Day } from '../../lib/dates';
import type { Schema } from './schema';

/** Where the first day each member was named is kept: the store, or (without one, in tests and the bench) memory. */
export interface NamedKeeper {
  /**
   * Records `day` as the first day of each key not recorded yet (a key recorded keeps its day) and gives every key's
   * first day.
   */
  named(keys: readonly string[], day: Day): Promise<Map<string, Day>>;
}

/** Rows written or read in one statement at most (PostgreSQL takes 65,535 parameters, SQLite 32,766). */
const CHUNK = 5000;

export function storedNamed(db: Kysely<Schema>): NamedKeeper {
  return {
    async named(keys, day) {
      const out = new Map<string, Day>();
      for (let i = 0; i < keys.length; i += CHUNK) {
        const part = keys.slice(i, i + CHUNK);
        await db
          .insertInto('member_named')
          .values(part.map((member) => ({ member, first_day: day })))
          .onConflict((oc) => oc.column('member').doNothing())
          .execute();
        const rows = await db.selectFrom('member_named').selectAll().where('member', 'in', part).execute();
        for (const r of rows) out.set(r.member, r.first_day);
      }
      return out;
    },
  };
}

/** First days kept in memory, for a runner without a store. */
export function memoryNamed(): NamedKeeper {
  const kept = new Map<string, Day>();
  return {
    async named(keys, day) {
      for (const k of keys) if (!kept.has(k)) kept.set(k, day);
      return new Map(keys.map((k) => [k, kept.get(k)!]));
    },
  };
}
