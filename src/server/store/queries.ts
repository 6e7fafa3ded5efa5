/**
 * Every read and write of the store. Writes are upserts keyed by what makes a
 * row unique (endpoint, grouping and day; day and user; report id), so a retry,
 * a resumed walk or a second replica never stores anything twice; each page of
 * an upstream walk is written in one transaction with the cursor that follows it.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Engine } from './db';
import type { Schema } from './schema';

type Db = Kysely<Schema> | Transaction<Schema>;

const now = () => new Date().toISOString();

/** Rows per INSERT: well under SQLite's and PostgreSQL's limits on bound parameters. */
const CHUNK = 500;
function chunks<T>(items: readonly T[], n = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += n) out.push(items.slice(i, i + n));
  return out;
}

export class StoreMismatchError extends Error {}

/**
 * Claims the store for this upstream on first use; afterwards refuses another
 * one, naming both, so two organizations' numbers are never mixed.
 */
export async function claimStore(db: Kysely<Schema>, identity: string): Promise<void> {
  await db
    .insertInto('upstream')
    .values({ id: 1, identity, org_id: null, created_at: now() })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const row = await db.selectFrom('upstream').select('identity').where('id', '=', 1).executeTakeFirstOrThrow();
  if (row.identity !== identity) {
    throw new StoreMismatchError(
      `The store holds the history of ${row.identity}, but this server reads ${identity}. ` +
        'Point DATABASE_URL (or DATA_DIR) at a store of its own for this upstream.',
    );
  }
}

/** Records the organization the service says it is; refuses a different one later. */
export async function checkOrgId(db: Db, orgId: string): Promise<void> {
  await db.updateTable('upstream').set({ org_id: orgId }).where('id', '=', 1).where('org_id', 'is', null).execute();
  const row = await db.selectFrom('upstream').select(['org_id', 'identity']).where('id', '=', 1).executeTakeFirst();
  if (row && row.org_id !== orgId) {
    throw new StoreMismatchError(
      `The service answered for organization ${orgId}, but the store holds ${row.org_id} (${row.identity}).`,
    );
  }
}

export async function storedOrgId(db: Db): Promise<string | null> {
  const row = await db.selectFrom('upstream').select('org_id').where('id', '=', 1).executeTakeFirst();
  return row?.org_id ?? null;
}

// ---- Day-based analytics answers -------------------------------------------------------------

export interface StoredDay {
  day: string;
  final: boolean;
}

export async function storedDays(
  db: Db,
  endpoint: string,
  grouping: string,
  start: string,
  end: string,
): Promise<StoredDay[]> {
  const rows = await db
    .selectFrom('day_answer')
    .select(['day', 'final'])
    .where('endpoint', '=', endpoint)
    .where('grouping', '=', grouping)
    .where((eb) => eb.between('day', start, end))
    .execute();
  return rows.map((r) => ({ day: r.day, final: Number(r.final) === 1 }));
}

export interface DayBody {
  day: string;
  body: string;
  final: boolean;
}

/** A span's days in one transaction, with the organization they belong to. */
export async function writeDays(
  db: Kysely<Schema>,
  endpoint: string,
  grouping: string,
  days: readonly DayBody[],
  orgId: string,
): Promise<void> {
  const at = now();
  await db.transaction().execute(async (trx) => {
    await checkOrgId(trx, orgId);
    for (const part of chunks(days)) {
      await trx
        .insertInto('day_answer')
        .values(
          part.map((d) => ({ endpoint, grouping, day: d.day, body: d.body, final: d.final ? 1 : 0, synced_at: at })),
        )
        .onConflict((oc) =>
          oc.columns(['endpoint', 'grouping', 'day']).doUpdateSet((eb) => ({
            body: eb.ref('excluded.body'),
            final: eb.ref('excluded.final'),
            synced_at: eb.ref('excluded.synced_at'),
          })),
        )
        .execute();
    }
  });
}

/** The stored bodies of the days in [start, end], in day order. */
export async function readDays(db: Db, endpoint: string, grouping: string, start: string, end: string) {
  return db
    .selectFrom('day_answer')
    .select(['day', 'body'])
    .where('endpoint', '=', endpoint)
    .where('grouping', '=', grouping)
    .where((eb) => eb.between('day', start, end))
    .orderBy('day')
    .execute();
}

// ---- /users -----------------------------------------------------------------------------------

export async function storedUserDays(db: Db, start: string, end: string): Promise<StoredDay[]> {
  const rows = await db
    .selectFrom('users_day')
    .select(['day', 'final'])
    .where((eb) => eb.between('day', start, end))
    .execute();
  return rows.map((r) => ({ day: r.day, final: Number(r.final) === 1 }));
}

export interface UsersWalk {
  cursor: string | null;
  pages: number;
}

/** A walk of this span left unfinished (by a crash, a restart, a failed page), to resume from its cursor. */
export async function unfinishedWalk(db: Db, start: string, end: string): Promise<UsersWalk | undefined> {
  return db
    .selectFrom('users_walk')
    .select(['cursor', 'pages'])
    .where('start_day', '=', start)
    .where('end_day', '=', end)
    .executeTakeFirst();
}

