/**
 * Personal API tokens: how one is made, how a request's is checked, and what it may not do. A signed-in person makes
 * one on the dashboard (src/server/tokens/routes.ts); a request sends it as `Authorization: Bearer aud_pat_…` and
 * acts as that person, with their role and teams as the settings and the mapping give them at that request. It is
 * a different thing from the service's API key (API_KEY, or the key a reader pastes): a bearer without the prefix
 * is never taken for one, and a token is never passed on to the service.
 *
 * - A token is the prefix and 32 random bytes (base64url). The store keeps its SHA-256 only: with 256 bits of
 *   randomness nothing is gained by a slow hash or a keyed one, and a token survives a change of SESSION_SECRET.
 *   It is looked up by that hash, so no comparison of secrets happens here to be timed: what a lookup's timing
 *   could tell about a hash says nothing about any token.
 * - Each token may make `API_TOKEN_RATE` requests a minute (a bucket of as many, refilled evenly; per process), then
 *   gets 429 with `Retry-After`.
 * - A token reads the API (GET and HEAD under /api/, and the MCP endpoint, whose tools read it). It never makes,
 *   lists or revokes tokens, so one that leaks cannot make another that outlives its revocation, and it changes
 *   nothing (the mapping, budgets, marks, alert rules): a token lives in scripts and tools for up to a year, where it
 *   leaks more easily than a session, and changes are made on the dashboard's pages, whose Origin is checked.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Kysely } from 'kysely';
import { TOKENS_NEED_STORE } from '../../api/api-tokens';
import { errorResponse } from '../core/errors';
import type { HttpResponse } from '../core/response';
import type { Schema } from '../store/schema';
import { addToken, tokenByHash, touchToken, type StoredToken } from '../store/tokens-queries';
import { MCP_PATH, viewerOf, type Managers, type Viewer } from './access';
import type { AuthConfig } from './config';

/** What every personal token starts with: recognisable in a leak, and never taken for the service's key. */
export const TOKEN_PREFIX = 'aud_pat_';
const TOKEN_SHAPE = /^aud_pat_[A-Za-z0-9_-]{43}$/;
/** A header naming our tokens: checked here even when malformed, so that it is refused, not passed on. */
const BEARER = /^bearer[ \t]+(aud_pat_\S*)[ \t]*$/i;

/** The SHA-256 of a token (hex), as the store keeps it. */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * The personal token a request carries (`Authorization: Bearer aud_pat_…`), or undefined: no Authorization, or a
 * bearer of another kind (a reader's own key of the service, which is not ours to read).
 */
export function bearerTokenOf(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  return typeof h === 'string' ? BEARER.exec(h)?.[1] : undefined;
}

/** Makes a token for `email`, named `name`, lasting `days`; the token itself is given here once and never kept. */
export async function issueToken(
  db: Kysely<Schema>,
  t: { email: string; name: string; days: number },
  now: Date = new Date(),
): Promise<{ token: string; row: StoredToken }> {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row: StoredToken = {
    id: randomUUID(),
    hash: tokenHash(token),
    email: t.email,
    name: t.name,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + t.days * 86_400_000).toISOString(),
    last_used_at: null,
    revoked_at: null,
    revoked_by: null,
  };
  await addToken(db, row);
  return { token, row };
}

/**
 * Token buckets, one per token: `perMinute` requests at once, refilled evenly over a minute. Only tokens found in
 * the store get one, so their number is bounded by the tokens kept.
 */
export function tokenBuckets(perMinute: number, now: () => number = () => performance.now()) {
  const buckets = new Map<string, { level: number; at: number }>();
  return {
    /** Takes a request from the token's bucket: 0 when it may go on, else the whole seconds until it may. */
    take(id: string): number {
      const t = now();
      const b = buckets.get(id) ?? { level: perMinute, at: t };
      b.level = Math.min(perMinute, b.level + ((t - b.at) / 60_000) * perMinute);
      b.at = t;
      buckets.set(id, b);
      if (b.level >= 1) {
        b.level -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil(((1 - b.level) * 60) / perMinute));
    },
  };
}

export type TokenCheck =
  | { ok: true; viewer: Viewer; id: string }
  /** Refused: the answer, and what the audit line says of it. */
  | { ok: false; answer: HttpResponse; why: Record<string, unknown> };

