/**
 * The store's reads for the users pages: one user's days, and the version of a range (what a cached table or an
 * ETag is valid for).
 */
import type { Kysely, Transaction } from 'kysely';
import type { Schema } from './schema';

type Db = Kysely<Schema> | Transaction<Schema>;

/** What the stored days of a range are: how many, when last written, and whether all are final. */
export interface RangeVersion {
  storedDays: number;
  /** The latest `synced_at` of the range's days: a walk of any of them changes it. */
  syncedAt: string | null;
  allFinal: boolean;
}

export async function rangeVersion(db: Db, start: string, end: string): Promise<RangeVersion> {
  const row = await db
    .selectFrom('users_day')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('days'),
      eb.fn.max('synced_at').as('synced'),
      eb.fn.min('final').as('final'),
    ])
    .where((eb) => eb.between('day', start, end))
    .executeTakeFirst();
  const storedDays = Number(row?.days ?? 0);
  return { storedDays, syncedAt: row?.synced ?? null, allFinal: storedDays > 0 && Number(row?.final) === 1 };
}

/** One user's rows of the range (JSON as the service sent them), in day order. */
export async function userDayRows(db: Db, userId: string, start: string, end: string): Promise<string[]> {
  const rows = await db
    .selectFrom('user_day')
    .select('row')
    .where('user_id', '=', userId)
    .where((eb) => eb.between('day', start, end))
    .orderBy('day')
    .execute();
  return rows.map((r) => r.row);
}
