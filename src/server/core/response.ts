/**
 * HTTP answers as plain values, and the one place they are written to the
 * socket: the same headers on every answer, gzip when it pays.
 */
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const json = (status: number, body: unknown): HttpResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify(body),
});

/** Compressed bodies of recent answers: the same body strings come back (the demo serves its bodies from a cache). */
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

/** Status and headers; API answers are never cached, and their encoding depends on Accept-Encoding. */
export function writeHead(res: ServerResponse, r: HttpResponse): void {
  res.statusCode = r.status;
  for (const [k, v] of Object.entries(r.headers)) res.setHeader(k, v);
  res.setHeader('cache-control', 'no-store');
  res.setHeader('vary', 'accept-encoding');
}

export function send(res: ServerResponse, r: HttpResponse, head = false, acceptEncoding = ''): void {
  writeHead(res, r);
  if (r.body.length >= GZIP_MIN && /\bgzip\b/.test(acceptEncoding)) {
    const z = gzipOf(r.body);
    res.setHeader('content-encoding', 'gzip');
    res.setHeader('content-length', z.length);
    res.end(head ? undefined : z);
    return;
  }
  res.end(head ? undefined : r.body);
}
