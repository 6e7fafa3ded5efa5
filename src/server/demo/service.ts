/**
 * The demo service: a faithful implementation of service-interface.md over
 * the simulated organization. Framework-free: `handle` takes a method, a URL
 * and headers and returns status, headers and body, so it can sit behind its
 * own HTTP server (transport.ts), inside the dashboard's server (embedded.ts),
 * or be called by tests. This file routes a request through the steps every
 * endpoint shares: path, method, key and role, cache, faults.
 */
import { ANALYTICS_PATHS, PATHS } from '../../api/paths';
import { addDays, todayUtc } from '../../lib/dates';
import { HttpError, errorResponse, newRequestId } from '../core/errors';
import { SizedCache } from '../core/cache';
import { jsonText } from '../core/response';
import { authenticate, authorize, type RequestHeaders } from './auth';
import type { DemoConfig } from './config';
import { analytics, readiness } from './endpoints';
import { injectFault, type DemoResponse } from './faults';
import { makeHostile } from './hostile';
import { buildWorld, type World } from './world';

interface DemoRequest {
  method: string;
  /** Path and query, e.g. `/api/v1/analytics/tokens?startDate=…`. */
  url: string;
  headers: RequestHeaders;
}

interface Route {
  family: 'analytics' | 'readiness';
  /** The endpoint's name in DEMO_FAULTS rules. */
  name: string;
}

const ROUTES = new Map<string, Route>([
  ...ANALYTICS_PATHS.map((p): [string, Route] => [p, { family: 'analytics', name: p.split('/').pop()! }]),
  [PATHS.readiness, { family: 'readiness', name: 'readiness' }],
  // The service's newer name for the same reports.
  ['/api/organization/agent-readiness-reports', { family: 'readiness', name: 'readiness' }],
]);

export function createDemoService(config: DemoConfig, clock: () => number = Date.now) {
  let world: World | undefined;
  // Finished bodies: the data set never changes for a given "today".
  const maxSize = config.cacheChars ?? 256 * 1024 * 1024;
  const cache = new SizedCache<string>({ maxSize, maxEntrySize: maxSize / 4, sizeOf: (b) => b.length });

  function currentWorld(): World {
    const today = config.today ?? todayUtc(clock());
    if (!world || world.today !== today) {
      cache.clear();
      world = buildWorld(config, today);
    }
    return world;
  }

  function handle(req: DemoRequest): DemoResponse {
    let url: URL;
    try {
      url = new URL(req.url, 'http://demo.invalid');
    } catch {
      return errorResponse(400, 'Malformed request URL.');
    }
    const path = url.pathname;
    const route = ROUTES.get(path);
    if (!route) return errorResponse(404, `No such endpoint: ${path.slice(0, 100)}`);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return errorResponse(405, `Method ${req.method} is not allowed; this interface is read-only (GET).`, {
        allow: 'GET, HEAD',
      });
    }
    try {
      authorize(authenticate(req.headers, config.keys), route.family);
      const w = currentWorld();
      const key = `${w.today}|${path}|${[...url.searchParams].sort().join('&')}`;
      let body = cache.get(key);
      if (body === undefined) {
        const result =
          route.family === 'analytics' ? analytics(path, url.searchParams, w) : readiness(url.searchParams, w);
        body = JSON.stringify(config.hostile ? makeHostile(result) : result);
        cache.set(key, body);
      }
      const ok: DemoResponse = jsonText(200, body, { 'x-request-id': newRequestId() });
      return injectFault(ok, config, route.name, url.searchParams.get('group_by'));
    } catch (e) {
      if (e instanceof HttpError) return errorResponse(e.status, e.detail, e.headers);
      return errorResponse(500, 'Internal error in the demo service.');
    }
  }

  return {
    handle,
    /** The latest day with data: the demo's yesterday. */
    latestDay: () => addDays(currentWorld().today, -1),
    world: currentWorld,
  };
}

export type DemoService = ReturnType<typeof createDemoService>;
