/**
 * Forwards the documented GET paths, and nothing else, to the configured
 * upstream or to the embedded demo service.
 */
import type { IncomingMessage } from 'node:http';
import { ANALYTICS_PATHS, DOCUMENTED_PATHS } from '../api/paths';
import type { ServerConfig } from './config';
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
}

function authorizationFor(req: IncomingMessage, deps: ProxyDeps): string | undefined {
  if (deps.config.apiKey) return `Bearer ${deps.config.apiKey}`;
  const fromBrowser = req.headers.authorization;
  if (fromBrowser && /^Bearer \S+$/.test(fromBrowser)) return fromBrowser;
  return deps.demo ? 'Bearer demo-owner' : undefined;
}

export async function forward(req: IncomingMessage, deps: ProxyDeps): Promise<DemoResponse> {
  const rawUrl = req.url ?? '/';
  const path = documentedPath(rawUrl);
  if (!path) return errorResponse(404, 'Not a documented endpoint of the service.');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return errorResponse(405, `Method ${req.method} is not allowed; the service is read-only.`, { allow: 'GET, HEAD' });
  }
  const search = rawUrl.slice(path.length);
  const authorization = authorizationFor(req, deps);

  if (deps.demo) {
    return deps.demo.handle({
      method: req.method,
      url: path + search,
      headers: authorization ? { authorization } : {},
    });
  }

  const base = ANALYTICS_PATHS.includes(path) ? deps.config.analyticsBaseUrl : deps.config.readinessBaseUrl;
  if (!base) return errorResponse(502, 'No upstream is configured for this endpoint.');
  const doFetch = deps.fetch ?? fetch;
  let target = new URL(base.href.replace(/\/$/, '') + path + search);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (authorization) headers.authorization = authorization;
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
          return errorResponse(502, 'The service redirected to another host; the redirect was not followed.');
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
      return errorResponse(
        504,
        `The service did not answer within ${Math.round(deps.config.upstreamTimeoutMs / 1000)} s.`,
      );
    }
    return errorResponse(502, 'The service could not be reached.');
  }
}
