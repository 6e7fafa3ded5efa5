/**
 * How the store-computed endpoints (teams, spend, insights) answer: a route's answer, or its error as
 * the documented error body — a refusal (HttpError), the service's own failure while filling a range,
 * or an unexpected one (logged, 500) — sent no-store and compressed as the reader accepts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorResponse, faultResponse, HttpError } from '../core/errors';
import type { Logger } from '../core/log';
import { send, type HttpResponse } from '../core/response';
import { FillFailed } from '../sync/engine';

/** What went wrong filling a range from the service, for the reader. */
export function fillFailure(e: FillFailed, what: string): HttpResponse {
  if (e.answer.status !== 200) return e.answer;
  return errorResponse(
    502,
    `The service answered with data that could not be stored, so ${what} could not be computed.`,
  );
}

/** A request handler from a route; `what` names what the endpoints compute, for the error details. */
export function serveRoute(
  route: (req: IncomingMessage, url: URL) => Promise<HttpResponse>,
  logger: Logger,
  what: string,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const head = req.method === 'HEAD';
    const url = new URL(req.url ?? '/', 'http://localhost');
    route(req, url)
      .catch((e: unknown) => {
        if (e instanceof HttpError) return errorResponse(e.status, e.detail, e.headers);
        if (e instanceof FillFailed) return fillFailure(e, what);
        return faultResponse(e, logger, `compute ${what}`);
      })
      .then((r) => {
        if (!r.headers['cache-control']) r.headers['cache-control'] = 'no-store';
        send(res, r, head, String(req.headers['accept-encoding'] ?? ''));
      });
  };
}
