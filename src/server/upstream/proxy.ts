/**
 * How the server asks an origin (the real service, client.ts, or the embedded demo service) a documented GET
 * path: the routes of the service's paths (src/server/service) and the store's sync both ask through `ask`, so
 * both origins get the same retry policy.
 */
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One request to an origin under the retry policy: the server's own requests (the store's sync) go through it too. */
export async function ask<R extends HttpResponse>(origin: Origin<R>, target: OriginRequest, retries: number) {
  for (let attempt = 0; ; attempt++) {
    const r = await origin(target);
    const wait = retryDelay(r, attempt, retries);
    if (wait === null) return r;
    await sleep(wait);
  }
}
