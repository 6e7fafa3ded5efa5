/** Error answers in the service's shape (title, detail, status, requestId), so the browser reads every error one way. */
import { randomBytes } from 'node:crypto';
import { STATUS_TITLES } from '../../api/errors';
import type { HttpResponse } from './response';

/** `req_` and 26 Crockford base-32 characters, like the service's request ids. */
export function newRequestId(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const bytes = randomBytes(26);
  let s = 'req_';
  for (const b of bytes) s += alphabet[b & 31];
  return s;
}

export function errorResponse(status: number, detail: string, headers: Record<string, string> = {}): HttpResponse {
  const requestId = newRequestId();
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId, ...headers },
    body: JSON.stringify({ title: STATUS_TITLES[status] ?? 'Error', detail, status, requestId }),
  };
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
