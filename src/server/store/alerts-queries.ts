/**
 * The store's reads and writes for alerts: the rules, and the alerts they opened (src/server/alerts). An alert
 * is stored before it is posted (`posted` 0), marked once the webhook took it: a crash between the two leaves it
 * to the next check, which posts what is open and unposted.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AlertRuleTable, AlertTable, Schema } from './schema';

export type AlertRuleRow = AlertRuleTable;
export type AlertRow = AlertTable;

export async function readAlertRules(db: Kysely<Schema>): Promise<AlertRuleRow[]> {
  return db.selectFrom('alert_rule').selectAll().orderBy('scope').orderBy('kind').orderBy('created_at').execute();
}

export async function readAlertRule(db: Kysely<Schema>, id: string): Promise<AlertRuleRow | undefined> {
  return db.selectFrom('alert_rule').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface RuleFields {
  kind: string;
  scope: string;
  threshold: number | null;
  enabled: boolean;
}

export async function addAlertRule(db: Kysely<Schema>, r: RuleFields, createdBy: string | null): Promise<AlertRuleRow> {
  const row: AlertRuleRow = {
    id: randomUUID(),
    kind: r.kind,
    scope: r.scope,
    threshold: r.threshold,
    enabled: r.enabled ? 1 : 0,
    created_by: createdBy,
    created_at: new Date().toISOString(),
  };
  await db.insertInto('alert_rule').values(row).execute();
  return row;
}

/** Changes a rule; false when there is none with that id. */
export async function updateAlertRule(db: Kysely<Schema>, id: string, r: RuleFields): Promise<boolean> {
  const u = await db
    .updateTable('alert_rule')
    .set({ kind: r.kind, scope: r.scope, threshold: r.threshold, enabled: r.enabled ? 1 : 0 })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(u.numUpdatedRows) > 0;
}

/** Removes a rule and resolves its open alerts (they stay listed as past); false when there is none. */
export async function deleteAlertRule(db: Kysely<Schema>, id: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const d = await tx.deleteFrom('alert_rule').where('id', '=', id).executeTakeFirst();
    await tx
      .updateTable('alert')
      .set({ resolved_at: new Date().toISOString() })
      .where('rule_id', '=', id)
      .where('resolved_at', 'is', null)
      .execute();
    return Number(d.numDeletedRows) > 0;
  });
}

export async function openAlerts(db: Kysely<Schema>): Promise<AlertRow[]> {
  return db.selectFrom('alert').selectAll().where('resolved_at', 'is', null).orderBy('opened_at').execute();
}

/** The open alerts, then the most recent past ones (at most `pastLimit`). */
export async function listAlerts(
  db: Kysely<Schema>,
  pastLimit: number,
): Promise<{ open: AlertRow[]; past: AlertRow[] }> {
  const [open, past] = await Promise.all([
    db.selectFrom('alert').selectAll().where('resolved_at', 'is', null).orderBy('opened_at', 'desc').execute(),
    db
      .selectFrom('alert')
      .selectAll()
      .where('resolved_at', 'is not', null)
      .orderBy('resolved_at', 'desc')
      .orderBy('id')
      .limit(pastLimit)
      .execute(),
  ]);
  return { open, past };
}

export async function readAlert(db: Kysely<Schema>, id: string): Promise<AlertRow | undefined> {
  return db.selectFrom('alert').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface NewAlert {
  ruleId: string;
  kind: string;
  scope: string;
  key: string;
  summary: string;
  link: string;
}

/**
 * Opens the alerts and resolves the others in one transaction. An alert already open for its rule, scope and key
 * (another check got there first) is not opened twice. Gives the alerts opened.
 */
export async function applyAlertChanges(
  db: Kysely<Schema>,
  day: string,
  opening: readonly NewAlert[],
  resolving: readonly string[],
): Promise<AlertRow[]> {
  const at = new Date().toISOString();
  return db.transaction().execute(async (tx) => {
    if (resolving.length > 0)
      await tx
        .updateTable('alert')
        .set({ resolved_at: at })
        .where('id', 'in', [...resolving])
        .where('resolved_at', 'is', null)
        .execute();
    const opened: AlertRow[] = [];
    for (const a of opening) {
      const row: AlertRow = {
        id: randomUUID(),
        rule_id: a.ruleId,
        kind: a.kind,
        scope: a.scope,
        key: a.key,
        summary: a.summary,
        link: a.link,
        opened_day: day,
        opened_at: at,
        resolved_at: null,
        acknowledged_by: null,
        acknowledged_at: null,
        posted: 0,
      };
      const r = await tx
        .insertInto('alert')
        .values(row)
        .onConflict((oc) => oc.columns(['rule_id', 'scope', 'key']).where('resolved_at', 'is', null).doNothing())
        .executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows ?? 0n) > 0) opened.push(row);
    }
    return opened;
  });
}

/** The open alerts the webhook has not taken yet, the oldest first. */
export async function unpostedAlerts(db: Kysely<Schema>): Promise<AlertRow[]> {
  return db
    .selectFrom('alert')
    .selectAll()
    .where('posted', '=', 0)
    .where('resolved_at', 'is', null)
    .orderBy('opened_at')
    .execute();
}

export async function markPosted(db: Kysely<Schema>, ids: readonly string[]): Promise<void> {
  if (ids.length > 0)
    await db
      .updateTable('alert')
      .set({ posted: 1 })
      .where('id', 'in', [...ids])
      .execute();
}

/** Acknowledges an alert (the first acknowledgement stands); false when there is none with that id. */
export async function acknowledgeAlert(db: Kysely<Schema>, id: string, by: string): Promise<boolean> {
  const found = await readAlert(db, id);
  if (!found) return false;
  await db
    .updateTable('alert')
    .set({ acknowledged_by: by, acknowledged_at: new Date().toISOString() })
    .where('id', '=', id)
    .where('acknowledged_at', 'is', null)
    .execute();
  return true;
}

/** The newest day whose people's activity (`/users`) the store holds; null when it holds none. */
export async function newestUsersDay(db: Kysely<Schema>): Promise<string | null> {
  const r = await db
    .selectFrom('users_day')
    .select((eb) => eb.fn.max('day').as('day'))
    .executeTakeFirst();
  return r?.day ?? null;
}
