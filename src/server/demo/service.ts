/**
 * The demo service: a faithful implementation of service-interface.md over
 * the simulated organization. Framework-free: `handle` takes a method, a URL
 * and headers and returns status, headers and body, so it can sit behind its
 * own HTTP server (transport.ts), inside the dashboard's server (embedded.ts),
 * or be called by tests. This file routes a request through the steps every
 * endpoint shares: path, method, key and role, cache, faults.
 */
import { setImmediate as letGo } from 'node:timers/promises';
import { ANALYTICS_PATHS, PATHS } from '../../api/paths';
import { addDays, todayUtc, type Day } from '../../lib/dates';
import { HttpError, errorResponse, newRequestId } from '../core/errors';
import { SizedCache } from '../core/cache';
import { jsonText } from '../core/response';
import { authenticate, authorize, type RequestHeaders } from './auth';
import type { DemoConfig } from './config';
import { analytics, readiness } from './endpoints';
import { injectFault, type DemoResponse } from './faults';
import { makeHostile } from './hostile';
import { finish } from './org';
import { worldParts, type People, type World } from './world';

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

/** How long a part of the world's making holds the event loop (`ready`). */
const PART_MS = 20;

export function createDemoService(config: DemoConfig, clock: () => number = Date.now) {
  let world: World | undefined;
  /** The next day's world, part-built (`ready`), and its people once they are made. */
  let building: { today: Day; people?: People; parts: Generator<void, World> } | undefined;
  // Finished bodies: the data set never changes for a given "today".
  const maxSize = config.cacheChars ?? 256 * 1024 * 1024;
  const cache = new SizedCache<string>({ maxSize, maxEntrySize: maxSize / 4, sizeOf: (b) => b.length });
  const today = () => config.today ?? todayUtc(clock());

  /** The day's world being built, begun if it is not. */
  function builder() {
    const day = today();
    if (building?.today !== day) {
      const b: NonNullable<typeof building> = { today: day, parts: worldParts(config, day, (p) => (b.people = p)) };
      building = b;
    }
    return building;
  }

  function built(w: World): World {
    cache.clear();
    world = w;
    building = undefined;
    return w;
  }

  /** Who is in the day's organization and its repositories: the first part of its making, finished at once. */
  function currentPeople(): People {
    if (world?.today === today()) return { today: world.today, users: world.org.users, readiness: world.readiness };
    const b = builder();
    // The parts give the people before their days.
    while (!b.people) b.parts.next();
    return b.people;
  }

  /** The day's world, its rest built at once if it is not yet (see `ready`). */
  function currentWorld(): World {
    if (world?.today === today()) return world;
    return built(finish(builder().parts));
  }

  /** The day's world, its parts built a few milliseconds at a time with the event loop let go between them. */
  let readying: Promise<World> | undefined;
  function ready(): Promise<World> {
    if (world?.today === today()) return Promise.resolve(world);
    if (!readying) {
      const p = (async () => {
        for (;;) {
          if (world?.today === today()) return world;
          const b = builder();
          for (const t0 = performance.now(); performance.now() - t0 < PART_MS;) {
            const step = b.parts.next();
            if (step.done) return built(step.value);
          }
          await letGo();
        }
      })();
      readying = p;
      const done = () => void (readying === p && (readying = undefined));
      p.then(done, done);
    }
    return readying;
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
    latestDay: () => addDays(today(), -1),
    world: currentWorld,
    /** Who is in the organization and its repositories, without building their days. */
    people: currentPeople,
    ready,
  };
}

export type DemoService = ReturnType<typeof createDemoService>;
