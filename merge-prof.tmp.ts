import { DuckDBInstance, JSDuckDBValueConverter } from '@duckdb/node-api';
import { mergedUsers } from './src/server/analytics/users';
import type { Analytics } from './src/server/analytics/engine';

const file = process.argv[2]!;
const range = { start: process.argv[3]!, end: process.argv[4]! };
const inst = await DuckDBInstance.create(file, { memory_limit: '512MB', access_mode: 'READ_ONLY' });
const con = await inst.connect();
let lastSql = '';
let lastParams: Record<string, unknown> = {};
const a = {
  catchUp: async () => {},
  async columns(sql: string, params: Record<string, unknown>) {
    lastSql = sql; lastParams = params;
    const t0 = performance.now();
    const result = await con.run(sql, params as never);
    const t1 = performance.now();
    const names = result.deduplicatedColumnNames();
    const out: Record<string, unknown[]> = Object.fromEntries(names.map((n) => [n, []]));
    for (let i = 0; i < result.chunkCount; i++) {
      const chunk = result.getChunk(i);
      names.forEach((n, c) => { for (const v of chunk.convertColumnValues(c, JSDuckDBValueConverter)) out[n]!.push(v); });
    }
    console.log(`query ${(t1 - t0).toFixed(0)} ms, convert ${(performance.now() - t1).toFixed(0)} ms, rows ${out[names[0]!]!.length}`);
    return out;
  },
} as unknown as Analytics;
for (let i = 0; i < 2; i++) {
  const t0 = performance.now();
  const users = await mergedUsers(a, range);
  console.log(`mergedUsers ${(performance.now() - t0).toFixed(0)} ms, ${users.length}`);
}
if (process.env.EXPLAIN) {
  await con.run("PRAGMA enable_profiling='query_tree'");
  const r = await con.runAndReadAll('EXPLAIN ANALYZE ' + lastSql, lastParams as never);
  console.log(r.getRows().map((x) => x[1]).join('\n'));
}
