/** The sessions signed out of, in the store, so that a sign-out holds on every replica (auth/session.ts). */
import type { Kysely } from 'kysely';
import type { Schema } from './schema';

const now = () => Math.floor(Date.now() / 1000);

export function storeRevocations(db: Kysely<Schema>) {
  return {
    /** Records a session id until `until` (seconds); the ones past their time go at the same moment. */
    async add(id: string, until: number): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx.deleteFrom('revoked_session').where('until', '<', now()).execute();
        await tx
          .insertInto('revoked_session')
          .values({ id, until })
          .onConflict((oc) => oc.column('id').doUpdateSet({ until }))
          .execute();
      });
    },
    async has(id: string): Promise<boolean> {
      const row = await db
        .selectFrom('revoked_session')
        .select('id')
        .where('id', '=', id)
        .where('until', '>=', now())
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
