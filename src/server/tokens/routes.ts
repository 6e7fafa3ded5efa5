/**
 * The personal API tokens' screen's routes (their shapes and list: src/api/api-tokens.ts; how a token is made and
 * checked: auth/tokens.ts). A signed-in person makes, lists and revokes their own tokens; an admin lists and revokes
 * everyone's. The gate refuses every one of these routes to a request made with a token, and a change from another
 * site is refused before any route (`core/hosts.ts`). Without sign-in, or without a store, they say why not.
 */
import type { IncomingMessage } from 'node:http';
import {
  API_TOKEN_MAX_DAYS,
  API_TOKEN_NAME_MAX,
  API_TOKENS_PATHS,
  apiTokenInputSchema,
  apiTokensAnswerSchema,
  newApiTokenSchema,
  revokedApiTokenSchema,
  type ApiToken,
  type ApiTokenInput,
  TOKENS_NEED_SIGN_IN,
  TOKENS_NEED_STORE,
} from '../../api/api-tokens';
import type { AccessRule, ViewScope } from '../auth/access';
import { issueToken } from '../auth/tokens';
import { HttpError, peerInContext } from '../core/errors';
import type { Logger } from '../core/log';
import { json } from '../core/response';
import { readJson } from '../core/text';
import { quote } from '../http/query';
import { route, type Route } from '../http/router';
import type { StoreDb } from '../store/db';
import {
  countLiveTokens,
  forgetOldTokens,
  readToken,
  readTokens,
  revokeToken,
  type StoredToken,
} from '../store/tokens-queries';

export interface TokensRoutesOptions {
  /** Undefined: the server keeps no store, so no tokens. */
  store: StoreDb | undefined;
  signIn: boolean;
  logger: Logger;
}

/** The most tokens one person may have in use at once: enough for every tool, few enough to keep track of. */
export const LIVE_TOKENS_MAX = 20;
/** How long a revoked or expired token stays listed (its owner sees what became of it), in days. */
const LISTED_AFTER_DAYS = 30;
const MAX_BODY = 4 * 1024;

/** Everyone's tokens are listed to admins only (the gate lets admins through every route). */
const adminsOnly: AccessRule = () => ({
  allow: false,
  status: 403,
  detail: 'Everyone’s API tokens are listed to admins (ADMIN_EMAILS); yours are at /api/api-tokens.',
});
const everyone: AccessRule = () => ({ allow: true });

// eslint-disable-next-line no-control-regex
const cleanName = (t: string) => t.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();

