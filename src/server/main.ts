/** `npm start`: serves the built SPA and the API on one port. */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';
import { createApp, openAppStore } from './app';
import { readServerConfig } from './config';
import { boundHeapGrowth } from './core/heap';
import { startEgress } from './core/egress';
import { errorText, createLogger } from './core/log';
import { urlHost } from './core/hosts';
import { createMetrics } from './core/metrics';
import { postDigest, scheduleDigest } from './digest/digest';
import { readStoreConfig } from './store/config';

boundHeapGrowth();
const config = readServerConfig();
const storeConfig = readStoreConfig();
const logger = createLogger();
startEgress(config.egress, logger);
const store = await openAppStore(config, storeConfig);
// One set of metrics for the process, its own (CPU, memory, event loop) included.
const metrics = createMetrics({ process: true });
const { handler, demo, renderIndex, scheduler, digest, drain, close } = createApp(config, {
  logger,
  store,
  storeConfig,
  metrics,
});

// The weekly digest, when there is a webhook to post it to (and a store to build it from).
const webhook = config.digestWebhookUrl;
if (webhook && !digest) logger.error('DIGEST_WEBHOOK_URL is set, but the digest needs the store: no digest is posted');
if (config.alertWebhookUrl && !store)
  logger.error('ALERT_WEBHOOK_URL is set, but the alerts need the store: no alert is checked or posted');
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

/**
 * Page addresses (no file extension) get the page itself, with the configuration inlined. Here, as for the
 * static files, `req.url` is the address below BASE_PATH: the app's handler took the base off.
 */
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

// The demo's data set, built a part at a time from now on: the server listens and answers its probes meanwhile, and
// the sync's first questions wait for it as they would for a service.
if (demo) void demo.ready();
server.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EADDRINUSE' || e.code === 'EACCES')
    console.error(
      `Cannot listen on ${config.host}:${config.port}: ${e.code === 'EADDRINUSE' ? 'another program is using that port' : 'not allowed'}. Set PORT to a free port, e.g. PORT=5174 npm start.`,
    );
  else console.error(`Cannot listen on ${config.host}:${config.port}: ${e.message}`);
  process.exit(1);
});
server.listen(config.port, config.host, () => {
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const url = process.env.PUBLIC_URL
    ? config.publicUrl.href
    : `http://${localName(config.host)}:${port}${config.basePath}/`;
  logger.info('listening', {
    url,
    mode: demo ? 'demo' : 'upstream',
    serverKey: config.apiKey ? 'configured' : 'none',
    store: store ? `${store.engine} ${store.location}` : 'none (each user brings a key)',
  });
  // For a person at a terminal: the address alone on a line (the JSON lines are for the log collector).
  console.log(`Dashboard ready at ${url}`);
  if (storeConfig.background) scheduler?.start();
  if (digests)
    logger.info('weekly digest scheduled', { schedule: config.digestSchedule, next: digests.next()?.toISOString() });
});

/** A wildcard address is reached as 127.0.0.1 from this machine. */
const localName = (host: string) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : urlHost(host));

/**
 * SIGTERM (an orchestrator's stop) and SIGINT: `/readyz` says so at once, no new connections, the answers
 * in flight finished (for at most SHUTDOWN_TIMEOUT_MS), the sync stopped (its PostgreSQL advisory lock goes
 * with its connection), then the analytics engine and the store closed (within 5 s more). It exits 0 when all of
 * that happened, 1 otherwise, saying what did not. A second signal ends the process at once.
 */
let stopping = false;
/** Whether `p` settled within `ms`. */
const within = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info('stopping', { signal: sig });
    drain();
    scheduler?.stop();
    digests?.stop();
    const inFlight = new Promise<void>((resolve) => server.close(() => resolve()));
    // Idle keep-alive connections would hold close() back; busy ones are closed once their answer is out.
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    void (async () => {
      let code = 0;
      try {
        if (!(await within(inFlight, config.shutdownTimeoutMs)))
          logger.error('stopping: answers still in flight were cut off', { afterMs: config.shutdownTimeoutMs });
        clearInterval(idle);
        server.closeAllConnections();
        if (
          !(await within(
            close().then(() => store?.close()),
            5000,
          ))
        ) {
          logger.error('stopping: the store did not close within 5 s');
          code = 1;
        }
      } catch (e) {
        logger.error('stopping failed', { error: errorText(e) });
        code = 1;
      }
      logger.info('stopped', { code });
      process.exit(code);
    })();
  });
}
