/** What the metrics report of the store at each scrape: cheap reads only (an index's ends and small counts). */
import type { Kysely } from 'kysely';
import type { Schema } from './schema';

/** Days stored per endpoint and grouping with the newest of them, `/users` days, and readiness reports. */
export async function storedDayCounts(db: Kysely<Schema>) {
  const [answers, users, reports] = await Promise.all([
    db
      .selectFrom('day_answer')
      .select((eb) => ['endpoint', 'grouping', eb.fn.countAll<number>().as('days'), eb.fn.max('day').as('last')])
      .groupBy(['endpoint', 'grouping'])
      .execute(),
    db
      .selectFrom('users_day')
      .select((eb) => [eb.fn.countAll<number>().as('days'), eb.fn.max('day').as('last')])
      .executeTakeFirst(),
    db
      .selectFrom('readiness_report')
      .select((eb) => eb.fn.countAll<number>().as('reports'))
      .executeTakeFirst(),
  ]);
  return {
    days: [
      ...answers.map((a) => ({ endpoint: a.endpoint, groupBy: a.grouping, days: Number(a.days), last: a.last })),
      { endpoint: 'users', groupBy: '', days: Number(users?.days ?? 0), last: users?.last ?? null },
    ],
    readinessReports: Number(reports?.reports ?? 0),
  };
}
