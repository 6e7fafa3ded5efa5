/**
 * The service's documented paths (service-interface.md §4) as routes of the table: each with its declared
 * query (an unknown, repeated or malformed parameter is the documented 400 before anything is forwarded), its
 * access rule, and its `shape`, which limits every answer to the rows of people its reader may see. An answer
 * comes from the store when it can answer faithfully (sync/serve.ts), else from the service, asked the
 * documented path and nothing else.
 */
import type { IncomingMessage } from 'node:http';
import * as z from 'zod/mini';
import { GROUP_BY, PATHS } from '../../api/paths';
import {
  activityByClientResponseSchema,
  activityResponseSchema,
  productivityResponseSchema,
  readinessResponseSchema,
  tokensByModelResponseSchema,
  tokensResponseSchema,
  toolsByNameResponseSchema,
  toolsResponseSchema,
  usersResponseSchema,
} from '../../api/schemas';
import { ACCESS, canonicalEmail, type ViewScope } from '../auth/access';
import { errorResponse, HttpError } from '../core/errors';
import type { Answer, HttpResponse } from '../core/response';
import { route, type Route } from '../http/router';
import { queryParser, quote } from '../http/query';
import { ask, type Origin } from '../upstream/proxy';

export interface ServiceRoutesOptions<R extends HttpResponse> {
  origin: Origin<R>;
  /** The server's key (it replaces a browser's); without one, each reader's own bearer key is passed on. */
  apiKey: string | undefined;
  retries: number;
  /** The store's answer to a documented GET, or null for the service to answer (sync/serve.ts); none without a store. */
  fromStore?: (path: string, search: string) => Promise<HttpResponse | null>;
  /** The answer as it goes to the reader (the demo's transport faults are written by the demo's writer). */
  toAnswer?: (r: R | HttpResponse) => Answer;
}

/** An optional parameter of the service's that takes only `values`. */
const onlyOf = (name: string, values: readonly [string, ...string[]]) =>
  z.optional(
    z.enum(values, {
      error: (iss) => `Invalid request parameters: ${name} must be ${values.join(' or ')}, got ${quote(iss.input)}.`,
    }),
  );

/** An optional whole number from 1 to `max`, as the service takes it. */
const positive = (name: string, max?: number) => {
  const error = (iss: { input?: unknown }) =>
    `${name} must be ${max ? `an integer from 1 to ${max}` : 'a positive integer'}, got ${quote(iss.input)}.`;
  return z.optional(
    z.string().check(
      z.regex(/^\d{1,9}$/, { error }),
      z.refine((v) => Number(v) >= 1 && Number(v) <= (max ?? Infinity), { error }),
    ),
  );
};

/** Free text the service takes back from its own answers (a cursor, a repository, a report id). */
const token = (name: string) =>
  z.optional(z.string().check(z.maxLength(512, { error: `${name} must be at most 512 characters long.` })));

const days = (shape: Record<string, z.ZodMiniType<string | undefined>> = {}) =>
  queryParser({ range: 'required', names: ['startDate', 'endDate'], shape });

/** What each path answers, as the service documents it (grouped or by day). */
const SERVICE_ANSWERS: Record<string, z.core.$ZodType> = {
  [PATHS.tokens]: z.union([tokensResponseSchema, tokensByModelResponseSchema]),
  [PATHS.tools]: z.union([toolsResponseSchema, toolsByNameResponseSchema]),
  [PATHS.activity]: z.union([activityResponseSchema, activityByClientResponseSchema]),
  [PATHS.productivity]: productivityResponseSchema,
  [PATHS.users]: usersResponseSchema,
  [PATHS.readiness]: readinessResponseSchema,
};

const QUERIES = {
  [PATHS.tokens]: days({ group_by: onlyOf('group_by', [GROUP_BY[PATHS.tokens]!]) }),
  [PATHS.tools]: days({ group_by: onlyOf('group_by', [GROUP_BY[PATHS.tools]!]) }),
  [PATHS.activity]: days({ group_by: onlyOf('group_by', [GROUP_BY[PATHS.activity]!]) }),
  [PATHS.productivity]: days(),
  [PATHS.users]: days({ limit: positive('limit', 100), cursor: token('cursor') }),
  [PATHS.readiness]: queryParser({
    shape: { repoId: token('repoId'), limit: positive('limit'), startAfter: token('startAfter') },
  }),
};

/** An object naming a person, as far as the shape reads it. */
interface Person {
  user_id?: unknown;
  user_email?: unknown;
}

const isPerson = (v: unknown): v is Person =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && ('user_id' in v || 'user_email' in v);

