/**
 * The real service over HTTP: the base URL per endpoint family, the timeout,
 * a cap on concurrent requests, redirects only within the same origin, and
 * only the response headers the browser may see.
 */
import { ANALYTICS_PATHS } from '../../api/paths';
import type { CoreConfig } from '../core/config';
import { proxyFor } from '../core/egress';
import { errorResponse, requestIdInContext } from '../core/errors';
import { timeoutAnswer, type Answer, type Origin } from './proxy';
import { Limiter } from './retry';

const PASS_HEADERS = ['content-type', 'retry-after', 'x-request-id'];
const MAX_REDIRECTS = 3;

export function httpOrigin(config: CoreConfig): Origin {
  // Shared by all requests of a server, so a burst of widgets cannot flood the service.
  const limiter = new Limiter(config.upstreamConcurrency);
  return async ({ method, path, search, authorization }) => {
    const base = ANALYTICS_PATHS.includes(path) ? config.analyticsBaseUrl : config.readinessBaseUrl;
    if (!base) return { ...errorResponse(502, 'No upstream is configured for this endpoint.'), local: true };
    const headers: Record<string, string> = { accept: 'application/json' };
    if (authorization) headers.authorization = authorization;
    // The id of the reader's request, so that the service's logs and ours name it alike.
    const requestId = requestIdInContext();
    if (requestId) headers['x-request-id'] = requestId;
    const run = async (): Promise<Answer> => {
      let target = new URL(base.href.replace(/\/$/, '') + path + search);
      try {
        for (let hop = 0; ; hop++) {
          const res = await fetch(target, {
            method,
            headers,
            redirect: 'manual',
            signal: AbortSignal.timeout(config.upstreamTimeoutMs),
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
          return timeoutAnswer(config.upstreamTimeoutMs);
        }
        // Through a proxy, it is the proxy that refused or could not be reached (or could not reach the service).
        const via = proxyFor(config.egress, target);
        const detail = via
          ? `The service could not be reached through the proxy ${via}: the proxy refused, could not be reached, or could not reach the service.`
          : 'The service could not be reached or its answer was cut off.';
        return { ...errorResponse(502, detail), local: true };
      }
    };
    return limiter.run(run);
  };
}
