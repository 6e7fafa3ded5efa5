/**
 * The store's reads and writes for teams: the uploaded mapping, the budgets, and the version of a range's
 * stored `/tokens` days (what a computed answer is valid for).
 */
import type { Kysely, Transaction } from 'kysely';
import type { Schema, TeamMappingTable } from './schema';

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

/** How many days of one endpoint's answers are stored in [start, end]. */
export async function dayAnswerCount(db: Db, endpoint: string, grouping: string, start: string, end: string) {
  const row = await db
    .selectFrom('day_answer')
    .select((eb) => eb.fn.countAll<number | string>().as('days'))
    .where('endpoint', '=', endpoint)
    .where('grouping', '=', grouping)
    .where((eb) => eb.between('day', start, end))
    .executeTakeFirst();
  return Number(row?.days ?? 0);
}

/**
 * The email a user last gave (on their latest stored day with one), or null: the one their team is found by on
 * the teams pages and in the users table (the analytics engine's \`member\`), so a manager's access to a person's
 * page follows the team the pages show, after an email change too.
 */
export async function emailOf(store: { db: Db }, userId: string): Promise<string | null> {
  const row = await store.db
    .selectFrom('user_day')
    .select('user_email')
    .where('user_id', '=', userId)
    .where('user_email', 'is not', null)
    .where('user_email', '<>', '')
    .orderBy('day', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.user_email ?? null;
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