/** The header every refusal of a token carries (RFC 6750). */
const challenge = { 'www-authenticate': 'Bearer error="invalid_token"' };
const dayOf = (iso: string) => iso.slice(0, 10);
/** How often a token's last use is written, at most. */
const TOUCH_MS = 60_000;

/**
 * The check of a request's token, the same wherever a token is taken (the API's gate, the MCP endpoint): who it
 * acts as, at this request, or why it is refused. `db` is the store (undefined: none, so no tokens).
 */
export function createTokenCheck(o: {
  cfg: AuthConfig;
  db: Kysely<Schema> | undefined;
  managers: () => Managers | undefined;
  now?: () => Date;
  onTouchFailed?: (e: unknown) => void;
}) {
  const buckets = tokenBuckets(o.cfg.tokenRatePerMinute);
  const touched = new Map<string, number>();
  const refused = (
    status: number,
    detail: string,
    why: Record<string, unknown>,
    headers: Record<string, string> = status === 401 ? challenge : {},
  ): TokenCheck => ({ ok: false, answer: errorResponse(status, detail, headers), why });
  return async function check(token: string): Promise<TokenCheck> {
    if (!o.db) return refused(401, TOKENS_NEED_STORE, { reason: 'api token without a store' });
    const unknown =
      'This API token is not known here: check that it was copied whole, or make another on the dashboard (API tokens, beside your name).';
    if (!TOKEN_SHAPE.test(token)) return refused(401, unknown, { reason: 'malformed api token' });
    const row = await tokenByHash(o.db, tokenHash(token));
    if (!row) return refused(401, unknown, { reason: 'unknown api token' });
    const credential = `api token ${row.id}`;
    const now = (o.now ?? (() => new Date()))();
    if (row.revoked_at !== null)
      return refused(
        401,
        `This API token was revoked on ${dayOf(row.revoked_at)}; make another on the dashboard (API tokens, beside your name).`,
        { reason: 'revoked api token', who: row.email, credential },
      );
    if (row.expires_at <= now.toISOString())
      return refused(
        401,
        `This API token expired on ${dayOf(row.expires_at)}; make another on the dashboard (API tokens, beside your name).`,
        { reason: 'expired api token', who: row.email, credential },
      );
    // Who they are now: a manager who lost a team lost it here too; someone no longer let in is refused.
    const viewer = viewerOf({ email: row.email, name: null }, o.cfg, o.managers());
    if (!viewer)
      return refused(
        403,
        'The person this API token acts for may not sign in here any more, so their tokens are refused.',
        { reason: 'api token of a person no longer allowed', who: row.email, credential },
      );
    const wait = buckets.take(row.id);
    if (wait > 0)
      return refused(
        429,
        `This API token made its ${o.cfg.tokenRatePerMinute} requests of the minute (API_TOKEN_RATE); try again in ${wait} s.`,
        { reason: 'api token over its rate', who: row.email, credential },
        { 'retry-after': String(wait) },
      );
    const last = touched.get(row.id) ?? 0;
    if (now.getTime() - last >= TOUCH_MS) {
      touched.set(row.id, now.getTime());
      // When a token was last used helps its owner tell a live one from a forgotten one; a failure to note it is
      // no reason to refuse the request.
      void touchToken(o.db, row.id, now.toISOString()).catch((e: unknown) => o.onTouchFailed?.(e));
    }
    return { ok: true, viewer, id: row.id };
  };
}

/**
 * Why a request made with a token is refused whatever its person may do (see the module's comment), or null: a
 * token reads the API; it never acts on tokens, nor changes anything, nor opens the pages.
 */
export function tokenRefusal(method: string, path: string): string | null {
  // The MCP endpoint takes its messages by POST; its tools only read, each through one of the API's GET routes.
  if (path === MCP_PATH) return null;
  if (path === '/api/api-tokens' || path.startsWith('/api/api-tokens/'))
    return 'API tokens are made, listed and revoked by a signed-in person on the dashboard’s pages, never with a token: one that leaked could otherwise make another that outlives it.';
  if (!path.startsWith('/api/'))
    return 'A personal API token reads the dashboard’s API (/api/…); its pages are opened signed in.';
  if (method !== 'GET' && method !== 'HEAD')
    return 'A personal API token only reads: changes (the team mapping, budgets, marks, alert rules) are made signed in, on the dashboard’s pages.';
  return null;
}
