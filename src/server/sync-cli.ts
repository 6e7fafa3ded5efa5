/**
 * `npm run sync -- --from 2026-02-01 --to 2026-02-28`: fills the store for a
 * range (every endpoint, `/users`, readiness) with the server's configuration,
 * then exits: 0 when everything was stored, 1 otherwise. Without --from/--to,
 * the whole history.
 */
import { parseArgs } from 'node:util';
import { HISTORY_START, isDay } from '../lib/dates';
import { createApp, openAppStore } from './app';
import { readServerConfig } from './config';
import { boundHeapGrowth } from './core/heap';
import { startEgress } from './core/egress';
import { createLogger } from './core/log';
import { readStoreConfig } from './store/config';

boundHeapGrowth();
const logger = createLogger();

function fail(message: string): never {
  logger.error(message);
  process.exit(2);
}

const { values } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' } }, strict: true });
const config = readServerConfig();
startEgress(config.egress, logger);
const storeConfig = readStoreConfig();
const store = await openAppStore(config, storeConfig);
if (!store) fail('Nothing to sync: the store is used only with a key held by the server (API_KEY) or in demo mode.');
const { scheduler, clientConfig, sync } = createApp(config, { logger, store, storeConfig });
const latest = clientConfig().latestDay;
const from = values.from ?? HISTORY_START;
const to = values.to ?? latest;
if (!isDay(from) || !isDay(to)) fail('--from and --to must be days written YYYY-MM-DD');
if (from > to) fail(`--from (${from}) is after --to (${to})`);
if (to > latest) fail(`--to (${to}) is after the latest queryable day (${latest})`);

const t0 = performance.now();
const run = await scheduler!.run({ start: from, end: to });
logger.info('sync done', {
  from,
  to,
  failures: run.failures,
  upstreamRequests: sync!.activity.upstreamRequests,
  resumedWalks: sync!.activity.resumedWalks,
  seconds: Math.round((performance.now() - t0) / 100) / 10,
});
await store.close();
process.exit(run.failures === 0 ? 0 : 1);