export interface UserRowRecord {
  day: string;
  user_id: string;
  user_email: string | null;
  row: string;
}

/**
 * One page of a walk, with the cursor that follows it, in one transaction. The
 * last page (no next cursor) also marks the span's days as stored and ends the walk.
 */
export async function writeUsersPage(
  db: Kysely<Schema>,
  span: { start: string; end: string; days: readonly StoredDay[] },
  rows: readonly UserRowRecord[],
  next: string | null,
  pages: number,
  orgId: string,
): Promise<void> {
  const at = now();
  await db.transaction().execute(async (trx) => {
    await checkOrgId(trx, orgId);
    for (const part of chunks(rows)) {
      await trx
        .insertInto('user_day')
        .values([...part])
        .onConflict((oc) =>
          oc.columns(['day', 'user_id']).doUpdateSet((eb) => ({
            user_email: eb.ref('excluded.user_email'),
            row: eb.ref('excluded.row'),
          })),
        )
        .execute();
    }
    if (next !== null) {
      await trx
        .insertInto('users_walk')
        .values({ start_day: span.start, end_day: span.end, cursor: next, pages, updated_at: at })
        .onConflict((oc) => oc.columns(['start_day', 'end_day']).doUpdateSet({ cursor: next, pages, updated_at: at }))
        .execute();
      return;
    }
    await trx.deleteFrom('users_walk').where('start_day', '=', span.start).where('end_day', '=', span.end).execute();
    for (const part of chunks(span.days)) {
      await trx
        .insertInto('users_day')
        .values(part.map((d) => ({ day: d.day, final: d.final ? 1 : 0, synced_at: at })))
        .onConflict((oc) =>
          oc
            .column('day')
            .doUpdateSet((eb) => ({ final: eb.ref('excluded.final'), synced_at: eb.ref('excluded.synced_at') })),
        )
        .execute();
    }
  });
}

/**
 * Starts a walk of a span afresh, in one transaction: the span's days stop
 * being served (first, so no instant shows a stored day without its rows), their
 * rows go (a row the service no longer sends must not linger), and so does every
 * saved walk overlapping the span, whose cursor no longer says what is stored.
 * The walk is saved from the start (no page yet): the analytics copy keeps the
 * span's days as they were until it ends.
 */
export async function startUsersWalk(db: Kysely<Schema>, start: string, end: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('users_day').where('day', '>=', start).where('day', '<=', end).execute();
    await trx.deleteFrom('user_day').where('day', '>=', start).where('day', '<=', end).execute();
    await trx.deleteFrom('users_walk').where('start_day', '<=', end).where('end_day', '>=', start).execute();
    await trx
      .insertInto('users_walk')
      .values({ start_day: start, end_day: end, cursor: null, pages: 0, updated_at: now() })
      .execute();
  });
}

/**
 * A page of `/users` as the service pages it: whole users in id order, after
 * the cursor's user. Ids compare byte by byte on both engines (PostgreSQL would
 * otherwise use its locale's order, and a cursor from the service would skip users).
 */
export async function readUsersPage(
  db: Db,
  engine: Engine,
  range: { start: string; end: string },
  limit: number,
  cursor: string | undefined,
) {
  const id = sql<string>`user_id collate ${sql.raw(engine === 'postgres' ? '"C"' : 'binary')}`;
  let ids = db
    .selectFrom('user_day')
    .select(id.as('uid'))
    .distinct()
    .where((eb) => eb.between('day', range.start, range.end))
    .orderBy('uid')
    .limit(limit + 1);
  if (cursor !== undefined) ids = ids.where(id, '>', cursor);
  const found = (await ids.execute()).map((r) => r.uid);
  const page = found.slice(0, limit);
  if (page.length === 0) return { rows: [] as string[], hasMore: false, last: undefined };
  const rows = await db
    .selectFrom('user_day')
    .select('row')
    .where((eb) => eb.between('day', range.start, range.end))
    .where('user_id', 'in', page)
    .orderBy(id)
    .orderBy('day')
    .execute();
  return { rows: rows.map((r) => r.row), hasMore: found.length > limit, last: page[page.length - 1] };
}

// ---- Readiness --------------------------------------------------------------------------------

export async function newestReportId(db: Db): Promise<string | undefined> {
  const row = await db
    .selectFrom('readiness_report')
    .select('report_id')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.report_id;
}

export interface ReportRecord {
  report_id: string;
  created_at: string;
  body: string;
}

/** A page of reports in the service's order, appended after the ones stored; a report already stored is skipped. */
export async function writeReports(db: Kysely<Schema>, reports: readonly ReportRecord[]): Promise<void> {
  if (reports.length === 0) return;
  await db.transaction().execute(async (trx) => {
    const top = await trx
      .selectFrom('readiness_report')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirst();
    let seq = Number(top?.seq ?? 0);
    for (const part of chunks(reports)) {
      await trx
        .insertInto('readiness_report')
        .values(part.map((r) => ({ ...r, seq: ++seq })))
        .onConflict((oc) => oc.column('report_id').doNothing())
        .execute();
    }
  });
}

