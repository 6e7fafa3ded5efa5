/**
 * `npm run digest -- --dry-run`: builds this week's digest with the server's configuration and prints
 * the message it would post (Slack-compatible JSON). Without --dry-run, posts it to
 * DIGEST_WEBHOOK_URL (retrying as the server does) and exits 0 once delivered, 1 otherwise.
 */
import { parseArgs } from 'node:util';
import { createApp, openAppStore } from './app';
import { readServerConfig } from './config';
import { startEgress } from './core/egress';
import { createLogger } from './core/log';
import { postDigest } from './digest/digest';
import { readStoreConfig } from './store/config';

// The log goes to stderr: stdout is the message.
const logger = createLogger((line) => process.stderr.write(`${line}\n`));
const { values } = parseArgs({ options: { 'dry-run': { type: 'boolean', default: false } }, strict: true });
const config = readServerConfig();
startEgress(config.egress, logger);
const storeConfig = readStoreConfig();
const store = await openAppStore(config, storeConfig);
const { digest } = createApp(config, { logger, store, storeConfig });
if (!digest) {
  logger.error(
    'The digest is built from the store: it is used only with a key held by the server (API_KEY) or in demo mode.',
  );
  process.exit(2);
}
// Without PUBLIC_URL the links go where the server's own digest's do, its address from HOST and PORT: said, since
// only its machine reaches that, and a command run without the server's PORT names another port.
if (!process.env.PUBLIC_URL)
  logger.info(
    'PUBLIC_URL is unset: the links go to HOST and PORT, which only the server’s machine reaches; set PUBLIC_URL as the server has it',
    { links: config.publicUrl.href },
  );
const message = await digest();
let ok = true;
if (values['dry-run']) process.stdout.write(`${JSON.stringify(message, null, 2)}\n`);
else if (!config.digestWebhookUrl) {
  logger.error('Set DIGEST_WEBHOOK_URL to post the digest, or print it with --dry-run.');
  ok = false;
} else ok = await postDigest(config.digestWebhookUrl, message, logger);
await store?.close();
process.exit(ok ? 0 : 1);
