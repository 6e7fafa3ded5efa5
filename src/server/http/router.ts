/**
 * The route table of every `/api/…` endpoint: the dashboard's own and the service's documented paths
 * (src/server/service). Each route declares its method and path, its query (one parser, http/query.ts),
 * who may call it when sign-in is on (a rule of auth/access.ts, applied by the sign-in gate before the
 * route runs), its handler, and how an answer is shaped to its reader (`shape`); the router answers what
 * every route shares the same way: 404 for no such path, 405 with the methods allowed, 400 for a bad
 * query, the error answers of a refusal, of the service failing a fill, or of an unexpected fault, the
 * reader's pseudonymized emails (PSEUDONYMIZE=1), and one writer for them all (core/response.ts's `reply`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccessRule, ViewScope } from '../auth/access';
import { scopeOf } from '../auth/access';
import { AnswerError, errorResponse, faultResponse, HttpError, peerInContext } from '../core/errors';
import { peerOf } from '../core/forwarded';
import { answerCache, type KeptAnswer, type SizedCache } from '../core/cache';
import type { Logger } from '../core/log';
import { keepCompressed, reply, type Answer, type HttpResponse, type StreamedResponse } from '../core/response';
import { FillFailed } from '../sync/engine';
import type * as z from 'zod/mini';
import { queryParser, type ParsedQuery, type QueryContext, type QueryParameter, type QueryParser } from './query';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteContext<Q> {
  req: IncomingMessage;
  query: ParsedQuery<Q>;
  /** The path's captures, for a route whose path is a pattern. */
  match: readonly string[];
  /** What a signed-in reader's answer may show; undefined without sign-in. */
  scope: ViewScope | undefined;
}

/** A route's success: its JSON's schema (a 200), another status (with a body's schema, or none), or a file's media types. */
export type Success =
  z.core.$ZodType | { status: number; schema?: z.core.$ZodType } | { file: string | readonly string[] };

export interface RouteSpec<Q> {
  /** GET answers HEAD too. */
  method: Method;
  path: string | RegExp;
  /** A pattern's label in the metrics, its captures named (`/api/users/:id`); a path is its own. */
  label?: string;
  query?: QueryParser<Q>;
  /** Who may call it when sign-in is on (auth/access.ts). */
  access: AccessRule;
  /** What it computes, for the sentence of an unexpected failure ("compute …"). */
  what: string;
  /**
   * Whether its answers are kept while the data they come from stay the same (the router's `version`): a
   * GET whose answer depends only on its path, its query, the reader's scope and that version.
   */
  memo?: boolean;
  /**
   * What a success answers (its JSON's schema, from src/api; or the media type of a file it sends) and what a
   * change takes as its body: the OpenAPI document (http/openapi.ts) is made from them.
   */
  response?: Success;
  /** `none`: a change that takes no body (an acknowledgement). */
  body?: z.core.$ZodType | 'none';
  handle: (ctx: RouteContext<Q>) => Promise<Answer>;
  /**
   * The answer as this reader may see it, applied to every answer the route gives (kept ones too): what is
   * shown of it is decided from the answer itself, never from what the request asked for.
   */
  shape?: (answer: HttpResponse, scope: ViewScope | undefined) => HttpResponse;
}

/** A route with its query's type erased: the table holds routes of every kind. */
export interface Route extends Omit<RouteSpec<unknown>, 'query' | 'handle'> {
  /** The query parameters it takes (its parser's). */
  parameters: QueryParameter[];
  /** `ctx` is read when the query is parsed: after whatever a wrapper of `run` waited for (the mapping at start). */
  run: (req: IncomingMessage, match: readonly string[], ctx: () => QueryContext) => Promise<Answer>;
}

const NO_QUERY = queryParser({});

/** A route of the table; a pattern's route names its label in the metrics. */
export function route<Q = Record<never, never>>(spec: RouteSpec<Q> & { path: string }): Route;
export function route<Q = Record<never, never>>(spec: RouteSpec<Q> & { path: RegExp; label: string }): Route;
export function route<Q = Record<never, never>>(spec: RouteSpec<Q>): Route {
  const { query: parser = NO_QUERY as QueryParser<Q>, handle, ...declared } = spec;
  return {
    ...declared,
    parameters: parser.parameters ?? [],
    run: async (req, match, ctx) => {
      const url = new URL(req.url ?? '/', 'http://dashboard.invalid');
      const query = parser(url.searchParams, ctx());
      if (!query.ok) return errorResponse(400, query.detail);
      return handle({ req, query: query.value, match, scope: scopeOf(req) });
    },
  };
}

