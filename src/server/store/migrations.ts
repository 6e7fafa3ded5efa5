/**
 * Versioned migrations, run on start (Kysely's migrator records each in its own
 * table and takes a lock, so two replicas starting together migrate once).
 * Each is written once for both engines: column types Kysely maps per dialect.
 * Never change what a shipped migration leaves behind; add the next one.
 */
import { Migrator, SqliteAdapter, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

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

// ---- 0002: the users table's facts as columns ----------------------------------------------------
// Frozen with the migration (not imported from the query layer), so later code never changes what it did.

const FACT_NUMBERS_0002 = [
  'billable_tokens',
  'tool_calls',
  'sessions',
  'messages',
  'user_messages',
  'assistant_messages',
  'files_created',
  'files_edited',
  'git_commits',
  'git_prs_created',
  'mcp_calls',
  'skill_calls',
  'slash_commands',
  'hooks',
  'autonomy_ratio',
] as const;
const FACT_TEXTS_0002 = ['primary_model', 'primary_model_tier', 'delegation_level', 'languages'] as const;

migrations['0002_user_day_facts'] = {
  /**
   * The users table's numbers and picks as columns of `user_day`. As shipped, it also filled them for the rows
   * already stored and indexed them; 0010 drops that index and 0011 the columns, so a store that comes through
   * 0002 now gets the columns alone (0011 drops them on PostgreSQL by name): the schema after 0011 is the same.
   */
  async up(db: Kysely<unknown>) {
    const run = async (trx: Kysely<unknown>) => {
      for (const c of FACT_NUMBERS_0002)
        await trx.schema.alterTable('user_day').addColumn(c, 'double precision').execute();
      for (const c of FACT_TEXTS_0002) await trx.schema.alterTable('user_day').addColumn(c, 'text').execute();
    };
    // PostgreSQL runs each migration in a transaction already; SQLite's migrator does not, and a crash halfway
    // must leave nothing behind for the next start.
    if (db.isTransaction) await run(db);
    else await db.transaction().execute(run);
  },
};

migrations['0003_team_mapping'] = {
  /** The team mapping uploaded on the edit screen (one row; TEAMS_FILE, when set, is never stored). */
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('team_mapping')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('format', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
};

migrations['0004_team_budget'] = {
  /** Monthly budgets per team ('' for the organization), set on the budgets screen. */
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('team_budget')
      .addColumn('team', 'text', (c) => c.primaryKey())
      .addColumn('monthly', 'double precision', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
};

migrations['0005_day_answer_state'] = {
  /**
   * Which days of an answer are stored, final and when written, without reading the answers: `final`
   * and `synced_at` come after the body in a row, so SQLite reads a day's whole body (hundreds of
   * kilobytes of `/tokens` at 5,000 users) to reach them. Every page view asks this of its range.
   */
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('day_answer_state')
      .on('day_answer')
      .columns(['endpoint', 'grouping', 'day', 'final', 'synced_at'])
      .execute();
  },
};

migrations['0006_user_day_user_email'] = {
  /**
   * Who the store has seen, and their emails (the teams' member counts, a signed-in reader's own id),
   * from an index: the index by user and day had to look up each row for its email, about 0.4 s at
   * 5,000 users over ten months, holding the server's thread. The new one serves one user's days as
   * the one it replaces did.
   */
  async up(db: Kysely<unknown>) {
    // Either step may be done already: SQLite runs no migration in a transaction, and a crash between them
    // must not keep the store from starting.
    await db.schema
      .createIndex('user_day_user_email')
      .ifNotExists()
      .on('user_day')
      .columns(['user_id', 'day', 'user_email'])
      .execute();
    await db.schema.dropIndex('user_day_user').ifExists().execute();
  },
};

migrations['0007_revoked_session'] = {
  /** Sessions signed out of, until their cookies would have expired: a sign-out holds on every replica. */
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('revoked_session')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('until', 'bigint', (c) => c.notNull())
      .execute();
  },
};

migrations['0008_chart_mark'] = {
  /**
   * Marks on the charts: a dated note for the organization (team '') or a team, written on the marks
   * screen; read by range and by scope.
   */
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('chart_mark')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('team', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('author', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('chart_mark_day').on('chart_mark').columns(['day', 'team']).execute();
  },
};

migrations['0009_alert'] = {
  /**
   * Alert rules (per team, '' for the organization) and the alerts they opened: at most one open alert per rule,
   * scope and key (a partial unique index), so two checks of the same day open it once.
   */
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('alert_rule')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('threshold', 'double precision')
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('alert')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('rule_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('link', 'text', (c) => c.notNull())
      .addColumn('opened_day', 'text', (c) => c.notNull())
      .addColumn('opened_at', 'text', (c) => c.notNull())
      .addColumn('resolved_at', 'text')
      .addColumn('acknowledged_by', 'text')
      .addColumn('acknowledged_at', 'text')
      .addColumn('posted', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('alert_open')
      .on('alert')
      .columns(['rule_id', 'scope', 'key'])
      .unique()
      .where(sql.ref('resolved_at'), 'is', null)
      .execute();
    await db.schema.createIndex('alert_opened_at').on('alert').column('opened_at').execute();
  },
};

migrations['0010_drop_user_day_facts'] = {
  /**
   * The users table's facts are read from the analytics copy (src/server/analytics), which reads a day's rows once
   * as it copies it: the index that held them all by day, for the SQL merge deleted since, was kept up to date on
   * every write for nothing.
   */
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex('user_day_facts').ifExists().execute();
  },
};

migrations['0011_user_day_row_only'] = {
  /**
   * The analytics copy reads a day's rows as the service sent them (their JSON), so the fact columns 0002 added are
   * read by nothing: every `/users` row the sync writes stops carrying them. PostgreSQL drops columns in its
   * catalogue; SQLite would rewrite the table once per column, so it is made again once, in one transaction.
   */
  async up(db: Kysely<unknown>) {
    const facts = [...FACT_NUMBERS_0002, ...FACT_TEXTS_0002];
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
      let alter = db.schema.alterTable('user_day').dropColumn(facts[0]!);
      for (const c of facts.slice(1)) alter = alter.dropColumn(c);
      await alter.execute();
      return;
    }
    await db.transaction().execute(async (trx) => {
      await trx.schema
        .createTable('user_day_0011')
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('user_email', 'text')
        .addColumn('row', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('user_day_pk', ['day', 'user_id'])
        .execute();
      const columns = ['day', 'user_id', 'user_email', 'row'] as const;
      const old = trx as unknown as Kysely<{ user_day: Record<(typeof columns)[number], string> }>;
      await old
        .insertInto('user_day_0011' as 'user_day')
        .columns(columns)
        .expression(old.selectFrom('user_day').select(columns))
        .execute();
      await trx.schema.dropTable('user_day').execute();
      await trx.schema.alterTable('user_day_0011').renameTo('user_day').execute();
      await trx.schema
        .createIndex('user_day_user_email')
        .on('user_day')
        .columns(['user_id', 'day', 'user_email'])
        .execute();
    });
  },
};

migrations['0012_api_token'] = {
  /**
   * Personal API tokens: each kept by the SHA-256 of the token (looked up by it, so unique), never the token; the
   * person it acts as, its name and expiry, when it was last used and whether it was revoked.
   */
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('api_token')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('hash', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .addColumn('revoked_at', 'text')
      .addColumn('revoked_by', 'text')
      .execute();
    await db.schema.createIndex('api_token_hash').on('api_token').column('hash').unique().execute();
    await db.schema.createIndex('api_token_email').on('api_token').columns(['email', 'created_at']).execute();
  },
};

migrations['0013_team_goal'] = {
  /**
   * Goals per team: a share to reach by a date, for the organization (team '') or a team, at most one each (a
   * unique index, so two writers setting the same team's goal at once keep one); read by team.
   */
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('team_goal')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('team', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('target', 'double precision', (c) => c.notNull())
      .addColumn('by_day', 'text', (c) => c.notNull())
      .addColumn('start_week', 'text', (c) => c.notNull())
      .addColumn('author', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('team_goal_team').on('team_goal').column('team').unique().execute();
  },
};

migrations['0014_intensity_threshold'] = {
  /**
   * Intensity's thresholds (lib/intensity.ts), one row per calendar quarter: computed on the quarter's first need and
   * kept, so a person's band moves with their own use, not with others'; replaced when an admin refreshes them.
   */
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('intensity_threshold')
      .addColumn('quarter', 'text', (c) => c.primaryKey())
      .addColumn('p25', 'double precision', (c) => c.notNull())
      .addColumn('p50', 'double precision', (c) => c.notNull())
      .addColumn('p75', 'double precision', (c) => c.notNull())
      .addColumn('people', 'integer', (c) => c.notNull())
      .addColumn('basis_start', 'text', (c) => c.notNull())
      .addColumn('basis_end', 'text', (c) => c.notNull())
      .addColumn('computed_at', 'text', (c) => c.notNull())
      .addColumn('refreshed_by', 'text')
      .execute();
  },
};

migrations['0015_member_named'] = {
  /**
   * The first day each member of the team mapping was named in it (its key: the email, else `id:` and the user id):
   * the mapping keeps no history, and a person's access day (lib/funnel.ts) is the earlier of this and their first
   * day seen. A row is written once and never changed.
   */
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('member_named')
      .addColumn('member', 'text', (c) => c.primaryKey())
      .addColumn('first_day', 'text', (c) => c.notNull())
      .execute();
  },
};

migrations['0016_member_team'] = {
  /**
   * Each member's team over time (the mapping keeps no history): a row each time the mapping in force gives a member
   * another team ('' once it names them no more), from the day it took effect. The bulk export gives each day's rows
   * the team of that day, and a member's first day named (0015's record, moved here) is their first row's. 0015's
   * rows come with no team: the first mapping recorded after gives it.
   */
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('member_team')
      .addColumn('member', 'text', (c) => c.notNull())
      .addColumn('from_day', 'text', (c) => c.notNull())
      .addColumn('team', 'text')
      .addPrimaryKeyConstraint('member_team_pk', ['member', 'from_day'])
      .execute();
    await sql`INSERT INTO member_team (member, from_day, team) SELECT member, first_day, NULL FROM member_named`.execute(
      db,
    );
    await db.schema.dropTable('member_named').execute();
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
