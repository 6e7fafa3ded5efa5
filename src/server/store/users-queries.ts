/**
 * The store's reads for the users pages: the merged table of a range (one
 * grouped query over the fact columns of `user_day`, folded per user by the
 * same accumulator the browser merges rows with), one user's days, and the
 * version of a range (what a cached table or an ETag is valid for).
 */
import type { Kysely, Transaction } from 'kysely';
import { SUMMED_FIELDS, UserMerger, type MergedSums, type MergedUser } from '../../lib/user-merge';
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
    .where('day', '>=', start)
    .where('day', '<=', end)
    .executeTakeFirst();
  const storedDays = Number(row?.days ?? 0);
  return { storedDays, syncedAt: row?.synced ?? null, allFinal: storedDays > 0 && Number(row?.final) === 1 };
}

const byCodeUnits = (a: MergedUser, b: MergedUser) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);

/**
 * One row per user active in the range, in user id order, from two grouped
 * reads of the `user_day_facts` index (never of the rows' JSON): the sums per
 * user, and the range's rows grouped by user and by the values the merge picks
 * from (model, tier, level, languages, email), a few groups per user with their
 * day count and first and last day. `UserMerger` folds both exactly as it
 * folds rows in the browser. (Two narrow reads cost less than one wide one:
 * most of the time goes into making the result rows' objects.)
 */
export async function mergedUsers(db: Db, start: string, end: string): Promise<MergedUser[]> {
  const sumColumns = Object.values(SUMMED_FIELDS);
  const totals = await db
    .selectFrom('user_day')
    .select((eb) => [
      'user_id',
      eb.fn.sum<number>(eb('autonomy_ratio', '*', eb.ref('user_messages'))).as('ratio_weighted'),
      ...sumColumns.map((k) => eb.fn.sum<number>(k).as(k)),
    ])
    .where('day', '>=', start)
    .where('day', '<=', end)
    .groupBy('user_id')
    .execute();
  const groups = await db
    .selectFrom('user_day')
    .select((eb) => [
      'user_id',
      'user_email',
      'primary_model',
      'primary_model_tier',
      'delegation_level',
      'languages',
      eb.fn.countAll<number | string>().as('days'),
      eb.fn.min('day').as('first_day'),
      eb.fn.max('day').as('last_day'),
    ])
    .where('day', '>=', start)
    .where('day', '<=', end)
    .groupBy(['user_id', 'user_email', 'primary_model', 'primary_model_tier', 'delegation_level', 'languages'])
    .execute();
  const merger = new UserMerger();
  const parsedLanguages = new Map<string, string[]>();
  for (const g of groups) {
    const langText = g.languages ?? '[]';
    let languages = parsedLanguages.get(langText);
    if (!languages) {
      languages = JSON.parse(langText) as string[];
      parsedLanguages.set(langText, languages);
    }
    merger.addGroup(g.user_id, {
      email: g.user_email,
      primaryModel: g.primary_model ?? '',
      primaryModelTier: g.primary_model_tier ?? '',
      delegationLevel: g.delegation_level ?? '',
      languages,
      days: Number(g.days),
      firstDay: String(g.first_day),
      lastDay: String(g.last_day),
    });
  }
  const sumEntries = Object.entries(SUMMED_FIELDS) as [keyof MergedSums, (typeof sumColumns)[number]][];
  for (const t of totals) {
    const sums = {} as MergedSums;
    for (const [k, column] of sumEntries) sums[k] = Number(t[column] ?? 0);
    merger.addTotals(t.user_id, { sums, ratioWeighted: Number(t.ratio_weighted ?? 0) });
  }
  // Code-unit order, whatever the database's collation: the order ties keep when the table is sorted.
  return merger.result().sort(byCodeUnits);
}

/** One user's rows of the range (JSON as the service sent them), in day order. */
export async function userDayRows(db: Db, userId: string, start: string, end: string): Promise<string[]> {
  const rows = await db
    .selectFrom('user_day')
    .select('row')
    .where('user_id', '=', userId)
    .where('day', '>=', start)
    .where('day', '<=', end)
    .orderBy('day')
    .execute();
  return rows.map((r) => r.row);
}
