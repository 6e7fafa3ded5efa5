/**
 * The analytics engine: every per-person figure is SQL over normalised facts in DuckDB, an embedded columnar
 * engine that runs each query on its own threads, off the event loop. It holds a copy derived from the store
 * (which stays the store of record): per day and person, the `/users` row's facts (`person_day`), and from each
 * `/tokens` day's `by_user` split the person's credits (`person_credits_day`) and their credits by model
 * (`person_model_day`). Each day is copied with the version the store gives it (its `synced_at`): `catchUp`
 * copies the days the store wrote since, and drops the ones it no longer has, a week's days in one transaction, so a
 * reader sees a day whole or not at all. A restarted process catches up from where its file was (beside the embedded
 * store's file, or a replica's own folder beside PostgreSQL), or from nothing; every replica does the same from the
 * shared store.
 */
import { setImmediate as letGo } from 'node:timers/promises';
import { appendRows } from './append';
import { openCopyFile } from './copy-file';
import { createReaders } from './readers';
import { LIST, VARCHAR, listValue, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';
import { addDays, weekStart, type Day, type DayRange } from '../../lib/dates';
import type { Logger } from '../core/log';
import type { StoreDb } from '../store/db';
import {
  DAY_STATEMENTS,
  SCHEMA,
  SCHEMA_VERSION,
  TABLES as COPY_TABLES,
  WEEK_OF_DAY,
  WEEK_TABLES,
  wellFormedJson,
} from './schema';

type Source = 'users' | 'tokens';

export interface AnalyticsOptions {
  /** The copy's file; `:memory:`; `temporary`: this process's own in `tempDirectory`, removed at close (beside
   * PostgreSQL, where a copy in memory would be held whole in DuckDB's memory, a file only as its limit allows). */
  file: string;
  logger: Logger;
  /** Where DuckDB spills what does not fit, and where a `temporary` copy's file is (default: the system's). */
  tempDirectory?: string;
  /**
   * How long a reader of everyone known waits for a catch-up of the whole copy under way (default 3 s) before taking
   * the days copied so far: a copy made from nothing takes minutes at scale, one catching up a few days a moment.
   */
  wholeWaitMs?: number;
}

export interface Analytics {
  /**
   * Brings the copy of [start, end] (every stored day without a range) up to the store's; how many days this call
   * copied or dropped (none when the copy held every day at the store's version).
   */
  catchUp(range?: DayRange): Promise<number>;
  /**
   * Brings the whole copy up to the store's, unless a catch-up of the whole is under way: then waits for it a few
   * seconds at most (`wholeWaitMs`), the reader taking the days copied so far (everyone known asked right after a
   * start does not wait minutes for the history's copy).
   */
  catchUpUnlessUnderWay(): Promise<void>;
  /** Replaces a table of the engine's own (made from the store's data, like a price table) in one transaction. */
  replaceTable(name: string, columns: readonly [string, DuckDBType][], rows: DuckDBValue[][]): Promise<void>;
  /** Runs a query on the engine's threads; rows as plain objects (numbers as numbers). */
  rows<T extends Record<string, unknown>>(
    sql: string,
    params?: Record<string, DuckDBValue>,
    types?: Record<string, DuckDBType>,
  ): Promise<T[]>;
  /** Runs a query on the engine's threads; its rows as plain objects, a few thousand at a time as they are converted. */
  rowParts<T extends Record<string, unknown>>(
    sql: string,
    params?: Record<string, DuckDBValue>,
    types?: Record<string, DuckDBType>,
  ): AsyncGenerator<T[]>;
  /** Changes each time a day of the copy is written with other rows than it had, or dropped. */
  generation(): number;
  close(): Promise<void>;
}

export async function openAnalytics(store: StoreDb, opts: AnalyticsOptions): Promise<Analytics> {
  const settings = {
    // Beyond it, the file's pages are read again as needed. At 50,000 people the process's largest resident size was
    // 1,541–1,620 MB with 512 MB, 1,432–1,497 MB with 384 MB and 1,320–1,416 MB with 256 MB, the answers as fast
    // within the machine's drift (docs/performance.md).
    memory_limit: '256MB',
    ...(opts.tempDirectory ? { temp_directory: opts.tempDirectory } : {}),
  };
  const copy = await openCopyFile(opts.file, settings, opts.logger, opts.tempDirectory);
  const { instance } = copy;
  const loader = await instance.connect();
  // Readers on connections of their own: a request's queries, and another reader's, run side by side (a query over
  // a 90-day range spans few of DuckDB's row groups, so it rarely keeps both threads busy alone). Two, beside the
  // loader: each waits on a thread of libuv's four, which compression and files need too.
  const readers = createReaders([await instance.connect(), await instance.connect()]);
  // Tables made for readers (a range's users table) live in memory, where every connection sees them.
  await loader.run("ATTACH ':memory:' AS scratch");
  await loader.run('CREATE TABLE IF NOT EXISTS meta (schema_version INTEGER)');
  const version = Number((await loader.runAndReadAll('SELECT max(schema_version) FROM meta')).getRowsJS()[0]?.[0] ?? 0);
  if (version !== SCHEMA_VERSION) {
    // The tables of every version so far, and any of this one.
    const old = (await loader.runAndReadAll('SELECT table_name FROM duckdb_tables() WHERE NOT temporary')).getRowsJS();
    for (const t of new Set([...old.map((r) => String(r[0])), ...COPY_TABLES]))
      await loader.run(`DROP TABLE IF EXISTS ${t}`);
  }
  for (const s of SCHEMA) await loader.run(s);
  if (version !== SCHEMA_VERSION) await loader.run(`INSERT INTO meta VALUES (${SCHEMA_VERSION})`);

  /** Counts the copies that changed days (written with other rows, or dropped): what was made from the copy (a
   * membership table) is made again after. */
  let generation = 0;
  /** What the copy holds: per source, each day's version. */
  const loaded: Record<Source, Map<string, string>> = { users: new Map(), tokens: new Map() };
  for (const r of (await loader.runAndReadAll('SELECT source, day, version FROM loaded_day')).getRowsJS())
    loaded[r[0] as Source].set(String(r[1]), String(r[2]));

  /** The store's `/tokens` days: the organization's answers, not a grouping's. */
  const tokensDays = () =>
    store.db.selectFrom('day_answer').where('endpoint', '=', 'tokens').where('grouping', '=', '');

  async function storedVersions(source: Source, range?: DayRange): Promise<Map<string, string>> {
    const from = range?.start ?? '0000-00-00';
    const to = range?.end ?? '9999-99-99';
    const rows =
      source === 'users'
        ? await store.db
            .selectFrom('users_day')
            .select(['day', 'synced_at'])
            .where('day', '>=', from)
            .where('day', '<=', to)
            .execute()
        : await tokensDays().select(['day', 'synced_at']).where('day', '>=', from).where('day', '<=', to).execute();
    return new Map(rows.map((r) => [r.day, r.synced_at]));
  }

  /**
   * The `/users` rows of `days`. The embedded store reads on the event loop (its driver is synchronous): there a day
   * is read ROWS_A_READ rows at a time in the key's order, the loop let go between reads, so that a day of a large
   * organization (hundreds of milliseconds read at once) never holds the probes and the readers' answers.
   */
  async function userRowsOf(days: Day[]): Promise<{ day: string; text: string }[]> {
    const rows = () => store.db.selectFrom('user_day').select(['day', 'user_id', 'row as text']);
    if (store.engine !== 'sqlite') return rows().where('day', 'in', days).execute();
    const out: { day: string; text: string }[] = [];
    for (const day of days)
      for (let after = '', n = ROWS_A_READ; n === ROWS_A_READ;) {
        if (out.length > 0) await letGo();
        const read = await rows()
          .where('day', '=', day)
          .where('user_id', '>', after)
          .orderBy('user_id')
          .limit(ROWS_A_READ)
          .execute();
        for (const r of read) out.push(r);
        n = read.length;
        after = read.at(-1)?.user_id ?? after;
      }
    return out;
  }

  /** Stored days' JSON as the copy's statements take it: each `/users` row, or each `/tokens` answer, and its day. */
  async function textsOf(source: Source, days: Day[]) {
    const rows =
      source === 'users'
        ? await userRowsOf(days)
        : await tokensDays().select(['day', 'body as text']).where('day', 'in', days).execute();
    return {
      values: { days: listValue(rows.map((r) => r.day)), texts: listValue(rows.map((r) => wellFormedJson(r.text))) },
      chars: rows.reduce((n, r) => n + r.text.length, 0),
    };
  }

  /** Makes the week tables' rows of the weeks holding `days` again from `person_day` (in the caller's transaction). */
  async function remakeWeeks(source: Source, days: Day[]) {
    const weeks = [...new Set(days.map(weekStart))].sort();
    const params = { weeks: listValue(weeks), from: weeks[0]!, to: addDays(weeks.at(-1)!, 6) };
    const types = { weeks: LIST(VARCHAR) };
    for (const [table, from, select] of WEEK_TABLES[source].tables) {
      await loader.run(
        `DELETE FROM ${table} WHERE list_contains($weeks::DATE[], week)`,
        { weeks: params.weeks },
        types,
      );
      await loader.run(
        `INSERT INTO ${table} WITH d AS (SELECT *, ${WEEK_OF_DAY} AS week FROM ${from}
           WHERE day BETWEEN $from AND $to AND list_contains($weeks::DATE[], ${WEEK_OF_DAY})) ${select}`,
        params,
        types,
      );
    }
  }

  /** `/users` rows the embedded store reads at once for the copy (see `userRowsOf`). */
  const ROWS_A_READ = 2_000;
  /** JSON given to DuckDB at once, at most (but a day's): a part's JSON is held three times while it is parsed. */
  const TEXT_CHARS = 8_000_000;
  /** The most JSON a day of each source has had so far: how many days make a part. */
  const perDay: Record<Source, number> = { users: 0, tokens: 0 };

  const TABLES: Record<Source, string[]> = {
    users: ['person_day'],
    tokens: ['person_credits_day', 'person_model_day', 'org_tokens_day'],
  };

  /**
   * Replaces days of one source in the copy (`version` undefined: drops the day), all in one transaction: a
   * reader sees each of them whole or not at all, and a crash leaves them to be copied again. Their JSON is read from
   * the store as it is kept and given to DuckDB, which parses it on its own threads (schema.ts), and the week tables
   * are made once for all of them.
   */
  async function copyDays(source: Source, days: readonly [Day, string | undefined][]): Promise<void> {
    const tables = TABLES[source];
    // Days copied before are replaced (a scan of each table); new ones have nothing to replace.
    const replaced = days.map(([day]) => day).filter((day) => loaded[source].has(day));
    // Days stored again as they were (a sync's refresh of its last days) change nothing made from the copy.
    const same = replaced.length === days.length && days.every(([, v]) => v !== undefined);
    const fingerprint = async () =>
      (
        await loader.runAndReadAll(
          `SELECT ${tables.map((t) => `(SELECT coalesce(sum(hash(x)), 0) FROM ${t} x WHERE list_contains($days::DATE[], day))::VARCHAR`).join(', ')}`,
          { days: listValue(replaced) },
          { days: LIST(VARCHAR) },
        )
      )
        .getRowsJS()[0]!
        .join();
    await loader.run('BEGIN TRANSACTION');
    let before: string | undefined;
    let after: string | undefined;
    try {
      if (same) before = await fingerprint();
      if (replaced.length > 0)
        for (const t of tables)
          await loader.run(
            `DELETE FROM ${t} WHERE list_contains($days::DATE[], day)`,
            { days: listValue(replaced) },
            { days: LIST(VARCHAR) },
          );
      // Parsed a part at a time, each at most TEXT_CHARS of JSON (but a day), days as many as the largest day so far
      // says fit (one, until a day has been seen): memory stays bounded at any size.
      const copied = days.filter(([, v]) => v !== undefined).map(([day]) => day);
      for (let i = 0, n = 1; i < copied.length; i += n) {
        const fit = perDay[source] > 0 ? Math.floor(TEXT_CHARS / perDay[source]) : 1;
        n = Math.max(1, Math.min(copied.length - i, fit));
        const given = await textsOf(source, copied.slice(i, i + n));
        perDay[source] = Math.max(perDay[source], given.chars / n);
        for (const statement of DAY_STATEMENTS[source])
          await loader.run(statement, statement.includes('$days') ? given.values : undefined, {
            days: LIST(VARCHAR),
            texts: LIST(VARCHAR),
          });
      }
      await remakeWeeks(
        source,
        days.map(([day]) => day),
      );
      await loader.run(
        'DELETE FROM loaded_day WHERE source = $source AND list_contains($days, day)',
        {
          source,
          days: listValue(days.map(([day]) => day)),
        },
        { days: LIST(VARCHAR) },
      );
      const kept = days.filter(([, v]) => v !== undefined) as [Day, string][];
      await appendRows(
        loader,
        'loaded_day',
        [VARCHAR, VARCHAR, VARCHAR],
        kept.map(([day, v]) => [source, day, v]),
      );
      if (same) after = await fingerprint();
      await loader.run('COMMIT');
    } catch (e) {
      await loader.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
    for (const [day, version] of days) {
      if (version === undefined) loaded[source].delete(day);
      else loaded[source].set(day, version);
    }
    if (before === undefined || before !== after) generation++;
  }

  /**
   * The loader connection, one task at a time: a reader's (a range it waits for, a table it needs) before the
   * background's (the whole history, newest day first, then a checkpoint), so a reader waits for one week's copy or
   * one checkpoint at most.
   */
  let busy = false;
  let closed = false;
  const waiting: Record<'urgent' | 'background', (() => void)[]> = { urgent: [], background: [] };
  async function withLoader<T>(urgent: boolean, fn: () => Promise<T>): Promise<T> {
    if (busy) await new Promise<void>((ok) => waiting[urgent ? 'urgent' : 'background'].push(ok));
    busy = true;
    try {
      return await fn();
    } finally {
      const next = waiting.urgent.shift() ?? waiting.background.shift();
      if (next) next();
      else busy = false;
    }
  }

  /** Days were copied since the last checkpoint; a checkpoint is waiting for its turn or running. */
  let unchecked = false;
  let checkpointing = false;
  async function catchUpNow(range: DayRange | undefined): Promise<number> {
    const urgent = range !== undefined;
    let copied = 0;

    for (const source of ['users', 'tokens'] as const) {
      const stored = await storedVersions(source, range);
      const held = loaded[source];
      const missing = [...held.keys()].filter(
        (day) => !stored.has(day) && (!range || (day >= range.start && day <= range.end)),
      );
      // A day whose `/users` walk is under way is kept as it was until the walk has stored it again (the walks are
      // read only when a day is missing: most catch-ups have none).
      const walking =
        source === 'users' && missing.length > 0
          ? await store.db.selectFrom('users_walk').select(['start_day', 'end_day']).execute()
          : [];
      const gone = missing.filter((day) => !walking.some((w) => day >= w.start_day && day <= w.end_day));
      // Newest first (the days readers look at), then the days the store no longer has.
      const todo: [Day, string | undefined][] = [
        ...[...stored].filter(([day, v]) => held.get(day) !== v).sort(([a], [b]) => (a < b ? 1 : -1)),
        ...gone.map((day) => [day, undefined] as const),
      ] as [Day, string | undefined][];
      // A batch is the days of one week (a reader waits for one at most).
      for (let i = 0; i < todo.length && !closed;) {
        const week = weekStart(todo[i]![0]);
        let n = 1;
        while (i + n < todo.length && weekStart(todo[i + n]![0]) === week) n++;
        const batch = todo.slice(i, i + n);
        i += n;
        // Looked at again once its turn comes: another catch-up may have copied some meanwhile.
        await withLoader(urgent, async () => {
          const still = batch.filter(([day, v]) => held.get(day) !== v);
          if (still.length > 0 && !closed) {
            await copyDays(source, still);
            copied += still.length;
            unchecked = true;
          }
        });
      }
    }
    // Days copied are checkpointed after the background's catch-up, not left in the WAL: read faster so (the figures in
    // docs/performance.md). Refused while a transaction runs, it is tried again after the next; no caller waits for it.
    // One attempt waits at a time: readers catching up together asked for one each.
    if (unchecked && !urgent && !checkpointing) {
      checkpointing = true;
      void withLoader(false, async () => {
        if (closed || !unchecked) return;
        await loader.run('CHECKPOINT');
        unchecked = false;
      })
        .catch((e: unknown) =>
          opts.logger.info('the analytics copy was not checkpointed; tried again after the next catch-up', {
            error: e instanceof Error ? e.message : String(e),
          }),
        )
        .finally(() => (checkpointing = false));
    }
    return copied;
  }

  /** Catch-ups of the whole copy under way. */
  let wholeUnderWay: Promise<number> | undefined;
  const catchUpWhole = () => {
    const run = catchUpNow(undefined).finally(() => {
      if (wholeUnderWay === run) wholeUnderWay = undefined;
    });
    wholeUnderWay = run;
    return run;
  };
  const wholeWait = opts.wholeWaitMs ?? 3000;
  return {
    catchUp: (range) => (range ? catchUpNow(range) : catchUpWhole()),
    async catchUpUnlessUnderWay() {
      const under = wholeUnderWay;
      if (!under) return void (await catchUpWhole());
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        under.then(
          () => undefined,
          () => undefined,
        ),
        new Promise<void>((ok) => (timer = setTimeout(ok, wholeWait))),
      ]);
      clearTimeout(timer);
    },
    replaceTable: (name, columns, rows) =>
      withLoader(true, async () => {
        // A making queued behind `close` runs once the loader is closed (or being closed): refused, never run on it.
        if (closed) throw new Error('the analytics engine is closed');
        await loader.run('BEGIN TRANSACTION');
        try {
          await loader.run(
            `CREATE OR REPLACE TABLE ${name} (${columns.map(([c, t]) => `${c} ${t.toString()}`).join(', ')})`,
          );
          await appendRows(
            loader,
            name,
            columns.map(([, t]) => t),
            rows,
          );
          await loader.run('COMMIT');
        } catch (e) {
          await loader.run('ROLLBACK').catch(() => undefined);
          throw e;
        }
      }),
    async rows<T extends Record<string, unknown>>(
      sql: string,
      params?: Record<string, DuckDBValue>,
      types?: Record<string, DuckDBType>,
    ) {
      const out: T[] = [];
      for await (const part of readers.parts<T>(sql, params, types)) for (const row of part) out.push(row);
      return out;
    },
    rowParts: (sql, params, types) => readers.parts(sql, params, types),
    generation: () => generation,
    /**
     * Waits for the copy under way and the queries in flight, then closes: a connection closed under a query
     * deadlocks DuckDB's worker, and the process with it when it exits.
     */
    async close() {
      closed = true;
      await withLoader(true, async () => undefined);
      await readers.close();
      loader.closeSync();
      instance.closeSync();
      copy.release();
    },
  };
}
