/** The store's reads and writes of the goals per team (table `team_goal`, migration 0013). */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Schema, TeamGoalTable } from './schema';

export type StoredGoal = TeamGoalTable;

/** What a reader sets of a goal, and the week it is drawn from. */
export interface GoalFields {
  kind: string;
  target: number;
  by_day: string;
  start_week: string;
}

/** Every goal kept, or those of the teams named ('' the organization), by team. */
export async function readGoals(db: Kysely<Schema>, teams: readonly string[] | null): Promise<StoredGoal[]> {
  if (teams !== null && teams.length === 0) return [];
  let q = db.selectFrom('team_goal').selectAll();
  if (teams !== null) q = q.where('team', 'in', [...teams]);
  return (await q.orderBy('team').execute()).map(numbered);
}

export async function readGoal(db: Kysely<Schema>, id: string): Promise<StoredGoal | undefined> {
  const g = await db.selectFrom('team_goal').selectAll().where('id', '=', id).executeTakeFirst();
  return g && numbered(g);
}

/** PostgreSQL's driver may give a double as text: a goal's target is a number wherever it is read. */
const numbered = (g: StoredGoal): StoredGoal => ({ ...g, target: Number(g.target) });

/** Adds a team's goal; undefined when the team has one already (its unique index says so, whoever wrote first). */
export async function addGoal(
  db: Kysely<Schema>,
  team: string,
  g: GoalFields,
  author: string | null,
): Promise<StoredGoal | undefined> {
  const at = new Date().toISOString();
  const row: StoredGoal = { id: randomUUID(), team, ...g, author, created_at: at, updated_at: at };
  await db
    .insertInto('team_goal')
    .values(row)
    .onConflict((c) => c.column('team').doNothing())
    .execute();
  return (await readGoal(db, row.id)) && row;
}

/** Changes a goal (set anew by `author`); undefined when there is no such goal (any more). */
export async function updateGoal(
  db: Kysely<Schema>,
  id: string,
  g: GoalFields,
  author: string | null,
): Promise<StoredGoal | undefined> {
  const r = await db
    .updateTable('team_goal')
    .set({ ...g, author, updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0 ? readGoal(db, id) : undefined;
}

export async function deleteGoal(db: Kysely<Schema>, id: string): Promise<boolean> {
  const r = await db.deleteFrom('team_goal').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
