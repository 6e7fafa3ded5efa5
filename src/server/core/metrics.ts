/**
 * What the server reports to Prometheus (`GET /metrics`, prom-client): its requests and their latency by
 * route, its requests to the service by endpoint and status (retries apart), and what the caller adds
 * (the sync's lag, what is stored, its last error) as gauges read at each scrape.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DOCUMENTED_PATHS } from '../../api/paths';

/** The paths answered outside the route table (the service's documented paths, the probes, sign-in), each a label. */
const ROUTES = new Set([
  ...DOCUMENTED_PATHS,
  ...['/livez', '/readyz', '/metrics', '/api/health', '/api/me', '/auth/login', '/auth/callback', '/auth/logout'],
]);

/**
 * A request's route label, so that no request can make a label of its own: one of the paths above, else the route
 * table's own label for it (`routes`: its path, or for a pattern the label it declares), else `other`; the SPA's
 * pages and files are `page` and `/assets`.
 */
export function routeOf(path: string, routes: (path: string) => string | undefined = () => undefined): string {
  if (ROUTES.has(path)) return path;
  if (path.startsWith('/api/')) return routes(path) ?? 'other';
  if (path.startsWith('/assets/')) return '/assets';
  if (!path.startsWith('/api/') && !path.startsWith('/auth/')) return 'page';
  return 'other';
}

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics(opts: { process?: boolean } = {}) {
  const registry = new Registry();
  // The process's own (CPU, memory, event loop lag, handles): one set a process, so only the server's entry asks.
  if (opts.process) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const requests = new Counter({
    name: 'dashboard_http_requests_total',
    help: 'Requests answered, by route, method and status.',
    labelNames: ['route', 'method', 'status'],
    registers,
  });
  const latency = new Histogram({
    name: 'dashboard_http_request_duration_seconds',
    help: 'Time to answer, by route.',
    labelNames: ['route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const upstream = new Counter({
    name: 'dashboard_upstream_requests_total',
    help: 'Requests to the service, by endpoint and status ("unanswered" when it gave no answer: timeout, unreachable).',
    labelNames: ['endpoint', 'status'],
    registers,
  });
  const retries = new Counter({
    name: 'dashboard_upstream_retries_total',
    help: 'Requests to the service that were retries of an answer it refused (429, 502, 503, 504), by endpoint.',
    labelNames: ['endpoint'],
    registers,
  });
  /** Each request's target is asked again (the same object) on a retry: by that, a retry is told apart. */
  const asked = new WeakSet<object>();
  let routes: (path: string) => string | undefined = () => undefined;

  return {
    registry,
    /** The route table's labels (the router's `labelOf`). */
    labelRoutes(labelOf: (path: string) => string | undefined) {
      routes = labelOf;
    },
    /** Counts a request once its answer is written or its client gone (probes and metrics scrapes too). */
    observe(req: IncomingMessage, res: ServerResponse) {
      const started = performance.now();
      res.on('close', () => {
        const route = routeOf((req.url ?? '/').split('?', 1)[0]!, routes);
        requests.inc({ route, method: req.method ?? 'GET', status: String(res.statusCode) });
        latency.observe({ route }, (performance.now() - started) / 1000);
      });
    },
    /** One answer of the service (or this server's own for it, `local`: no answer came). */
    upstream(target: object, endpoint: string, answer: { status: number; local?: boolean }) {
      if (asked.has(target)) retries.inc({ endpoint });
      asked.add(target);
      upstream.inc({ endpoint, status: answer.local ? 'unanswered' : String(answer.status) });
    },
    /** A gauge whose values are read at each scrape. */
    gauge(
      name: string,
      help: string,
      labelNames: string[],
      read: (set: (labels: Record<string, string>, v: number) => void) => Promise<void>,
    ) {
      new Gauge({
        name,
        help,
        labelNames,
        registers,
        // A source that cannot be read (a store gone away) leaves the gauge empty: the scrape still answers.
        async collect() {
          this.reset();
          await read((labels, v) => this.set(labels, v)).catch(() => undefined);
        },
      });
    },
  };
}
