/**
 * How rows get into the analytics engine's own tables (a price list, who is in which team): appended a chunk at a time.
 */
import { DuckDBDataChunk, type DuckDBConnection, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';
import { setImmediate as letGo } from 'node:timers/promises';

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
