/**
 * Fetch client for the service: builds query strings, sends the request with
 * an abort signal, parses the body with a schema, and turns every failure into
 * an ApiError. Framework-free: the SPA and tests use it alike.
 */
import type * as z from 'zod/mini';
import { ApiError, NETWORK_ERROR, STATUS_TITLES, describeZodError, parseRetryAfter } from './errors';
import { errorBodySchema } from './schemas';

export type QueryValue = string | number | undefined | null;
export type Query = Record<string, QueryValue>;

export interface ClientOptions {
  /** Origin and prefix to put before paths; '' for same-origin relative paths. */
  baseUrl?: string;
  /** The value of the Authorization header, when the browser holds the key. */
  authorization?: () => string | undefined;
  fetch?: typeof fetch;
}

export function buildQuery(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** A query whose values may be lists: `{ team: ['A', 'B'] }` asks `team=A&team=B`. */
export type ListQuery = Record<string, QueryValue | readonly string[]>;

/** The query string of a list query (with its `?`), leaving out empty values as `api.get` does. */
export function listQueryString(query: ListQuery): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (typeof v === 'object' && v !== null) for (const x of v) params.append(k, x);
    else if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

export function createClient(opts: ClientOptions = {}) {
  const base = opts.baseUrl ?? '';
  const doFetch = opts.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));

  async function get<S extends z.ZodMiniType>(
    path: string,
    schema: S,
    query?: Query,
    signal?: AbortSignal,
  ): Promise<z.infer<S>> {
    const endpoint = path;
    const headers: Record<string, string> = { Accept: 'application/json' };
    const auth = opts.authorization?.();
    if (auth) headers.Authorization = auth;

    let res: Response;
    try {
      res = await doFetch(`${base}${path}${buildQuery(query)}`, { headers, signal });
    } catch (e) {
      if (signal?.aborted) throw e;
      throw new ApiError({
        status: NETWORK_ERROR,
        title: 'Network error',
        detail: `Could not reach the dashboard server (${e instanceof Error ? e.message : String(e)}).`,
        endpoint,
      });
    }

    const requestIdHeader = res.headers.get('x-request-id') ?? undefined;
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      if (signal?.aborted) throw e;
      throw new ApiError({
        status: res.ok ? NETWORK_ERROR : res.status,
        title: 'Incomplete response',
        detail: `The response of ${endpoint} was cut off before it ended.`,
        endpoint,
        requestId: requestIdHeader,
      });
    }
    let body: unknown = undefined;
    let jsonOk = true;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      jsonOk = false;
    }

    if (!res.ok) {
      const parsed = jsonOk ? errorBodySchema.safeParse(body) : null;
      const eb = parsed?.success ? parsed.data : {};
      throw new ApiError({
        status: res.status,
        title: eb.title || STATUS_TITLES[res.status] || res.statusText || 'Error',
        detail:
          eb.detail ||
          (jsonOk
            ? `The service answered ${res.status} without an explanation.`
            : `The service answered ${res.status} with a non-JSON body (${snippet(text)}).`),
        endpoint,
        requestId: eb.requestId ?? requestIdHeader,
        retryAfter: parseRetryAfter(res.headers.get('retry-after')),
      });
    }
    if (!jsonOk) {
      throw new ApiError({
        status: res.status,
        title: 'Malformed response',
        detail: `${endpoint} did not return valid JSON (${snippet(text)}).`,
        endpoint,
        requestId: requestIdHeader,
      });
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new ApiError({
        status: res.status,
        title: 'Unexpected response',
        detail: `${endpoint} returned data of an unexpected shape: ${describeZodError(parsed.error)}.`,
        endpoint,
        requestId: requestIdHeader,
      });
    }
    return parsed.data;
  }

  return { get };
}

function snippet(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (!t) return 'empty body';
  return `starts with “${t.length > 60 ? `${t.slice(0, 60)}…` : t}”`;
}

export type ApiClient = ReturnType<typeof createClient>;
