/**
 * The read worker's thread: the embedded store opened read-only on a connection of its own (the
 * file is in WAL mode, so it reads beside the server's writes), answering the reads that would hold
 * the server's event loop for long. Each message names one read; each answer carries its id.
 */
import SQLite from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { createDayColumns, sqliteDaySource, transferablesOf } from './day-columns';
import type { ReadAnswer, ReadRequest } from './read-worker';

const { path, maxBytes } = workerData as { path: string; maxBytes?: number };
const port = parentPort!;
let sqlite: SQLite.Database;
try {
  sqlite = new SQLite(path, { readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
} catch (e) {
  port.postMessage({ id: 0, failed: `${path}: ${e instanceof Error ? e.message : String(e)}` } satisfies ReadAnswer);
  process.exit(1);
}
// The days read so far, kept column by column: a range's table or spend is then a pass over memory.
const days = createDayColumns(sqliteDaySource(sqlite), { maxBytes });

async function read(m: ReadRequest): Promise<ReadAnswer> {
  if (m.kind === 'merged') return { id: m.id, columns: days.mergedColumns(m.start, m.end) };
  if (m.kind === 'preload') return { id: m.id, preloaded: days.preload(m.what, m.start, m.end) };
  // The range's `/tokens` days, split per user and model, priced: as the server's facts do it.
  return { id: m.id, spend: days.spendByUser(m.start, m.end, m.prices) };
}

port.on('message', (m: ReadRequest) => {
  read(m).then(
    // A table's typed arrays are handed over, not copied.
    (a) => port.postMessage(a, 'columns' in a ? transferablesOf(a.columns) : []),
    (e: unknown) =>
      port.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) } satisfies ReadAnswer),
  );
});
