/**
 * How far V8 lets the heap grow past what is live before it collects. On a machine with a lot of
 * memory V8 lets it grow up to four times: a sync parses millions of rows whose objects die soon
 * after they are written, and at 50,000 users the server's resident size reached about 1.05 GB
 * before a collection took it back to about 0.5 GB. Twice what is live keeps that peak near 0.6 GB
 * (`npm run bench`) at no measurable cost in sync time, and, unlike a heap limit
 * (`--max-old-space-size`), it never stops a server whose organization needs more.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 100;

/**
 * Sets the growth for every isolate of the process (its worker threads too), unless the operator
 * already chose one on node's command line. Called first thing by the server's entry points.
 */
export function boundHeapGrowth(percent = HEAP_GROWING_PERCENT, execArgv = process.execArgv): boolean {
  if (execArgv.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))) return false;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  return true;
}
