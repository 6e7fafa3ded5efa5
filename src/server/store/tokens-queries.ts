/**
 * The store's reads and writes of personal API tokens (table `api_token`, migration 0012). A token itself is never
 * stored: a row holds its SHA-256, the person it acts as, its name and its times (auth/tokens.ts makes and checks
 * tokens).
 */
import type { Kysely } from 'kysely';
import type { ApiTokenTable, Schema } from './schema';

export type StoredToken = ApiTokenTable;

export async function addToken(db: Kysely<Schema>, row: StoredToken): Promise<void> {
  await db.insertInto('api_token').values(row).execute();
}

/** The token whose SHA-256 (hex) this is, live or not; undefined when none is. */
export async function tokenByHash(db: Kysely<Schema>, hash: string): Promise<StoredToken | undefined> {
  return db.selectFrom('api_token').selectAll().where('hash', '=', hash).executeTakeFirst();
}

export async function readToken(db: Kysely<Schema>, id: string): Promise<StoredToken | undefined> {
  return db.selectFrom('api_token').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A person's tokens (`email`), or everyone's (null), newest first. */
export async function readTokens(db: Kysely<Schema>, email: string | null): Promise<StoredToken[]> {
  let q = db.selectFrom('api_token').selectAll();
  if (email !== null) q = q.where('email', '=', email);
  return q.orderBy('created_at', 'desc').orderBy('id').execute();
}

/** How many of a person's tokens may still be used at `now` (an ISO instant): not revoked, not expired. */
export async function countLiveTokens(db: Kysely<Schema>, email: string, now: string): Promise<number> {
  const r = await db
    .selectFrom('api_token')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('email', '=', email)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Revokes a token not revoked yet; whether it did (false: no such token, or revoked already). */
export async function revokeToken(db: Kysely<Schema>, id: string, by: string, at: string): Promise<boolean> {
  const r = await db
    .updateTable('api_token')
    .set({ revoked_at: at, revoked_by: by })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Notes when a token was last used. */
export async function touchToken(db: Kysely<Schema>, id: string, at: string): Promise<void> {
  await db.updateTable('api_token').set({ last_used_at: at }).where('id', '=', id).execute();
}

/** Removes the tokens that expired or were revoked before `before` (an ISO instant): the list keeps recent ones only. */
export async function forgetOldTokens(db: Kysely<Schema>, before: string): Promise<number> {
  const r = await db
    .deleteFrom('api_token')
    .where((eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)]))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
