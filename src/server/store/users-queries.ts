/**
 * The store's reads for the users pages: the fact columns of a `/users` row (what the analytics engine copies,
 * src/server/analytics), one user's days, and the version of a range (what a cached table or an ETag is valid
 * for).
 */
import type { Kysely, Transaction } from 'kysely';
import { SUMMED_FIELDS } from '../../lib/user-merge';
import type { Schema, UserDayFactColumns } from './schema';

type Db = Kysely<Schema> | Transaction<Schema>;

/** The numeric fields of a `/users` row kept as columns: the table's sums, and the ratio it weights. */
export const NUMERIC_FACTS = [...Object.values(SUMMED_FIELDS), 'autonomy_ratio'] as const;
/** The text fields kept as columns (`languages` as a JSON array). */
export const TEXT_FACTS = ['primary_model', 'primary_model_tier', 'delegation_level', 'languages'] as const;

export type UserDayFacts = { [K in keyof UserDayFactColumns]: NonNullable<UserDayFactColumns[K]> };

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const text = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * The fact columns of one `/users` row as the service sent it (already checked
 * against the contract: a field is missing only where the contract lets it be).
 */
export function userDayFacts(row: Record<string, unknown>): UserDayFacts {
  const facts = {} as Record<string, number | string>;
  for (const k of NUMERIC_FACTS) facts[k] = num(row[k]);
  for (const k of TEXT_FACTS.slice(0, 3)) facts[k] = text(row[k]);
  const langs = Array.isArray(row.languages) ? row.languages.filter((l) => typeof l === 'string') : [];
  facts.languages = JSON.stringify(langs);
  return facts as UserDayFacts;
}

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
