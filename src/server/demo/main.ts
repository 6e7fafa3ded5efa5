/** `npm run demo-service`: the demo service on its own, on PORT (default 8787). */
import { createServer } from 'node:http';
import { createLogger } from '../core/log';
import { readDemoConfig } from './config';
import { createDemoService } from './service';
import { demoListener } from './transport';

const logger = createLogger();
const config = readDemoConfig();
const demo = createDemoService(config);
const t0 = performance.now();
demo.world();
logger.info('demo data built', { users: config.users, repos: config.repos, ms: Math.round(performance.now() - t0) });
const port = Number(process.env.PORT || 8787);
const host = process.env.HOST || '127.0.0.1';
createServer(demoListener(demo)).listen(port, host, () =>
  logger.info('demo service listening', { url: `http://${host}:${port}/`, keyCount: config.keys.size }),
);
