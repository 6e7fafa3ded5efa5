/**
 * Places in a file's text, for messages that name a line; a settings file's text; a request body read whole,
 * with a size limit (as text or as JSON); and an email address as every part of the server compares it.
 */
import { readFileSync } from 'node:fs';
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

/** A settings file's text, or the one problem that refuses it when it cannot be read (TEAMS_FILE, PRICES_FILE). */
export function readSettingsFile(path: string): { text: string } | { errors: [{ line: null; message: string }] } {
  try {
    return { text: readFileSync(path, 'utf8') };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    return { errors: [{ line: null, message: `the file cannot be read (${code})` }] };
  }
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

/**
 * A request's body as JSON, each refusal with the route's own sentence: 415 (`unsupported`) unless it is sent as
 * JSON (which another site's form cannot send without the browser asking first), 413 (`tooLarge`) past
 * `maxBytes`, 400 (`invalid`) when it does not parse.
 */
export async function readJson(
  req: IncomingMessage,
  maxBytes: number,
  details: { unsupported: string; tooLarge: string; invalid: string },
): Promise<unknown> {
  if (!/^application\/json\b/i.test(String(req.headers['content-type'] ?? '')))
    throw new HttpError(415, details.unsupported);
  try {
    return JSON.parse(await readBody(req, maxBytes, details.tooLarge));
  } catch (e) {
    if (e instanceof HttpError) throw e;
    throw new HttpError(400, details.invalid);
  }
}

/**
 * An email address as it is compared everywhere (sign-in, the admin and allowed lists, the team mapping,
 * the store's users): its own characters, trimmed, only ASCII letters lowercased. No Unicode normalisation,
 * not even NFC, and no full Unicode lowercasing, which would make U+212A KELVIN SIGN a `k`: `\u212Aim@…`
 * is not `kim@…`, and `Ömer@…` is not `ömer@…`.
 */
export const canonicalEmail = (email: string): string => email.trim().replace(/[A-Z]+/g, (c) => c.toLowerCase());
