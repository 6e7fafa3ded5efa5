/**
 * Personal API tokens (the server's src/server/auth/tokens.ts): a signed-in person makes one to read the dashboard's
 * API from a script or a tool, as themself (`Authorization: Bearer aud_pat_…`). Not the service's API key.
 *
 *   GET    /api/api-tokens            the reader's tokens
 *   POST   /api/api-tokens {name, days}  makes one: the answer holds the token, shown this once
 *   DELETE /api/api-tokens/:id        revokes one (the reader's; an admin's any)
 *   GET    /api/api-tokens/all        everyone's (admins)
 *
 * With sign-in only; a request made with a token is refused on all of them.
 */
import * as z from 'zod/mini';

export const API_TOKENS_PATHS = { tokens: '/api/api-tokens', all: '/api/api-tokens/all' } as const;

/** Why tokens are refused on a server without sign-in (its answers and the screen say it). */
export const TOKENS_NEED_SIGN_IN =
  'Personal API tokens need sign-in (OIDC_ISSUER): a token acts as a signed-in person, with their role and teams, and without sign-in there are none.';
/** Why tokens are refused on a server that keeps no store (each reader brings their own key of the service). */
export const TOKENS_NEED_STORE =
  'Personal API tokens are kept in the store, and this server keeps none (each reader brings their own key of the service).';

/** The longest a token lasts, in days. */
export const API_TOKEN_MAX_DAYS = 365;
/** The longest name of a token, in characters (after trimming). */
export const API_TOKEN_NAME_MAX = 80;

export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Whose it is: the person it acts as. */
  email: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
  revokedAt: z.nullable(z.string()),
  revokedBy: z.nullable(z.string()),
  state: z.enum(['active', 'expired', 'revoked']),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const apiTokensAnswerSchema = z.object({ tokens: z.array(apiTokenSchema) });

/** The answer to a new token: the token itself, given this once (the server keeps only its hash). */
export const newApiTokenSchema = z.object({ token: z.string(), about: apiTokenSchema });
export type NewApiToken = z.infer<typeof newApiTokenSchema>;

/** What a reader sends to make a token: its name, and how many days it lasts (1 to API_TOKEN_MAX_DAYS). */
export const apiTokenInputSchema = z.object({
  name: z.string().check(z.maxLength(API_TOKEN_NAME_MAX)),
  days: z.int().check(z.minimum(1), z.maximum(API_TOKEN_MAX_DAYS)),
});
export type ApiTokenInput = z.infer<typeof apiTokenInputSchema>;

/** What `DELETE /api/api-tokens/:id` answers: the token as it is now, revoked. */
export const revokedApiTokenSchema = z.object({ revoked: apiTokenSchema });
