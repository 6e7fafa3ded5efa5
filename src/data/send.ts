/**
 * Writes to the dashboard's server: the app's client (`data/client.ts`) only reads. A JSON body goes
 * out, every failure comes back as the one error type, `ApiError`, with the error body's title,
 * detail and request id; a refused mapping (400) carries each problem with its line.
 */
import * as z from 'zod/mini';
import { ApiError, NETWORK_ERROR, STATUS_TITLES, parseRetryAfter } from '../api/errors';
import { errorBodySchema } from '../api/schemas';
import { mappingRefusalSchema } from '../api/teams';
import { atBase } from './base';
import { getApiKey } from './client';

export type MappingProblem = z.infer<typeof mappingRefusalSchema>['errors'][number];

/** A 400 answer to a new mapping: nothing changed on the server, and here is why. */
export class MappingRefusedError extends ApiError {
  readonly problems: MappingProblem[];
  constructor(init: ConstructorParameters<typeof ApiError>[0], problems: MappingProblem[]) {
    super(init);
    this.name = 'MappingRefusedError';
    this.problems = problems;
  }
}

/** Sends `body` as JSON with `method`; resolves with the parsed answer (undefined when it has none). */
export async function sendJson(method: 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const key = getApiKey();
  if (key) headers.Authorization = `Bearer ${key}`;

  let res: Response;
  try {
    res = await fetch(atBase(path), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError({
      status: NETWORK_ERROR,
      title: 'Network error',
      detail: `Could not reach the dashboard server (${e instanceof Error ? e.message : String(e)}).`,
      endpoint: path,
    });
  }
  const requestIdHeader = res.headers.get('x-request-id') ?? undefined;
  let parsed: unknown = undefined;
  let jsonOk = true;
  try {
    const text = await res.text();
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    jsonOk = false;
  }
  if (res.ok) return parsed;

  const eb = (jsonOk && errorBodySchema.safeParse(parsed).data) || {};
  const init = {
    status: res.status,
    title: eb.title || STATUS_TITLES[res.status] || res.statusText || 'Error',
    detail: eb.detail || `The dashboard server answered ${res.status} without an explanation.`,
    endpoint: path,
    requestId: eb.requestId ?? requestIdHeader,
    retryAfter: parseRetryAfter(res.headers.get('retry-after')),
  };
  const refusal = res.status === 400 && jsonOk ? mappingRefusalSchema.safeParse(parsed) : undefined;
  if (refusal?.success) throw new MappingRefusedError(init, refusal.data.errors);
  throw new ApiError(init);
}
