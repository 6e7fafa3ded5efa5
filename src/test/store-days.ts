/** Days written into a store as the sync writes them, for the tests of what is read from it. */
import type { UserRow } from '../api/schemas';
import type { Day } from '../lib/dates';
import type { StoreDb } from '../server/store/db';

/** Writes a `/users` day as the sync does: its rows, then the day as walked (`version` is its `synced_at`). */
export async function putUsersDay(store: StoreDb, day: Day, rows: readonly UserRow[], version: string) {
  await store.db.deleteFrom('user_day').where('day', '=', day).execute();
  if (rows.length > 0)
    await store.db
      .insertInto('user_day')
      .values(
        rows.map((r) => ({
          day,
          user_id: r.user_id,
          user_email: r.user_email,
          row: JSON.stringify(r),
        })),
      )
      .execute();
  await store.db
    .insertInto('users_day')
    .values({ day, final: 1, synced_at: version })
    .onConflict((oc) => oc.column('day').doUpdateSet({ synced_at: version }))
    .execute();
}

/** Writes a `/tokens` day's body as the sync does (`version` is its `synced_at`). */
export async function putTokensDay(store: StoreDb, day: Day, body: string, version: string) {
  await store.db
    .insertInto('day_answer')
    .values({ endpoint: 'tokens', grouping: '', day, body, final: 1, synced_at: version })
    .onConflict((oc) => oc.columns(['endpoint', 'grouping', 'day']).doUpdateSet({ body, synced_at: version }))
    .execute();
}
