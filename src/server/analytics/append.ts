/**
 * How rows get into the analytics copy: appended a chunk at a time, and the numbers it gives people and languages.
 */
import {
  DuckDBDataChunk,
  INTEGER,
  VARCHAR,
  type DuckDBConnection,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import { setImmediate as letGo } from 'node:timers/promises';
import type { Numbering } from './schema';

/**
 * Numbers kept in a table of the copy (`person`, `language`): a key seen first gets the next number, written with
 * the transaction that first uses it (`fresh`), and forgotten if that transaction fails.
 */
export function numbering(table: string, rows: unknown[][]) {
  const numbers = new Map(rows.map(([n, key]) => [String(key), Number(n)]));
  // Not Math.max(...values): spread over 130,000 people it overflows the stack.
  let next = 1;
  for (const n of numbers.values()) if (n >= next) next = n + 1;
  let fresh: [number, string][] = [];
  const of: Numbering = (key) => {
    let n = numbers.get(key);
    if (n === undefined) {
      numbers.set(key, (n = next++));
      fresh.push([n, key]);
    }
    return n;
  };
  return {
    of,
    /** Writes the numbers given since the last write (in the caller's transaction). */
    async write(con: DuckDBConnection) {
      await appendRows(con, table, [INTEGER, VARCHAR], fresh);
    },
    settle(ok: boolean) {
      if (!ok) for (const [n, key] of fresh) if (numbers.get(key) === n) numbers.delete(key);
      fresh = [];
    },
  };
}

/** Rows appended a chunk at a time (DuckDB's vector size), the event loop let go between chunks. */
const CHUNK = 2048;

export async function appendRows(con: DuckDBConnection, table: string, types: DuckDBType[], rows: DuckDBValue[][]) {
  if (rows.length === 0) return;
  const appender = await con.createAppender(table);
  try {
    for (let i = 0; i < rows.length; i += CHUNK) {
      const part = rows.slice(i, i + CHUNK);
      const chunk = DuckDBDataChunk.create(types, part.length);
      chunk.setColumns(types.map((_, c) => part.map((r) => r[c]!)));
      appender.appendDataChunk(chunk);
      if (i + CHUNK < rows.length) await letGo();
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}