/** Reports after `startAfter` (by the service's order), `limit` at most; undefined when `startAfter` is unknown. */
export async function readReports(db: Db, limit: number, startAfter: string | undefined) {
  let after = 0;
  if (startAfter !== undefined) {
    const at = await db
      .selectFrom('readiness_report')
      .select('seq')
      .where('report_id', '=', startAfter)
      .executeTakeFirst();
    if (!at) return undefined;
    after = Number(at.seq);
  }
  const rows = await db
    .selectFrom('readiness_report')
    .select('body')
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((r) => r.body);
}

/** Every stored report's body, and a version that changes when a report is added (its count and last `seq`). */
export async function allReports(db: Db): Promise<{ version: string; bodies: string[] }> {
  const rows = await db.selectFrom('readiness_report').select(['seq', 'body']).orderBy('seq').execute();
  return { version: `${rows.length}|${rows.at(-1)?.seq ?? 0}`, bodies: rows.map((r) => r.body) };
}

/** The version `allReports` would give, without reading the bodies. */
export async function reportsVersion(db: Db): Promise<string> {
  const row = await db
    .selectFrom('readiness_report')
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.max('seq').as('seq')])
    .executeTakeFirst();
  return `${Number(row?.n ?? 0)}|${row?.seq ?? 0}`;
}

/** Whether a user id appears in the store at all (a `/users` cursor the store can continue from). */
export async function knownUser(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('user_day')
    .select('user_id')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A mark of the days, budgets and intensity thresholds the store holds, changed by any day stored again, any budget
 * set and any thresholds kept (from this process or another replica): an answer computed from them is kept while it
 * stays the same.
 */
export async function dataVersion(db: Db): Promise<string> {
  const [answers, users, budgets, thresholds] = await Promise.all([
    db
      .selectFrom('day_answer')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('synced_at').as('at')])
      .executeTakeFirst(),
    db
      .selectFrom('users_day')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('synced_at').as('at')])
      .executeTakeFirst(),
    db.selectFrom('team_budget').select(['team', 'monthly']).orderBy('team').execute(),
    db
      .selectFrom('intensity_threshold')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('computed_at').as('at')])
      .executeTakeFirst(),
  ]);
  return JSON.stringify([
    answers?.n,
    answers?.at,
    users?.n,
    users?.at,
    budgets.map((b) => [b.team, Number(b.monthly)]),
    Number(thresholds?.n ?? 0),
    thresholds?.at ?? null,
  ]);
}

/** Whether the store holds a day the analytics copy is made from: a `/users` day or an organization's `/tokens` one. */
export async function holdsCopiedDays(db: Db): Promise<boolean> {
  const [users, tokens] = await Promise.all([
    db.selectFrom('users_day').select('day').limit(1).executeTakeFirst(),
    db
      .selectFrom('day_answer')
      .select('day')
      .where('endpoint', '=', 'tokens')
      .where('grouping', '=', '')
      .limit(1)
      .executeTakeFirst(),
  ]);
  return users !== undefined || tokens !== undefined;
}

/** Days stored per endpoint and grouping (and `/users` days), with their ends, and readiness reports: cheap reads. */
export async function storedDayCounts(db: Db) {
  const [answers, users, reports] = await Promise.all([
    db
      .selectFrom('day_answer')
      .select((eb) => [
        'endpoint',
        'grouping',
        eb.fn.countAll<number>().as('days'),
        eb.fn.min('day').as('first'),
        eb.fn.max('day').as('last'),
      ])
      .groupBy(['endpoint', 'grouping'])
      .orderBy('endpoint')
      .orderBy('grouping')
      .execute(),
    db
      .selectFrom('users_day')
      .select((eb) => [eb.fn.countAll<number>().as('days'), eb.fn.min('day').as('first'), eb.fn.max('day').as('last')])
      .executeTakeFirst(),
    db
      .selectFrom('readiness_report')
      .select((eb) => eb.fn.countAll<number>().as('reports'))
      .executeTakeFirst(),
  ]);
  return {
    analytics: answers.map((a) => ({
      endpoint: a.endpoint,
      groupBy: a.grouping || null,
      days: Number(a.days),
      first: a.first,
      last: a.last,
    })),
    users: { days: Number(users?.days ?? 0), first: users?.first ?? null, last: users?.last ?? null },
    readinessReports: Number(reports?.reports ?? 0),
  };
}

/** What `GET /api/sync` says is stored: the day counts, and the `/users` rows (a count over the whole table). */
export async function storeSummary(db: Db) {
  const [counts, userRows] = await Promise.all([
    storedDayCounts(db),
    db
      .selectFrom('user_day')
      .select((eb) => eb.fn.countAll<number>().as('rows'))
      .executeTakeFirst(),
  ]);
  return { ...counts, users: { ...counts.users, rows: Number(userRows?.rows ?? 0) } };
}
