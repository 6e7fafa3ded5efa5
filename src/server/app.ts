/**
 * The dashboard's HTTP handler, and the composition root of the server: the
 * core (responses, security headers), the upstream proxy, and the embedded
 * demo service when no upstream is configured. It is the one module that
 * knows both the proxy and the demo. The same handler runs under `npm start`
 * and inside Vite's dev server.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildQuery } from '../api/client';
import { PATHS } from '../api/paths';
import type { ClientConfig } from '../api/schemas';
import { HISTORY_START, yesterdayUtc } from '../lib/dates';
import { parseRange } from '../lib/url-state';
import type { ServerConfig } from './config';
import { errorResponse } from './core/errors';
import { silentLogger, type Logger } from './core/log';
import { json, send, type HttpResponse } from './core/response';
import { setSecurityHeaders } from './core/security';
import { embeddedOrigin } from './demo/embedded';
import { createDemoService } from './demo/service';
import { writeDemoResponse } from './demo/transport';
import { httpOrigin } from './upstream/client';
import { forward, isProxiedPrefix, type Origin } from './upstream/proxy';

type Handler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
/** Check failures (404, 405) come from the proxy itself, so a writer gets those plain responses too. */
type Writer<R extends HttpResponse> = (
  res: ServerResponse,
  r: R | HttpResponse,
  head: boolean,
  acceptEncoding: string,
) => void;

export function createApp(config: ServerConfig, opts: { logger?: Logger } = {}) {
  const logger = opts.logger ?? silentLogger;
  const demo = config.demo ? createDemoService(config.demo) : undefined;

  /** Forwards to an origin and writes its answers with the writer that understands them. */
  const proxyTo =
    <R extends HttpResponse>(origin: Origin<R>, write: Writer<R>): Handler =>
    (req, res) => {
      forward(req, { origin, apiKey: config.apiKey, retries: config.upstreamRetries }).then(
        (r) => write(res, r, req.method === 'HEAD', String(req.headers['accept-encoding'] ?? '')),
        (e: unknown) => {
          logger.error('proxy failure', { error: e instanceof Error ? e.message : String(e) });
          send(res, errorResponse(500, 'The dashboard server failed to handle the request.'));
        },
      );
    };
  // The demo's answers may carry transport faults that only its own writer carries out.
  const proxy = demo
    ? proxyTo(embeddedOrigin(demo, config.upstreamTimeoutMs), writeDemoResponse)
    : proxyTo(httpOrigin(config), send);

  const clientConfig = (): ClientConfig => ({
    demo: demo !== undefined,
    keyRequired: demo === undefined && config.apiKey === undefined,
    historyStart: HISTORY_START,
    latestDay: demo ? demo.latestDay() : yesterdayUtc(),
  });

  const handler: Handler = (req, res, next) => {
    const started = performance.now();
    const url = req.url ?? '/';
    setSecurityHeaders(res, config.production);
    res.on('finish', () => {
      if (url.startsWith('/api/')) {
        logger.info('request', {
          method: req.method,
          path: url.split('?')[0],
          status: res.statusCode,
          ms: Math.round(performance.now() - started),
        });
      }
    });
    const head = req.method === 'HEAD';
    if (url === '/api/health') return send(res, json(200, { status: 'ok' }), head);
    if (url === '/api/config') return send(res, json(200, clientConfig()), head);
    if (isProxiedPrefix(url)) return proxy(req, res, next);
    if (url.startsWith('/api/')) return send(res, errorResponse(404, 'No such endpoint.'), head);
    next();
  };

  /**
   * The page with the client configuration in a meta tag, so the app needs no
   * request before its first query; on the landing page, the first chart's
   * data is preloaded while the scripts load (only when the browser sends no
   * key: a preload cannot carry one).
   */
  const renderIndex = (html: string, url = '/') => {
    const cfg = clientConfig();
    const [path, query = ''] = url.split('?');
    let head = `<meta name="dashboard-config" content="${escapeAttr(JSON.stringify(cfg))}" />`;
    if (path === '/' && !cfg.keyRequired) {
      const r = parseRange(new URLSearchParams(query), cfg.latestDay);
      const href = `${PATHS.tokens}${buildQuery({ startDate: r.start, endDate: r.end, group_by: 'model' })}`;
      head += `\n    <link rel="preload" as="fetch" crossorigin="anonymous" href="${escapeAttr(href)}" />`;
    }
    return html.replace('</head>', `${head}\n  </head>`);
  };

  return { handler, demo, clientConfig, renderIndex };
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
