/**
 * The read worker's thread: the embedded store opened read-only on a connection of its own (the
 * file is in WAL mode, so it reads beside the server's writes), answering the reads that would hold
 * the server's event loop for long. Each message names one read; each answer carries its id.
 */
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { parentPort, workerData } from 'node:worker_threads';
import { spendByUserId } from '../spend/compute';
import { buildFacts } from '../teams/facts';
import { readDays } from './queries';
import type { ReadAnswer, ReadRequest } from './read-worker';
import type { Schema } from './schema';
import { mergedUsers } from './users-queries';

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

async function read(m: ReadRequest): Promise<ReadAnswer> {
  if (m.kind === 'merged') return { id: m.id, users: await mergedUsers(db, m.start, m.end) };
  // The range's `/tokens` days, split per user and model, priced: as the server's facts do it.
  const facts = buildFacts(m.start, m.end, [], await readDays(db, 'tokens', '', m.start, m.end));
  return { id: m.id, spend: spendByUserId(facts, m.prices, m.start, m.end) };
}

port.on('message', (m: ReadRequest) => {
  read(m).then(
    (a) => port.postMessage(a),
    (e: unknown) =>
      port.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) } satisfies ReadAnswer),
  );
});
