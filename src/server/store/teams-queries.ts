/**
 * The store's reads and writes for teams: the uploaded mapping, the per-user facts of a range as
 * plain rows (the team figures are computed from them in memory, src/server/teams/facts.ts), and
 * the version of a range's stored `/tokens` days (what a computed answer is valid for).
 */
import type { Kysely, Transaction } from 'kysely';
import type { Schema, TeamMappingTable } from './schema';
import { NUMERIC_FACTS } from './users-queries';

type Db = Kysely<Schema> | Transaction<Schema>;

export async function readStoredMapping(db: Db): Promise<TeamMappingTable | undefined> {
  return db.selectFrom('team_mapping').selectAll().where('id', '=', 1).executeTakeFirst();
}

/** When the stored mapping was last saved (undefined: none is stored), without reading its text. */
export async function storedMappingTime(db: Db): Promise<string | undefined> {
  const row = await db.selectFrom('team_mapping').select('updated_at').where('id', '=', 1).executeTakeFirst();
  return row?.updated_at;
}

export async function writeStoredMapping(db: Db, m: Omit<TeamMappingTable, 'id'>): Promise<void> {
  await db
    .insertInto('team_mapping')
    .values({ id: 1, ...m })
    .onConflict((oc) => oc.column('id').doUpdateSet(m))
    .execute();
}

export async function deleteStoredMapping(db: Db): Promise<boolean> {
  const r = await db.deleteFrom('team_mapping').where('id', '=', 1).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The numbers of a `/users` row the team figures add up: the fact columns of migration 0002. */
export const TEAM_FACT_COLUMNS = NUMERIC_FACTS;
export type TeamFactColumn = (typeof TEAM_FACT_COLUMNS)[number];

export type TeamFactRow = { user_id: string; user_email: string | null; day: string } & Record<
  TeamFactColumn,
  number | null
>;

/** The `/users` rows of [start, end] as their fact columns, by user then day. */
export async function teamFactRows(db: Db, start: string, end: string): Promise<TeamFactRow[]> {
  return db
    .selectFrom('user_day')
    .select(['user_id', 'user_email', 'day', ...TEAM_FACT_COLUMNS])
    .where('day', '>=', start)
    .where('day', '<=', end)
    .orderBy('user_id')
    .orderBy('day')
    .execute() as Promise<TeamFactRow[]>;
}

/** How many days of one endpoint's answers are stored in [start, end], and when the latest was written. */
export async function dayAnswerVersion(db: Db, endpoint: string, grouping: string, start: string, end: string) {
  const row = await db
    .selectFrom('day_answer')
    .select((eb) => [eb.fn.countAll<number | string>().as('days'), eb.fn.max('synced_at').as('synced')])
    .where('endpoint', '=', endpoint)
    .where('grouping', '=', grouping)
    .where('day', '>=', start)
    .where('day', '<=', end)
    .executeTakeFirst();
  return `${Number(row?.days ?? 0)}|${row?.synced ?? ''}`;
}

/** The email the store knows for a user (any of their days'), or null. */
export async function emailOf(store: { db: Db }, userId: string): Promise<string | null> {
  const row = await store.db
    .selectFrom('user_day')
    .select((eb) => eb.fn.max('user_email').as('email'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.email ?? null;
}

/** The monthly budgets set, by team ('' for the organization). */
export async function readBudgets(db: Db): Promise<Map<string, number>> {
  const rows = await db.selectFrom('team_budget').select(['team', 'monthly']).execute();
  return new Map(rows.map((r) => [r.team, Number(r.monthly)]));
}

/** Replaces every budget at once (one transaction: a reader sees the old set or the new one). */
export async function writeBudgets(db: Kysely<Schema>, budgets: ReadonlyMap<string, number>): Promise<void> {
  const at = new Date().toISOString();
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('team_budget').execute();
    if (budgets.size > 0)
      await tx
        .insertInto('team_budget')
        .values([...budgets].map(([team, monthly]) => ({ team, monthly, updated_at: at })))
        .execute();
  });
}

/** Every stored active day of every user (id, email, day), in user order: the adoption cohorts' input. */
export async function allUserDays(db: Db): Promise<{ user_id: string; user_email: string | null; day: string }[]> {
  return db.selectFrom('user_day').select(['user_id', 'user_email', 'day']).orderBy('user_id').execute();
}

/** Each user's first stored active day. */
export async function firstDays(db: Db): Promise<{ user_id: string; first: string }[]> {
  const rows = await db
    .selectFrom('user_day')
    .select((eb) => ['user_id', eb.fn.min('day').as('first')])
    .groupBy('user_id')
    .execute();
  return rows.map((r) => ({ user_id: r.user_id, first: String(r.first) }));
}