/** A path's capture, decoded; a bad percent-encoding is the reader's 400 (`detail`), not a fault. */
export function decodedParam(match: readonly string[], detail: string): string {
  try {
    return decodeURIComponent(match[0]!);
  } catch {
    throw new HttpError(400, detail);
  }
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * Whether a request comes from the machine the dashboard runs on: from loopback with no header a proxy adds when
 * it relays a request (a proxy on this machine relays readers from anywhere), or, behind a proxy TRUST_PROXY
 * trusts, one whose client the proxy says is on loopback (core/forwarded.ts).
 */
export function fromThisMachine(req: IncomingMessage): boolean {
  const peer = peerInContext() ?? peerOf(req, undefined);
  return LOOPBACK.test(peer.address) && !peer.hidden;
}

/**
 * Who may change what the dashboard keeps (the mapping, the budgets, marks, alert rules): with sign-in, whom the
 * gate lets through (each route's rule); without it, only a reader on the machine the dashboard runs on, else a
 * 403 saying `what` can be changed only from there, and how to change it `elsewhere`. That a change comes from
 * the dashboard's own pages, not another site's, the server checks before any route, for every request that
 * changes something (`originAllowed`, src/server/core/hosts.ts): its Origin against the names the server
 * answers for, never against the request's own Host, which a rebinding page sets too.
 */
export function requireEditor(req: IncomingMessage, signIn: boolean, what: string, elsewhere: string): void {
  if (!signIn && !fromThisMachine(req))
    throw new HttpError(
      403,
      `Until sign-in is configured, ${what} can be changed only from the machine the dashboard runs on; ${elsewhere}.`,
    );
}

/** What went wrong filling a range from the service, for the reader. */
function fillFailure(e: FillFailed, what: string): HttpResponse {
  if (e.answer.status !== 200) return e.answer;
  return errorResponse(
    502,
    `The service answered with data that could not be stored, so ${what} could not be computed.`,
  );
}

export interface Router {
  /** Whether the path is one of the table's (whatever the method). */
  owns(path: string): boolean;
  /** The metrics label of the path's route (see `RouteSpec.label`); undefined when it is none of the table's. */
  labelOf(path: string): string | undefined;
  /** The rule of the route a request would reach; undefined when none would (its 404 or 405 follows). */
  ruleFor(method: string, path: string): AccessRule | undefined;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export interface RouterOptions {
  logger: Logger;
  context: () => QueryContext;
  /** The version of the data the `memo` routes' answers come from; without it nothing is kept. */
  version?: () => Promise<string>;
  /** The server's one cache of answers (core/cache.ts); a cache of its own by default. */
  cache?: SizedCache<KeptAnswer>;
  /** Whether sign-in is on: then a request the gate did not give a reader's scope is refused, whatever its path. */
  signIn?: boolean;
}

/** PSEUDONYMIZE=1: the answer with every email replaced, a streamed one piece by piece (a row never spans two). */
function pseudonymized(a: Answer, rewrite: (text: string) => string): Answer {
  if ('write' in a || ('pieces' in a && a.pseudonymized)) return a;
  if ('pieces' in a) {
    const pieces = a.pieces;
    return {
      ...a,
      pieces: (async function* () {
        for await (const piece of pieces) {
          // Bytes cannot be rewritten here: a route streaming them applies the rewrite itself, and says so.
          if (typeof piece !== 'string') throw new Error('a streamed answer of bytes is not pseudonymized');
          yield rewrite(piece);
        }
      })(),
    } satisfies StreamedResponse;
  }
  const body = rewrite(a.body);
  // The tag names the answer as it was made.
  return body === a.body ? a : { status: a.status, headers: a.headers, body };
}

export function createRouter(routes: readonly Route[], opts: RouterOptions): Router {
  /**
   * Answers of `memo` routes, each with the data version it was computed at. A reader asking again while the
   * version holds gets the same answer without the work; a change (a day stored again, a budget, the mapping,
   * the price list, the latest day) makes every kept answer stale at once.
   */
  const memo = opts.cache ?? answerCache();
  /** Changes made through the table (a mapping or budgets saved here): kept answers are stale after each. */
  let writes = 0;
  const versionOf = async () => `${writes}|${await opts.version!()}`;
  // Every request looks its path up (and the metrics label it): a path's routes by a map, the patterns in order.
  const byPath = new Map<string, { r: Route; match: string[] }[]>();
  for (const r of routes)
    if (typeof r.path === 'string') byPath.set(r.path, [...(byPath.get(r.path) ?? []), { r, match: [] }]);
  const patterns = routes.filter((r) => typeof r.path !== 'string');
  const find = (path: string) => {
    const named = byPath.get(path) ?? [];
    const matched = patterns.flatMap((r) => {
      const m = (r.path as RegExp).exec(path);
      return m ? [{ r, match: m.slice(1) }] : [];
    });
    return matched.length === 0 ? named : [...named, ...matched];
  };
  const pick = (method: string, path: string) =>
    find(path).find(({ r }) => r.method === method || (method === 'HEAD' && r.method === 'GET'));

  return {
    owns: (path) => find(path).length > 0,
    labelOf: (path) => {
      const r = find(path)[0]?.r;
      return r && (typeof r.path === 'string' ? r.path : (r.label ?? 'other'));
    },
    ruleFor: (method, path) => pick(method, path)?.r.access,
    async handle(req, res) {
      // The path as the sign-in gate decided on it (dot segments resolved): the rule and the route are one.
      const path = new URL(req.url ?? '/', 'http://dashboard.invalid').pathname;
      const method = req.method ?? 'GET';
      const found = pick(method, path);
      const scope = scopeOf(req);
      let answer: Answer;
      if (opts.signIn && !scope) {
        // Only the gate gives a reader's scope: a request that reached a route without one passed it by mistake.
        answer = errorResponse(401, 'Sign in first: open the dashboard to be sent to the sign-in page.');
      } else if (!found) {
        const allowed = [
          ...new Set(find(path).flatMap(({ r }) => (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method]))),
        ];
        answer =
          allowed.length === 0
            ? errorResponse(404, 'No such endpoint.')
            : errorResponse(405, `Method ${method} is not allowed here.`, { allow: allowed.join(', ') });
      } else {
        try {
          const kept = found.r.memo && opts.version !== undefined && (method === 'GET' || method === 'HEAD');
          if (kept) {
            const key = `route ${req.url ?? ''} ${scopeOf(req)?.key ?? ''}`;
            const version = await versionOf();
            const held = memo.get(key);
            const hit = held?.stamp === version ? held.answer : undefined;
            answer = hit ?? (await found.r.run(req, found.match, opts.context));
            // Kept only when nothing changed while it was computed (else it may mix the two versions).
            if (!hit && answer.status === 200 && 'body' in answer && (await versionOf()) === version) {
              memo.set(key, { answer, stamp: version, until: Infinity, size: answer.body.length });
              // Compressed once, in zlib's threads, for the readers who ask again.
              void keepCompressed(answer);
            }
          } else {
            answer = await found.r.run(req, found.match, opts.context);
            if (method !== 'GET' && method !== 'HEAD' && answer.status < 400) writes++;
          }
        } catch (e) {
          answer =
            e instanceof HttpError
              ? errorResponse(e.status, e.detail, e.headers)
              : e instanceof AnswerError
                ? e.answer
                : e instanceof FillFailed
                  ? fillFailure(e, found.r.what)
                  : faultResponse(e, opts.logger, `compute ${found.r.what}`);
        }
      }
      // Each reader's answer shaped from the answer as made (or kept), then emails rewritten: rows are chosen by real ones.
      if (found?.r.shape && 'body' in answer) {
        try {
          answer = found.r.shape(answer, scope);
        } catch (e) {
          answer = faultResponse(e, opts.logger, `compute ${found.r.what}`);
        }
      }
      if (scope?.pseudonymize) answer = pseudonymized(answer, scope.pseudonymize);
      try {
        await reply(req, res, answer);
      } catch (e) {
        // A reader who went away is owed nothing, and it is no fault.
        if ((e as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
        const failed = faultResponse(e, opts.logger, `compute ${found?.r.what ?? 'the answer'}`);
        // A streamed answer that failed midway can only be cut short: the reader sees it incomplete, the log says why.
        if (res.headersSent) res.destroy();
        else await reply(req, res, failed);
      }
    },
  };
}
