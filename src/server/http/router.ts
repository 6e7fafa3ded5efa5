/**
 * The route table of the dashboard's own endpoints (`/api/…` beyond the service's documented paths,
 * which the proxy and the store answer). Each route declares its method and path, its query (one
 * parser, http/query.ts), who may call it when sign-in is on (a rule of auth/access.ts, applied by the
 * sign-in gate before the route runs) and its handler; the router answers what every route shares the
 * same way: 404 for no such path, 405 with the methods allowed, 400 for a bad query, the error answers
 * of a refusal, of the service failing a fill, or of an unexpected fault, and one writer for them all
 * (core/response.ts's `reply`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccessRule, ViewScope } from '../auth/access';
import { scopeOf } from '../auth/access';
import { AnswerError, errorResponse, faultResponse, HttpError } from '../core/errors';
import type { Logger } from '../core/log';
import { reply, type Answer, type HttpResponse } from '../core/response';
import { FillFailed } from '../sync/engine';
import { queryParser, type ParsedQuery, type QueryContext, type QueryParser } from './query';

type Method = 'GET' | 'PUT' | 'DELETE';

export interface RouteContext<Q> {
  req: IncomingMessage;
  query: ParsedQuery<Q>;
  /** The path's captures, for a route whose path is a pattern. */
  match: readonly string[];
  /** What a signed-in reader's answer may show; undefined without sign-in. */
  scope: ViewScope | undefined;
}

export interface RouteSpec<Q> {
  /** GET answers HEAD too. */
  method: Method;
  path: string | RegExp;
  query?: QueryParser<Q>;
  /** Who may call it when sign-in is on (auth/access.ts). */
  access: AccessRule;
  /** What it computes, for the sentence of an unexpected failure ("compute …"). */
  what: string;
  handle: (ctx: RouteContext<Q>) => Promise<Answer>;
}

/** A route with its query's type erased: the table holds routes of every kind. */
export interface Route {
  method: Method;
  path: string | RegExp;
  access: AccessRule;
  what: string;
  /** `ctx` is read when the query is parsed: after whatever a wrapper of `run` waited for (the mapping at start). */
  run: (req: IncomingMessage, match: readonly string[], ctx: () => QueryContext) => Promise<Answer>;
}

const NO_QUERY = queryParser({});

export function route<Q = Record<never, never>>(spec: RouteSpec<Q>): Route {
  const parse = (spec.query ?? NO_QUERY) as QueryParser<Q>;
  return {
    method: spec.method,
    path: spec.path,
    access: spec.access,
    what: spec.what,
    run: async (req, match, ctx) => {
      const url = new URL(req.url ?? '/', 'http://dashboard.invalid');
      const query = parse(url.searchParams, ctx());
      if (!query.ok) return errorResponse(400, query.detail);
      return spec.handle({ req, query: query.value, match, scope: scopeOf(req) });
    },
  };
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
  /** The rule of the route a request would reach; undefined when none would (its 404 or 405 follows). */
  ruleFor(method: string, path: string): AccessRule | undefined;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export function createRouter(routes: readonly Route[], opts: { logger: Logger; context: () => QueryContext }): Router {
  const find = (path: string) =>
    routes.flatMap((r) => {
      if (typeof r.path === 'string') return r.path === path ? [{ r, match: [] as string[] }] : [];
      const m = r.path.exec(path);
      return m ? [{ r, match: m.slice(1) }] : [];
    });
  const pick = (method: string, path: string) =>
    find(path).find(({ r }) => r.method === method || (method === 'HEAD' && r.method === 'GET'));

  return {
    owns: (path) => find(path).length > 0,
    ruleFor: (method, path) => pick(method, path)?.r.access,
    async handle(req, res) {
      // The path as the sign-in gate decided on it (dot segments resolved): the rule and the route are one.
      const path = new URL(req.url ?? '/', 'http://dashboard.invalid').pathname;
      const method = req.method ?? 'GET';
      const found = pick(method, path);
      let answer: Answer;
      if (!found) {
        const allowed = [
          ...new Set(find(path).flatMap(({ r }) => (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method]))),
        ];
        answer =
          allowed.length === 0
            ? errorResponse(404, 'No such endpoint.')
            : errorResponse(405, `Method ${method} is not allowed here.`, { allow: allowed.join(', ') });
      } else {
        try {
          answer = await found.r.run(req, found.match, opts.context);
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
      try {
        await reply(req, res, answer);
      } catch (e) {
        // A streamed answer that failed midway can only be cut short: the reader sees it incomplete.
        if (res.headersSent) res.destroy();
        else await reply(req, res, faultResponse(e, opts.logger, `compute ${found?.r.what ?? 'the answer'}`));
      }
    },
  };
}
