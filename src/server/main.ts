/** `npm start`: serves the built SPA and the API on one port. */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';
import { createApp, openAppStore } from './app';
import { readServerConfig } from './config';
import { boundHeapGrowth } from './core/heap';
import { createLogger } from './core/log';
import { postDigest, scheduleDigest } from './digest/digest';
import { readStoreConfig } from './store/config';

boundHeapGrowth();
const config = readServerConfig();
const storeConfig = readStoreConfig();
const logger = createLogger();
const store = await openAppStore(config, storeConfig);
const { handler, demo, renderIndex, scheduler, digest, close } = createApp(config, { logger, store, storeConfig });

// The weekly digest, when there is a webhook to post it to (and a store to build it from).
const webhook = config.digestWebhookUrl;
if (webhook && !digest) logger.error('DIGEST_WEBHOOK_URL is set, but the digest needs the store: no digest is posted');
const digests =
  webhook && digest
    ? scheduleDigest(config.digestSchedule, async () => postDigest(webhook, await digest(), logger), logger)
    : undefined;

// The built SPA, beside this file's folder: `src/server/` from source, `dist-server/` compiled.
const dist = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../../dist' : '../dist', import.meta.url));
const statics = sirv(dist, {
  single: true,
  gzip: true,
  brotli: true,
  etag: true,
  setHeaders(res, pathname) {
    // Hashed assets never change; the page itself must always be revalidated.
    res.setHeader(
      'cache-control',
      pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    );
  },
});

const indexHtml = readFileSync(`${dist}/index.html`, 'utf8');

/** Page addresses (no file extension) get the page itself, with the configuration inlined. */
function servePage(req: IncomingMessage, res: ServerResponse): boolean {
  const path = (req.url ?? '/').split('?')[0]!;
  if ((req.method !== 'GET' && req.method !== 'HEAD') || /\.[a-z0-9]+$/i.test(path)) return false;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'no-cache');
  res.end(req.method === 'HEAD' ? undefined : renderIndex(indexHtml, req.url));
  return true;
}

const server = createServer((req, res) =>
  handler(req, res, () => {
    if (servePage(req, res)) return;
    statics(req, res, () => {
      res.statusCode = 404;
      res.end('Not found');
    });
  }),
);

if (demo) demo.world(); // build the data set before the first request
server.listen(config.port, config.host, () => {
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  logger.info('listening', {
    url: `http://${config.host}:${port}/`,
    mode: demo ? 'demo' : 'upstream',
    serverKey: config.apiKey ? 'configured' : 'none',
    store: store ? `${store.engine} ${store.location}` : 'none (each user brings a key)',
  });
  if (storeConfig.background) scheduler?.start();
  if (digests)
    logger.info('weekly digest scheduled', { schedule: config.digestSchedule, next: digests.next()?.toISOString() });
});

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    scheduler?.stop();
    digests?.stop();
    server.close(
      () =>
        void close()
          .then(() => store?.close())
          .finally(() => process.exit(0)),
    );
    // Open keep-alive connections must not hold the exit back.
    server.closeAllConnections();
  });
}
