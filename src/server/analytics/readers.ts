/**
 * The analytics copy's readers: queries on connections of their own, beside the loader's, the least busy taking the
 * next, their rows converted a part at a time with the event loop let go between parts.
 */
import { setImmediate as letGo } from 'node:timers/promises';
import { JSDuckDBValueConverter, type DuckDBConnection, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';

/** Rows in one JSON text from DuckDB. */
const ROWS_A_TEXT = 256;

export function createReaders(connections: DuckDBConnection[]) {
  const inFlight = new Map(connections.map((r) => [r, 0]));
  /** The queries in flight on the readers' connections. */
  const reading = new Set<Promise<unknown>>();
  let closed = false;

  /** A query's whole answer, held by DuckDB until its chunks are read. */
  function materialized(
    sql: string,
    params: Record<string, DuckDBValue> | undefined,
    types?: Record<string, DuckDBType>,
  ) {
    if (closed) return Promise.reject(new Error('the analytics engine is closed'));
    const reader = connections.reduce((x, y) => (inFlight.get(y)! < inFlight.get(x)! ? y : x));
    inFlight.set(reader, inFlight.get(reader)! + 1);
    const q = reader.run(sql, params, types);
    reading.add(q);
    void q
      .finally(() => {
        reading.delete(q);
        inFlight.set(reader, inFlight.get(reader)! - 1);
      })
      .catch(() => undefined);
    return q;
  }

  /**
   * A query's rows as plain objects, 2,048 at a time, the event loop let go between them (a 50,000-person answer
   * converted at once held health checks for a quarter of a second). DuckDB writes each row as JSON (`to_json`, a
   * third of the time of the client's conversion; a DATE as its YYYY-MM-DD), 256 rows to a text read by one call
   * (one text a row took a third of a 26,000-row answer's time). A statement that is no query gives no rows.
   */
  async function* parts<T extends Record<string, unknown>>(
    sql: string,
    params: Record<string, DuckDBValue> | undefined,
    types: Record<string, DuckDBType> | undefined,
  ): AsyncGenerator<T[]> {
    const query = /^\s*(SELECT|WITH)\b/i.test(sql);
    if (!query && !/^\s*(CREATE|DROP|COPY)\b/i.test(sql)) throw new Error('a query starts with SELECT or WITH');
    // On a line of its own: a comment on the query's last line would end it.
    const result = await materialized(
      !query
        ? sql
        : `SELECT string_agg(j, ',' ORDER BY n) FROM (
             SELECT to_json(q)::VARCHAR AS j, row_number() OVER () - 1 AS n FROM (${sql}\n) q)
           GROUP BY n // ${ROWS_A_TEXT} ORDER BY n // ${ROWS_A_TEXT}`,
      params,
      types,
    );
    if (!query) return;
    const textsAPart = 2048 / ROWS_A_TEXT;
    let first = true;
    for (let i = 0; i < result.chunkCount; i++) {
      const texts = result.getChunk(i).convertColumnValues(0, JSDuckDBValueConverter) as string[];
      for (let k = 0; k < texts.length; k += textsAPart) {
        if (!first) await letGo();
        first = false;
        yield JSON.parse(`[${texts.slice(k, k + textsAPart).join(',')}]`) as T[];
      }
    }
  }

  return {
    parts,
    /** Refuses new queries, waits for those in flight, then closes the connections. */
    async close() {
      closed = true;
      await Promise.allSettled([...reading]);
      for (const r of connections) r.closeSync();
    },
  };
}
