import type * as z from 'zod/mini';

/** The one error type every request can throw. */
export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly requestId: string | undefined;
  readonly endpoint: string;
  /** Seconds to wait, from a `Retry-After` header, when the service sent one. */
  readonly retryAfter: number | undefined;

  constructor(init: {
    status: number;
    title: string;
    detail: string;
    endpoint: string;
    requestId?: string | undefined;
    retryAfter?: number | undefined;
  }) {
    super(`${init.status} ${init.title}: ${init.detail}`);
    this.name = 'ApiError';
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.endpoint = init.endpoint;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
  }
}

/** The status phrases the service and this dashboard use in error bodies. */
export const STATUS_TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  421: 'Misdirected Request',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  507: 'Insufficient Storage',
};

/** Status 0 marks failures that never got an HTTP answer or got an unreadable one. */
export const NETWORK_ERROR = 0;

/** "data[3].by_model[0].billable_tokens: expected number" */
export function describeZodError(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'the response did not match the expected shape';
  const path = issue.path.reduce<string>(
    (acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)),
    '',
  );
  // zod/mini ships no message locale: say what was expected from the issue itself.
  const what =
    issue.code === 'invalid_type'
      ? `expected ${issue.expected}`
      : issue.code === 'invalid_format' || issue.code === 'too_small'
        ? issue.message && issue.message !== 'Invalid input'
          ? issue.message
          : issue.code.replace('_', ' ')
        : issue.message || issue.code;
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return `${path || '(root)'}: ${what}${more}`;
}

/** Parses a `Retry-After` header (seconds or HTTP date) into seconds. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : Math.max(0, Math.ceil((t - now) / 1000));
}
