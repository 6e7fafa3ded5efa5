/** Error answers in the service's shape (title, detail, status, requestId), so the browser reads every error one way. */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { STATUS_TITLES } from '../../api/errors';
import type { Peer } from './forwarded';
import { json, type HttpResponse } from './response';
import { errorText } from './log';

/** The request being answered: the id a proxy in front sent, or one made when first needed; who sent it. */
const current = new AsyncLocalStorage<{ id: string | undefined; peer: Peer }>();

/** An incoming `X-Request-Id` worth keeping: 1 to 128 of letters, digits and `._:-`. */
const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Runs `fn` as the answer to one request. Its id is the one a proxy in front sent (`X-Request-Id`, when it is
 * a valid one), else one made the first time something needs it (an error, a request to the service); from
 * then on every error answer, log line and request to the service made meanwhile carries it, so one id follows
 * the request through every hop. A request that needs none costs no id.
 */
export function withRequest<T>(incoming: string | string[] | undefined, peer: Peer, fn: () => T): T {
  const id = typeof incoming === 'string' && VALID_ID.test(incoming) ? incoming : undefined;
  return current.run({ id, peer }, fn);
}

/** Who sent the request being answered (core/forwarded.ts), if one is. */
export const peerInContext = (): Peer | undefined => current.getStore()?.peer;

/** The id a proxy in front sent with the request being answered, if any. */
export const incomingRequestId = (): string | undefined => current.getStore()?.id;

/** Within a request, its id (made now if it has none yet); outside one (the sync), undefined. */
export function requestIdInContext(): string | undefined {
  const ctx = current.getStore();
  return ctx && (ctx.id ??= freshRequestId());
}

/** The request's id within a request, else a new one. */
export const newRequestId = (): string => requestIdInContext() ?? freshRequestId();

/** `req_` and 26 Crockford base-32 characters, like the service's request ids. */
function freshRequestId(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const bytes = randomBytes(26);
  let s = 'req_';
  for (const b of bytes) s += alphabet[b & 31];
  return s;
}

export function errorResponse(status: number, detail: string, headers: Record<string, string> = {}): HttpResponse {
  const requestId = newRequestId();
  const body = { title: STATUS_TITLES[status] ?? 'Error', detail, status, requestId };
  return json(status, body, { 'x-request-id': requestId, ...headers });
}

/** Thrown deep inside a handler to answer with an error; the handler's caller turns it into `errorResponse`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

/** Thrown with an answer made already (the service's own error, when a walk of it failed). */
export class AnswerError extends Error {
  constructor(readonly answer: HttpResponse) {
    super(`answered ${answer.status}`);
  }
}

/**
 * What a fault means for the reader, told apart by the error's code (SQLite's, PostgreSQL's, Node's) or, DuckDB's
 * having none, its words.
 */
export type FaultKind = 'disk-full' | 'store-unavailable' | 'internal';

const DISK_FULL = new Set(['SQLITE_FULL', 'ENOSPC', '53100']);
/** DuckDB's errors carry no code: a full disk is its IO Error's words, the system's own (`strerror(ENOSPC)`). */
const DISK_FULL_TEXT = /no space left on device/i;
/** PostgreSQL's shutdown and connection classes, and a socket that went away under a client. */
const STORE_GONE = /^(57P0[1-3]|08\d{3}|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN)$/;

/** The error and those it wraps: an AggregateError's first (a connect that tried several addresses), a cause. */
function chainOf(e: unknown): { code?: unknown; message?: unknown }[] {
  const chain: { code?: unknown; message?: unknown }[] = [];
  for (let x: unknown = e, depth = 0; x && typeof x === 'object' && depth < 5; depth++) {
    chain.push(x);
    x = (x as { cause?: unknown }).cause ?? (x as { errors?: unknown[] }).errors?.[0];
  }
  return chain;
}

const codesOf = (e: unknown): string[] => chainOf(e).flatMap(({ code }) => (typeof code === 'string' ? [code] : []));

export function faultKind(e: unknown): FaultKind {
  const codes = codesOf(e);
  if (
    codes.some((c) => DISK_FULL.has(c)) ||
    chainOf(e).some(({ message }) => typeof message === 'string' && DISK_FULL_TEXT.test(message))
  )
    return 'disk-full';
  const message = e instanceof Error ? e.message : '';
  if (
    codes.some((c) => STORE_GONE.test(c)) ||
    /Connection terminated|connection .*(closed|ended)|not queryable/i.test(message)
  )
    return 'store-unavailable';
  return 'internal';
}

/**
 * The answer to an unexpected failure while `doing` something: the reason goes to the log with a request id,
 * the reader gets that id and a plain sentence, never the internal text. A full disk and a store that cannot
 * be reached are said as such (507, 503 with Retry-After); a refusal (HttpError) is answered as it says.
 */
export function faultResponse(
  e: unknown,
  logger: { error(msg: string, f?: Record<string, unknown>): void },
  doing: string,
): HttpResponse {
  if (e instanceof HttpError) return errorResponse(e.status, e.detail, e.headers);
  const kind = faultKind(e);
  const r =
    kind === 'disk-full'
      ? errorResponse(
          507,
          `The store's disk is full, so the dashboard could not ${doing}. Nothing stored was lost; free some space and try again.`,
        )
      : kind === 'store-unavailable'
        ? errorResponse(
            503,
            `The store cannot be reached just now, so the dashboard could not ${doing}. It reconnects by itself; try again shortly.`,
            { 'retry-after': '5' },
          )
        : errorResponse(500, `The dashboard server failed to ${doing}. The request id is in its log with the reason.`);
  logger.error(`failed to ${doing}`, {
    kind,
    requestId: r.headers['x-request-id'],
    error: errorText(e),
    code: codesOf(e)[0],
  });
  return r;
}