export function createTokensRoutes(opts: TokensRoutesOptions) {
  const { logger } = opts;
  const audit = (event: string, fields: Record<string, unknown>) =>
    logger.info('audit', { event, ...fields, client: peerInContext()?.address });

  /** The store and the reader, or the 403 that says why tokens cannot be had here. */
  const ready = (scope: ViewScope | undefined): { store: StoreDb; scope: ViewScope } => {
    if (!opts.signIn || !scope) throw new HttpError(403, TOKENS_NEED_SIGN_IN);
    if (!opts.store) throw new HttpError(403, TOKENS_NEED_STORE);
    return { store: opts.store, scope };
  };

  const view = (t: StoredToken, now: string): ApiToken => ({
    id: t.id,
    name: t.name,
    email: t.email,
    createdAt: t.created_at,
    expiresAt: t.expires_at,
    lastUsedAt: t.last_used_at,
    revokedAt: t.revoked_at,
    revokedBy: t.revoked_by,
    state: t.revoked_at !== null ? 'revoked' : t.expires_at <= now ? 'expired' : 'active',
  });

  async function readInput(req: IncomingMessage): Promise<ApiTokenInput> {
    const example = `{"name": "Weekly report", "days": 90} (1 to ${API_TOKEN_MAX_DAYS} days)`;
    const body = await readJson(req, MAX_BODY, {
      unsupported: `Send the token's name and lifetime as JSON: ${example}.`,
      tooLarge: 'A token’s name and lifetime are at most 4 KB of JSON.',
      invalid: `The body is not valid JSON: send ${example}.`,
    });
    const b = (body ?? {}) as Record<string, unknown>;
    const bad = (detail: string) => new HttpError(400, detail);
    if (typeof b.name !== 'string') throw bad(`"name" must say what the token is for, as a string: ${example}.`);
    const name = cleanName(b.name);
    if (name === '') throw bad('"name" is empty: say what the token is for (a script, a report, a tool).');
    if ([...name].length > API_TOKEN_NAME_MAX)
      throw bad(`"name" is ${[...name].length} characters long; a token's name holds at most ${API_TOKEN_NAME_MAX}.`);
    if (typeof b.days !== 'number' || !Number.isInteger(b.days) || b.days < 1 || b.days > API_TOKEN_MAX_DAYS)
      throw bad(`"days" must be a whole number of days from 1 to ${API_TOKEN_MAX_DAYS}, got ${quote(b.days)}.`);
    return { name, days: b.days };
  }

  const one = /^\/api\/api-tokens\/([^/]+)$/;

  const routes: Route[] = [
    route({
      method: 'GET',
      path: API_TOKENS_PATHS.tokens,
      access: everyone,
      what: 'your API tokens',
      response: apiTokensAnswerSchema,
      handle: async ({ scope }) => {
        const r = ready(scope);
        const now = new Date().toISOString();
        return json(200, { tokens: (await readTokens(r.store.db, r.scope.email)).map((t) => view(t, now)) });
      },
    }),
    route({
      method: 'GET',
      path: API_TOKENS_PATHS.all,
      access: adminsOnly,
      what: 'everyone’s API tokens',
      response: apiTokensAnswerSchema,
      handle: async ({ scope }) => {
        const r = ready(scope);
        const now = new Date().toISOString();
        return json(200, { tokens: (await readTokens(r.store.db, null)).map((t) => view(t, now)) });
      },
    }),
    route({
      method: 'POST',
      path: API_TOKENS_PATHS.tokens,
      access: everyone,
      what: 'the API token',
      response: { status: 201, schema: newApiTokenSchema },
      body: apiTokenInputSchema,
      handle: async ({ req, scope }) => {
        const r = ready(scope);
        const input = await readInput(req);
        const now = new Date();
        await forgetOldTokens(r.store.db, new Date(now.getTime() - LISTED_AFTER_DAYS * 86_400_000).toISOString());
        if ((await countLiveTokens(r.store.db, r.scope.email, now.toISOString())) >= LIVE_TOKENS_MAX)
          throw new HttpError(
            409,
            `You have ${LIVE_TOKENS_MAX} API tokens in use, as many as one person may: revoke one you no longer need to make another.`,
          );
        const made = await issueToken(r.store.db, { email: r.scope.email, name: input.name, days: input.days }, now);
        audit('api token made', {
          who: r.scope.email,
          credential: `api token ${made.row.id}`,
          name: made.row.name,
          expires: made.row.expires_at,
        });
        return json(201, { token: made.token, about: view(made.row, now.toISOString()) });
      },
    }),
    route({
      method: 'DELETE',
      path: one,
      label: '/api/api-tokens/:id',
      access: everyone,
      what: 'the API token',
      response: revokedApiTokenSchema,
      handle: async ({ match, scope }) => {
        const r = ready(scope);
        let id: string;
        try {
          id = decodeURIComponent(match[0]!);
        } catch {
          id = '';
        }
        const t = id === '' ? undefined : await readToken(r.store.db, id);
        // Another person's token is not said to exist (but to an admin).
        if (!t || (!r.scope.admin && t.email !== r.scope.email))
          throw new HttpError(404, 'No such API token: it may have been removed.');
        const now = new Date().toISOString();
        if (await revokeToken(r.store.db, t.id, r.scope.email, now))
          audit('api token revoked', { who: r.scope.email, credential: `api token ${t.id}`, owner: t.email });
        return json(200, { revoked: view((await readToken(r.store.db, t.id)) ?? t, now) });
      },
    }),
  ];
  return { routes };
}
