/** Places in a file's text, for messages that name a line; and a request body read whole, with a size limit. */
import type { IncomingMessage } from 'node:http';
import { HttpError } from './errors';

/** Offsets where each line starts (a line ends at CRLF, LF or a lone CR). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return starts;
}

/** The line, from 1, of an offset. */
export function lineAt(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** A request's body as text; a 413 with `tooLarge` past `maxBytes`. */
export async function readBody(req: IncomingMessage, maxBytes: number, tooLarge: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > maxBytes) throw new HttpError(413, tooLarge);
    chunks.push(c);
  }
  return Buffer.concat(chunks).toString('utf8');
}
