/**
 * HTTP answers as plain values, and the one place they are written to the
 * socket: the same headers on every answer, gzip when it pays, and brotli for
 * an answer kept to be sent again and again (`keepCompressed`).
 */
import type { ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip, gzipSync } from 'node:zlib';

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

/** Below this many characters an answer goes out as it is. */
const GZIP_MIN = 1024;

/** Compressed bodies of recent answers: the same body strings come back (the demo serves its bodies from a cache). */
const gzipped = new Map<string, Buffer>();

function gzipOf(body: string): Buffer {
  let z = gzipped.get(body);
  if (!z) {
    z = gzipSync(body, { level: 4 });
    gzipped.set(body, z);
    if (gzipped.size > 64) gzipped.delete(gzipped.keys().next().value!);
  }
  return z;
}

/**
 * The compressed bodies of an answer that will be sent many times, made once
 * (`keepCompressed`) and dropped with the answer: by answer object, not by body,
 * so the lookup costs nothing whatever the body's size.
 */
interface Kept {
  gzip?: Buffer;
  br?: Buffer;
}
const kept = new WeakMap<HttpResponse, Kept>();

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * Compresses an answer that will be sent again and again (the store's cached
 * answers) once, in zlib's thread pool rather than on the event loop: gzip,
 * and brotli for the browsers that accept it (every current one over HTTPS and
 * on localhost), each at a middle level: 10 to 45 ms a megabyte. (Brotli's
 * best level would save up to a fifth more bytes, at sixty times the cost:
 * seconds of a small server's processor for each answer.) Until it is done,
 * `send` compresses as for any answer. Never rejects; resolves with the bytes
 * kept.
 */
export async function keepCompressed(r: HttpResponse): Promise<number> {
  if (r.body.length < GZIP_MIN || kept.has(r)) return 0;
  const k: Kept = {};
  kept.set(r, k);
  const input = Buffer.from(r.body);
  try {
    [k.gzip, k.br] = await Promise.all([
      gzipAsync(input, { level: 6 }),
      brotliAsync(input, {
        params: {
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_QUALITY]: 7,
          [constants.BROTLI_PARAM_SIZE_HINT]: input.length,
        },
      }),
    ]);
  } catch {
    kept.delete(r);
    return 0;
  }
  return k.gzip.length + k.br.length;
}

/** What an Accept-Encoding value accepts: a coding listed, without `q=0`. */
interface Accepted {
  gzip: boolean;
  br: boolean;
}
/** The few distinct values browsers send, parsed once each. */
const acceptedOf = new Map<string, Accepted>();

function accepted(header: string): Accepted {
  let a = acceptedOf.get(header);
  if (a) return a;
  a = { gzip: false, br: false };
  for (const part of header.toLowerCase().split(',')) {
    const [coding = '', ...params] = part.split(';').map((s) => s.trim());
    const refused = params.some((p) => /^q=0(\.0*)?$/.test(p));
    if (coding === 'gzip' || coding === 'x-gzip') a.gzip ||= !refused;
    if (coding === 'br') a.br ||= !refused;
  }
  if (acceptedOf.size >= 64) acceptedOf.clear();
  acceptedOf.set(header, a);
  return a;
}

/** Status and headers; API answers are never cached, and their encoding depends on Accept-Encoding. */
export function writeHead(res: ServerResponse, r: HttpResponse): void {
  res.statusCode = r.status;
  for (const k in r.headers) res.setHeader(k, r.headers[k]!);
  res.setHeader('cache-control', 'no-store');
  res.setHeader('vary', 'accept-encoding');
}

export function send(res: ServerResponse, r: HttpResponse, head = false, acceptEncoding = ''): void {
  writeHead(res, r);
  if (r.body.length >= GZIP_MIN && acceptEncoding !== '') {
    const a = accepted(acceptEncoding);
    const k = kept.get(r);
    const br = a.br ? k?.br : undefined;
    const z = br ?? (a.gzip ? (k?.gzip ?? gzipOf(r.body)) : undefined);
    if (z) {
      res.setHeader('content-encoding', br ? 'br' : 'gzip');
      res.setHeader('content-length', z.length);
      res.end(head ? undefined : z);
      return;
    }
  }
  res.end(head ? undefined : r.body);
}
