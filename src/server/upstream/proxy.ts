/**
 * Forwards the documented GET paths, and nothing else, to an origin: the real
 * service (client.ts) or the embedded demo service. Retries live here, so
 * both origins get the same policy.
 */
import type { IncomingMessage } from 'node:http';
import { DOCUMENTED_PATHS } from '../../api/paths';
import { errorResponse } from '../core/errors';
import type { HttpResponse } from '../core/response';
import { retryDelay } from './retry';

/** An answer, marked `local` when this server made it itself (timeouts, unreachable upstream): never retried. */
export type Answer<R extends HttpResponse = HttpResponse> = R & { local?: boolean };

export interface OriginRequest {
  method: string;
  /** A documented path, and the query exactly as the browser sent it. */
  path: string;
  search: string;
  authorization: string | undefined;
}

/** Where forwarded requests go; it must answer within the server's timeout, with `timeoutAnswer` if need be. */
export type Origin<R extends HttpResponse = HttpResponse> = (req: OriginRequest) => Promise<Answer<R>>;

export const timeoutAnswer = (ms: number): Answer => ({
  ...errorResponse(504, `The service did not answer within ${Math.round(ms / 100) / 10} s.`),
  local: true,
});

/**
 * The documented path a raw request target names, or null. Anything encoded,
 * doubled or dotted is refused rather than normalised: a proxy that cleans up
 * paths can be talked into forwarding what it should not.
 */
function documentedPath(rawUrl: string): string | null {
  const q = rawUrl.indexOf('?');
  const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  if (/%|\\|\/\/|\/\.\.?(\/|$)/.test(path)) return null;
  return DOCUMENTED_PATHS.includes(path) ? path : null;
}

export function isProxiedPrefix(rawUrl: string): boolean {
  return rawUrl.startsWith('/api/v1/') || rawUrl.startsWith('/api/organization/');
}

/** The server's key when it has one (the browser's is dropped), else the browser's own bearer key. */
function authorizationFor(req: IncomingMessage, apiKey: string | undefined): string | undefined {
  if (apiKey) return `Bearer ${apiKey}`;
  const fromBrowser = req.headers.authorization;
  return fromBrowser && /^Bearer \S+$/.test(fromBrowser) ? fromBrowser : undefined;
}

interface ProxyOptions<R extends HttpResponse> {
  origin: Origin<R>;
  apiKey: string | undefined;
  retries: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function forward<R extends HttpResponse>(
  req: IncomingMessage,
  { origin, apiKey, retries }: ProxyOptions<R>,
): Promise<R | HttpResponse> {
  const target = splitTarget(req.url ?? '/');
  if (!target) return errorResponse(404, 'Not a documented endpoint of the service.');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return errorResponse(405, `Method ${req.method} is not allowed; the service is read-only.`, { allow: 'GET, HEAD' });
  }
  return ask(origin, { method: req.method, ...target, authorization: authorizationFor(req, apiKey) }, retries);
}

/** One request to an origin under the retry policy: the server's own requests (the store's sync) go through it too. */
export async function ask<R extends HttpResponse>(origin: Origin<R>, target: OriginRequest, retries: number) {
  for (let attempt = 0; ; attempt++) {
    const r = await origin(target);
    const wait = retryDelay(r, attempt, retries);
    if (wait === null) return r;
    await sleep(wait);
  }
}

/** The documented path a request names (null when it names none), and its query string as sent. */
export function splitTarget(rawUrl: string): { path: string; search: string } | null {
  const path = documentedPath(rawUrl);
  return path ? { path, search: rawUrl.slice(path.length) } : null;
}
