/**
 * Versioned migrations, run on start (Kysely's migrator records each in its own
 * table and takes a lock, so two replicas starting together migrate once).
 * Each is written once for both engines: column types Kysely maps per dialect.
 * Never edit a migration that has shipped; add the next one.
 */
import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';

const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('upstream')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('identity', 'text', (c) => c.notNull())
        .addColumn('org_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('day_answer')
        .addColumn('endpoint', 'text', (c) => c.notNull())
        .addColumn('grouping', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('final', 'integer', (c) => c.notNull())
        .addColumn('synced_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('day_answer_pk', ['endpoint', 'grouping', 'day'])
        .execute();
      await db.schema
        .createTable('user_day')
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('user_email', 'text')
        .addColumn('row', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('user_day_pk', ['day', 'user_id'])
        .execute();
      await db.schema.createIndex('user_day_user').on('user_day').columns(['user_id', 'day']).execute();
      await db.schema
        .createTable('users_day')
        .addColumn('day', 'text', (c) => c.primaryKey())
        .addColumn('final', 'integer', (c) => c.notNull())
        .addColumn('synced_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('users_walk')
        .addColumn('start_day', 'text', (c) => c.notNull())
        .addColumn('end_day', 'text', (c) => c.notNull())
        .addColumn('cursor', 'text')
        .addColumn('pages', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('users_walk_pk', ['start_day', 'end_day'])
        .execute();
      await db.schema
        .createTable('readiness_report')
        .addColumn('report_id', 'text', (c) => c.primaryKey())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('readiness_report_seq').on('readiness_report').column('seq').unique().execute();
    },
  },
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the store to the newest version; throws, naming the migration, if one fails. */
export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((r) => r.status === 'Error');
  if (error || failed) {
    const why = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`Store migration ${failed?.migrationName ?? ''} failed: ${why}`);
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export const MIGRATION_NAMES = Object.keys(migrations);
