/**
 * `npm run alerts -- --dry-run`: checks the alert rules now with the server's configuration and prints what
 * would open and resolve, storing and posting nothing. Without --dry-run, checks, stores what opened and
 * resolved, and posts the open alerts not yet posted to ALERT_WEBHOOK_URL (retrying as the server does); exits
 * 0 when every open alert is posted (or there is no webhook), 1 otherwise.
 */
import { parseArgs } from 'node:util';
import { createApp, openAppStore } from './app';
import { readServerConfig } from './config';
import { startEgress } from './core/egress';
import { createLogger } from './core/log';
import { readStoreConfig } from './store/config';

// The log goes to stderr: stdout is what the check found.
const logger = createLogger((line) => process.stderr.write(`${line}\n`));
const { values } = parseArgs({ options: { 'dry-run': { type: 'boolean', default: false } }, strict: true });
const config = readServerConfig();
startEgress(config.egress, logger);
const storeConfig = readStoreConfig();
const store = await openAppStore(config, storeConfig);
const app = createApp(config, { logger, store, storeConfig });
if (!app.alerts) {
  logger.error(
    'The alerts are kept in the store: they are used only with a key held by the server (API_KEY) or in demo mode.',
  );
  process.exit(2);
}
const result = await app.alerts.check({ dryRun: values['dry-run'] });
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
await app.close();
await store?.close();
process.exit(result.unposted > 0 && config.alertWebhookUrl ? 1 : 0);
