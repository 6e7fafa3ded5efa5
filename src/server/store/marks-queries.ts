/** The store's reads and writes of the marks on the charts (table `chart_mark`, migration 0008). */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ChartMarkTable, Schema } from './schema';

export type StoredMark = ChartMarkTable;

/** What a reader sets of a mark. */
export interface MarkFields {
  day: string;
  team: string;
  text: string;
}

/**
 * The marks of the scopes named (`teams`: '' for the organization, team paths) from `start` to `end`
 * (UTC days, both included), by day then by when they were written; every scope when `teams` is null.
 */
export async function readMarks(
  db: Kysely<Schema>,
  range: { start: string; end: string } | null,
  teams: readonly string[] | null,
): Promise<StoredMark[]> {
  if (teams !== null && teams.length === 0) return [];
  let q = db.selectFrom('chart_mark').selectAll();
  if (range) q = q.where('day', '>=', range.start).where('day', '<=', range.end);
  if (teams !== null) q = q.where('team', 'in', [...teams]);
  return q.orderBy('day').orderBy('created_at').orderBy('id').execute();
}

export async function readMark(db: Kysely<Schema>, id: string): Promise<StoredMark | undefined> {
  return db.selectFrom('chart_mark').selectAll().where('id', '=', id).executeTakeFirst();
}

/** How many marks are kept in all, and how many of them are the scope's (`team`: '' the organization's). */
export async function countMarks(db: Kysely<Schema>, team: string): Promise<{ all: number; scope: number }> {
  const r = await db
    .selectFrom('chart_mark')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('all'),
      eb.fn.count<number | string>('id').filterWhere('team', '=', team).as('scope'),
    ])
    .executeTakeFirstOrThrow();
  return { all: Number(r.all), scope: Number(r.scope) };
}

export async function addMark(db: Kysely<Schema>, m: MarkFields, author: string | null): Promise<StoredMark> {
  const at = new Date().toISOString();
  const row: StoredMark = { id: randomUUID(), ...m, author, created_at: at, updated_at: at };
  await db.insertInto('chart_mark').values(row).execute();
  return row;
}

/** Changes a mark (its author stays who wrote it); undefined when there is no such mark (any more). */
export async function updateMark(db: Kysely<Schema>, id: string, m: MarkFields): Promise<StoredMark | undefined> {
  const updated_at = new Date().toISOString();
  const r = await db
    .updateTable('chart_mark')
    .set({ ...m, updated_at })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0 ? readMark(db, id) : undefined;
}

export async function deleteMark(db: Kysely<Schema>, id: string): Promise<boolean> {
  const r = await db.deleteFrom('chart_mark').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
