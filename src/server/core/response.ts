/**
 * HTTP answers as plain values, and the one place they are written to the
 * socket: the same headers on every answer, gzip when it pays, brotli for
 * an answer kept to be sent again and again (`keepCompressed`), revalidation
 * of an answer that carries an ETag, and streamed bodies (a CSV export).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, createGzip, gzip, gzipSync } from 'node:zlib';

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /**
   * A weak tag of an answer about final days: kept by the browser but asked about again each time (a
   * re-sync of the store changes it), and answered 304 while the reader's copy is current.
   */
  etag?: string;
}

/** An answer written a piece at a time as its pieces come (a whole table as CSV, a file's bytes). */
export interface StreamedResponse {
  status: number;
  headers: Record<string, string>;
  pieces: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;
  /** PSEUDONYMIZE=1: the route wrote the reader's pseudonyms itself (bytes, which the router cannot rewrite). */
  pseudonymized?: boolean;
}

/**
 * An answer its maker writes itself: the demo service's transport faults (a body cut short on purpose), which
 * no well-formed answer could carry.
 */
export interface WrittenResponse {
  status: number;
  write: (res: ServerResponse, head: boolean, acceptEncoding: string) => void;
}

export type Answer = HttpResponse | StreamedResponse | WrittenResponse;

/** A JSON answer whose body is JSON text already (stored bodies passed on without a round trip through objects). */
export const jsonText = (status: number, body: string, headers: Record<string, string> = {}): HttpResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body,
});

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse =>
  jsonText(status, JSON.stringify(body), headers);

/** Below this many characters an answer goes out as it is. */
const GZIP_MIN = 1024;
/** From this many characters, an answer not kept is compressed off the event loop. */
const ASYNC_GZIP_MIN = 64 * 1024;

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

/** Status and headers; API answers are not cached unless they say so, and their encoding depends on Accept-Encoding. */
export function writeHead(res: ServerResponse, r: Pick<HttpResponse, 'status' | 'headers'>): void {
  res.statusCode = r.status;
  for (const k in r.headers) res.setHeader(k, r.headers[k]!);
  if (!r.headers['cache-control']) res.setHeader('cache-control', 'no-store');
  res.setHeader('vary', 'accept-encoding');
}

/** Weak comparison of If-None-Match against our (weak) tag. */
function matches(header: string | string[] | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return String(header)
    .split(',')
    .some((t) => t.trim() === '*' || bare(t) === bare(etag));
}

/**
 * Writes an answer to the request it answers: HEAD without a body, the encoding the reader accepts, an
 * ETag revalidated (304), a streamed body piece by piece as the socket drains. A reader who goes away
 * mid-stream ends it (the promise rejects).
 */
export async function reply(req: IncomingMessage, res: ServerResponse, a: Answer): Promise<void> {
  const head = req.method === 'HEAD';
  const encoding = String(req.headers['accept-encoding'] ?? '');
  if ('write' in a) return a.write(res, head, encoding);
  if (!('pieces' in a)) {
    const r = a.etag ? { ...a, headers: { ...a.headers, etag: a.etag, 'cache-control': 'private, no-cache' } } : a;
    if (!a.etag || !matches(req.headers['if-none-match'], a.etag)) {
      // A large answer made for one reader (a page of the users table) is compressed in zlib's threads, not
      // on the event loop, and not kept.
      if (r.body.length < ASYNC_GZIP_MIN || kept.has(r) || !accepted(encoding).gzip)
        return send(res, r, head, encoding);
      return endCompressed(res, r, 'gzip', await gzipAsync(r.body, { level: 4 }), head);
    }
    writeHead(res, { status: 304, headers: r.headers });
    res.removeHeader('content-type');
    return void res.end();
  }
  const gz = accepted(encoding).gzip;
  writeHead(res, a);
  if (gz) res.setHeader('content-encoding', 'gzip');
  if (head) return void res.end();
  // The next pieces are made while zlib's threads compress (Readable.from keeps up to 16 ready): written one by
  // one as the compressor drained, they waited on it for 17–28 ms of a 5,000-person CSV's 1.1 MB. Level 1: 10 ms
  // a megabyte here, against 14 at level 4, for 11 % more bytes. A reader who goes away ends the pipeline.
  const body = Readable.from(a.pieces);
  await (gz ? pipeline(body, createGzip({ level: 1, chunkSize: 64 * 1024 }), res) : pipeline(body, res));
}

export function send(res: ServerResponse, r: HttpResponse, head = false, acceptEncoding = ''): void {
  if (r.body.length >= GZIP_MIN && acceptEncoding !== '') {
    const a = accepted(acceptEncoding);
    const k = kept.get(r);
    const br = a.br ? k?.br : undefined;
    const z = br ?? (a.gzip ? (k?.gzip ?? gzipOf(r.body)) : undefined);
    if (z) return endCompressed(res, r, br ? 'br' : 'gzip', z, head);
  }
  writeHead(res, r);
  res.end(head ? undefined : r.body);
}

/** An answer with its body compressed already (`z`, in `coding`): HEAD gets the headers only. */
function endCompressed(res: ServerResponse, r: HttpResponse, coding: string, z: Buffer, head: boolean): void {
  writeHead(res, r);
  res.setHeader('content-encoding', coding);
  res.setHeader('content-length', z.length);
  res.end(head ? undefined : z);
}
