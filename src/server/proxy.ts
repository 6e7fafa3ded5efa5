/**
 * Forwards the documented GET paths, and nothing else, to the configured
 * upstream or to the embedded demo service.
 */
import type { IncomingMessage } from 'node:http';
import { ANALYTICS_PATHS, DOCUMENTED_PATHS } from '../api/paths';
import type { ServerConfig } from './config';
import { parseRetryAfter } from '../api/errors';
import { errorResponse, type DemoResponse, type DemoService } from './demo/service';

/** Response headers of the upstream that the browser may see. */
const PASS_HEADERS = ['content-type', 'retry-after', 'x-request-id'];
const MAX_REDIRECTS = 3;

/**
 * The documented path a raw request target names, or null. Anything encoded,
 * doubled or dotted is refused rather than normalised: a proxy that cleans up
 * paths can be talked into forwarding what it should not.
 */
export function documentedPath(rawUrl: string): string | null {
  const q = rawUrl.indexOf('?');
  const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  if (/%|\\|\/\/|\/\.\.?(\/|$)/.test(path)) return null;
  return DOCUMENTED_PATHS.includes(path) ? path : null;
}

export function isProxiedPrefix(rawUrl: string): boolean {
  return rawUrl.startsWith('/api/v1/') || rawUrl.startsWith('/api/organization/');
}

export interface ProxyDeps {
  config: ServerConfig;
  demo: DemoService | undefined;
  fetch?: typeof fetch;
  /** Caps concurrent upstream requests; shared by all requests of a server. */
  limiter?: Limiter;
}

/** A counting semaphore: at most `max` holders at once, the rest wait in order. */
export class Limiter {
  private active = 0;
  private queue: (() => void)[] = [];
  constructor(readonly max: number) {}
  async run<T>(f: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((r) => this.queue.push(r));
    this.active++;
    try {
      return await f();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const MAX_RETRY_WAIT_MS = 5_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Errors this server makes itself (timeouts, unreachable upstream) are not retried. */
type Answer = DemoResponse & { local?: boolean };

/**
 * How long to wait before retrying, or null not to retry: a Retry-After the
 * service sent is honoured (but not beyond 5 s: then its answer goes back to
 * the browser), otherwise exponential backoff with jitter.
 */
export function retryDelay(r: Answer, attempt: number, retries: number): number | null {
  if (r.local || !RETRY_STATUSES.has(r.status) || attempt >= retries) return null;
  const header = r.headers['retry-after'];
  if (header !== undefined) {
    const secs = parseRetryAfter(header);
    if (secs === undefined || secs * 1000 > MAX_RETRY_WAIT_MS) return null;
    return secs * 1000;
  }
  return Math.min(MAX_RETRY_WAIT_MS, 200 * 2 ** attempt + Math.random() * 100);
}

function authorizationFor(req: IncomingMessage, deps: ProxyDeps): string | undefined {
  if (deps.config.apiKey) return `Bearer ${deps.config.apiKey}`;
  const fromBrowser = req.headers.authorization;
  if (fromBrowser && /^Bearer \S+$/.test(fromBrowser)) return fromBrowser;
  return deps.demo ? 'Bearer demo-owner' : undefined;
}

export async function forward(req: IncomingMessage, deps: ProxyDeps): Promise<DemoResponse> {
  const checked = check(req);
  if ('status' in checked) return checked;
  const once = () => (deps.demo ? fromDemo(req, checked, deps) : fromUpstream(req, checked, deps));
  for (let attempt = 0; ; attempt++) {
    const r: Answer = await once();
    const wait = retryDelay(r, attempt, deps.config.upstreamRetries);
    if (wait === null) return r;
    await sleep(wait);
  }
}

interface Checked {
  path: string;
  search: string;
}

function check(req: IncomingMessage): Checked | DemoResponse {
  const rawUrl = req.url ?? '/';
  const path = documentedPath(rawUrl);
  if (!path) return errorResponse(404, 'Not a documented endpoint of the service.');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return errorResponse(405, `Method ${req.method} is not allowed; the service is read-only.`, { allow: 'GET, HEAD' });
  }
  return { path, search: rawUrl.slice(path.length) };
}

const timeoutAnswer = (ms: number): Answer => ({
  ...errorResponse(504, `The service did not answer within ${Math.round(ms / 100) / 10} s.`),
  local: true,
});

/** The embedded demo service, with its injected latency and hangs bounded by the same timeout as an upstream. */
async function fromDemo(req: IncomingMessage, { path, search }: Checked, deps: ProxyDeps): Promise<Answer> {
  const authorization = authorizationFor(req, deps);
  const r = deps.demo!.handle({
    method: req.method ?? 'GET',
    url: path + search,
    headers: authorization ? { authorization } : {},
  });
  const timeout = deps.config.upstreamTimeoutMs;
  if (r.fault === 'hang' || (r.delayMs ?? 0) >= timeout) {
    await sleep(timeout);
    return timeoutAnswer(timeout);
  }
  if (r.delayMs) await sleep(r.delayMs);
  return r;
}

async function fromUpstream(req: IncomingMessage, { path, search }: Checked, deps: ProxyDeps): Promise<Answer> {
  const authorization = authorizationFor(req, deps);
  const base = ANALYTICS_PATHS.includes(path) ? deps.config.analyticsBaseUrl : deps.config.readinessBaseUrl;
  if (!base) return { ...errorResponse(502, 'No upstream is configured for this endpoint.'), local: true };
  const doFetch = deps.fetch ?? fetch;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (authorization) headers.authorization = authorization;
  const run = async (): Promise<Answer> => {
    let target = new URL(base.href.replace(/\/$/, '') + path + search);
    try {
      for (let hop = 0; ; hop++) {
        const res = await doFetch(target, {
          method: req.method,
          headers,
          redirect: 'manual',
          signal: AbortSignal.timeout(deps.config.upstreamTimeoutMs),
        });
        const location = res.headers.get('location');
        if (res.status >= 300 && res.status < 400 && location) {
          const next = new URL(location, target);
          // Follow only within the same upstream origin, so the key never leaves it.
          if (next.origin !== base.origin || hop >= MAX_REDIRECTS) {
            return {
              ...errorResponse(502, 'The service redirected to another host; the redirect was not followed.'),
              local: true,
            };
          }
          target = next;
          continue;
        }
        const out: Record<string, string> = {};
        for (const h of PASS_HEADERS) {
          const v = res.headers.get(h);
          if (v) out[h] = v;
        }
        return { status: res.status, headers: out, body: await res.text() };
      }
    } catch (e) {
      if (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')) {
        return timeoutAnswer(deps.config.upstreamTimeoutMs);
      }
      return { ...errorResponse(502, 'The service could not be reached or its answer was cut off.'), local: true };
    }
  };
  return deps.limiter ? deps.limiter.run(run) : run();
}
