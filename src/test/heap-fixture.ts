/**
 * For heap.test.ts, in a process of its own: a live set, then garbage that survives a few turns of the
 * event loop (as a sync's answers do across its awaits); prints the largest heap V8 kept meanwhile.
 */
import { boundHeapGrowth } from '../server/core/heap';

if (process.argv[2] === 'bounded') boundHeapGrowth();
const live: unknown[] = [];
for (let i = 0; i < 200_000; i++) live.push({ i, s: `live ${i}`, pair: [i, i + 1] });
const recent: unknown[][] = [];
let peak = 0;
for (let round = 0; round < 80; round++) {
  recent.push(Array.from({ length: 100_000 }, (_, j) => ({ j, s: `row ${round} ${j}` })));
  if (recent.length > 8) recent.shift();
  await new Promise((r) => setImmediate(r));
  peak = Math.max(peak, process.memoryUsage().heapTotal);
}
process.stdout.write(JSON.stringify({ peak, live: live.length }));
