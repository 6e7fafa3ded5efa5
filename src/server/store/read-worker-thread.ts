/**
 * The read worker's thread: the embedded store opened read-only on a connection of its own (the
 * file is in WAL mode, so it reads beside the server's writes), answering the reads that would hold
 * the server's event loop for long. Each message names one read; each answer carries its id.
 */
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { parentPort, workerData } from 'node:worker_threads';
import type { Schema } from './schema';
import { mergedUsers } from './users-queries';
import type { ReadRequest, ReadAnswer } from './read-worker';

const { path } = workerData as { path: string };
const port = parentPort!;
let sqlite: SQLite.Database;
try {
  sqlite = new SQLite(path, { readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
} catch (e) {
  port.postMessage({ id: 0, failed: `${path}: ${e instanceof Error ? e.message : String(e)}` } satisfies ReadAnswer);
  process.exit(1);
}
const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: sqlite }) });

port.on('message', (m: ReadRequest) => {
  mergedUsers(db, m.start, m.end).then(
    (users) => port.postMessage({ id: m.id, users } satisfies ReadAnswer),
    (e: unknown) =>
      port.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) } satisfies ReadAnswer),
  );
});
port.postMessage({ id: 0, ready: true } satisfies ReadAnswer);
