/** `npm start`: serves the built SPA and the API on one port. */
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';
import { createApp } from './app';
import { readServerConfig } from './config';
import { createLogger } from './log';

const config = readServerConfig();
const logger = createLogger();
const { handler, demo } = createApp(config, { logger });

const dist = fileURLToPath(new URL('../../dist', import.meta.url));
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

const server = createServer((req, res) =>
  handler(req, res, () =>
    statics(req, res, () => {
      res.statusCode = 404;
      res.end('Not found');
    }),
  ),
);

if (demo) demo.world(); // build the data set before the first request
server.listen(config.port, config.host, () => {
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  logger.info('listening', {
    url: `http://${config.host}:${port}/`,
    mode: demo ? 'demo' : 'upstream',
    serverKey: config.apiKey ? 'configured' : 'none',
  });
});

for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => server.close(() => process.exit(0)));
