/**
 * The dashboard's HTTP handler: security headers, health and configuration
 * endpoints, the proxy, and (in production) the built SPA. The same handler
 * runs under `npm start` and inside Vite's dev server.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { buildQuery } from '../api/client';
import { PATHS } from '../api/paths';
import type { ClientConfig } from '../api/schemas';
import { HISTORY_START, yesterdayUtc } from '../lib/dates';
import { parseRange } from '../lib/url-state';
import type { ServerConfig } from './config';
import { createDemoService, errorResponse, type DemoResponse } from './demo/service';
import { silentLogger, type Logger } from './log';
import { Limiter, forward, isProxiedPrefix } from './proxy';

export type Next = () => void;
export type Handler = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    // Chart libraries set style attributes; no inline script is ever allowed.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

/** Compressed bodies of recent answers: the demo service hands out the same body strings again. */
const gzipped = new Map<string, Buffer>();
const GZIP_MIN = 1024;

function gzipOf(body: string): Buffer {
  let z = gzipped.get(body);
  if (!z) {
    z = gzipSync(body, { level: 4 });
    gzipped.set(body, z);
    if (gzipped.size > 64) gzipped.delete(gzipped.keys().next().value!);
  }
  return z;
}

export function send(res: ServerResponse, r: DemoResponse, head = false, acceptEncoding = ''): void {
  res.statusCode = r.status;
  for (const [k, v] of Object.entries(r.headers)) res.setHeader(k, v);
  res.setHeader('cache-control', 'no-store');
  res.setHeader('vary', 'accept-encoding');
  if (!r.fault && r.body.length >= GZIP_MIN && /\bgzip\b/.test(acceptEncoding)) {
    const z = gzipOf(r.body);
    res.setHeader('content-encoding', 'gzip');
    res.setHeader('content-length', z.length);
    res.end(head ? undefined : z);
    return;
  }
  if (r.fault === 'truncated' && !head) {
    // An injected fault: promise the whole body, send half, drop the connection.
    const bytes = Buffer.from(r.body);
    res.setHeader('content-length', bytes.length);
    res.write(bytes.subarray(0, bytes.length >> 1), () => res.destroy());
    return;
  }
  res.end(head ? undefined : r.body);
}

const json = (status: number, body: unknown): DemoResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify(body),
});

export function createApp(config: ServerConfig, opts: { logger?: Logger; fetch?: typeof fetch } = {}) {
  const logger = opts.logger ?? silentLogger;
  const demo = config.demo ? createDemoService(config.demo) : undefined;
  const deps = { config, demo, fetch: opts.fetch, limiter: new Limiter(config.upstreamConcurrency) };

  const clientConfig = (): ClientConfig => ({
    demo: demo !== undefined,
    keyRequired: demo === undefined && config.apiKey === undefined,
    historyStart: HISTORY_START,
    latestDay: demo ? demo.latestDay() : yesterdayUtc(),
  });

  const handler: Handler = (req, res, next) => {
    const started = performance.now();
    const url = req.url ?? '/';
    if (config.production) for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    else res.setHeader('x-content-type-options', 'nosniff');
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
    if (isProxiedPrefix(url)) {
      forward(req, deps).then(
        (r) => send(res, r, head, String(req.headers['accept-encoding'] ?? '')),
        (e: unknown) => {
          logger.error('proxy failure', { error: e instanceof Error ? e.message : String(e) });
          send(res, errorResponse(500, 'The dashboard server failed to handle the request.'));
        },
      );
      return;
    }
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