/**
 * An analytics answer as a reader who is not an admin may see it. Whatever the request asked for, and whatever
 * the service chose to send back (a lenient service ignores a grouping it does not know and sends everyone's
 * split): every object naming a person (`user_id` or `user_email`), at any depth, is kept only if it is one of the
 * reader's people (in privacy mode, only the reader themself: a manager's people in a range may be fewer than k,
 * and the table pages apply those rules), and a `/users` cursor is sealed. Aggregates stay as they are. A success
 * that is not the documented envelope is refused: what it holds cannot be told apart.
 */
export function shapeAnalytics(answer: HttpResponse, scope: ViewScope | undefined): HttpResponse {
  const rows = scope?.rows;
  if (!rows || answer.status < 200 || answer.status >= 300) return answer;
  const refused = (why: string) =>
    errorResponse(502, `The service’s answer ${why}, so it could not be limited to the people you may see.`);
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return refused('was not valid JSON');
  }
  if (
    typeof body !== 'object' ||
    body === null ||
    Array.isArray(body) ||
    !Array.isArray((body as { data?: unknown }).data)
  )
    return refused('was not the documented envelope');
  const own = (p: Person) => typeof p.user_email === 'string' && canonicalEmail(p.user_email) === scope.email;
  const sees = (p: Person) =>
    scope.privacy ? own(p) : rows.sees(String(p.user_id ?? ''), typeof p.user_email === 'string' ? p.user_email : null);
  /** The value with every person the reader may not see taken out of the lists that hold them (else left null). */
  const limit = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.filter((x) => !isPerson(x) || sees(x)).map(limit);
    if (typeof v !== 'object' || v === null) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, isPerson(x) && !sees(x) ? null : limit(x)]));
  };
  const { data, meta, ...rest } = body as { data: unknown[]; meta?: Record<string, unknown> };
  const next = meta?.next_cursor;
  const sealed = typeof next === 'string' ? { ...meta, next_cursor: rows.seal(next) } : meta;
  const shaped = { ...(limit(rest) as object), data: limit(data), meta: sealed };
  return { status: answer.status, headers: answer.headers, body: JSON.stringify(shaped) };
}

/** The server's key when it has one (the browser's is dropped), else the browser's own bearer key. */
function authorizationFor(req: IncomingMessage, apiKey: string | undefined): string | undefined {
  if (apiKey) return `Bearer ${apiKey}`;
  const fromBrowser = req.headers.authorization;
  return fromBrowser && /^Bearer \S+$/.test(fromBrowser) ? fromBrowser : undefined;
}

export function createServiceRoutes<R extends HttpResponse>(o: ServiceRoutesOptions<R>): Route[] {
  const toAnswer = o.toAnswer ?? ((r: R | HttpResponse): Answer => r);

  /** The query to pass on: as sent, but a reader's sealed `/users` cursor opened again. */
  function searchOf(req: IncomingMessage, path: string, scope: ViewScope | undefined): string {
    const url = new URL(req.url ?? '/', 'http://dashboard.invalid');
    const sealed = url.searchParams.get('cursor');
    if (path !== PATHS.users || !scope?.rows || sealed === null) return url.search;
    const cursor = scope.rows.open(sealed);
    if (cursor === null) throw new HttpError(400, 'Invalid cursor: pass meta.next_cursor of the previous page.');
    url.searchParams.set('cursor', cursor);
    return url.search;
  }

  return Object.entries(QUERIES).map(([path, query]) =>
    route({
      method: 'GET',
      path,
      query: query as ReturnType<typeof queryParser>,
      access: path === PATHS.users ? ACCESS.serviceUsers : ACCESS.serviceOrg,
      what: `the answer of ${path}`,
      response: SERVICE_ANSWERS[path]!,
      ...(path !== PATHS.readiness && { shape: shapeAnalytics }),
      async handle({ req, scope }) {
        const search = searchOf(req, path, scope);
        // The store holds the server key's answers: a request carrying a key of its own (the demo without
        // API_KEY accepts one) is the service's to answer, with that key's rights.
        const ownKey = !o.apiKey && req.headers.authorization !== undefined;
        const stored = o.fromStore && !ownKey ? await o.fromStore(path, search) : null;
        const target = { method: 'GET', path, search, authorization: authorizationFor(req, o.apiKey) };
        // A failed fill relays the service's own answer, as the service gave it.
        const answer = stored ?? (await ask(o.origin, target, o.retries));
        // A reader whose rows are limited gets the answer whole, shaped: never a demo's body cut off mid-row.
        return scope?.rows ? answer : toAnswer(answer);
      },
    }),
  );
}
