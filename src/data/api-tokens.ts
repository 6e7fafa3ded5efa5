/**
 * The reader's personal API tokens (src/api/api-tokens.ts), and everyone's for an admin. Only their descriptions are
 * read here: a new token is in the answer to its making alone, held by the screen until the reader is done with it,
 * never cached, stored or put in an address.
 */
import { queryOptions } from '@tanstack/react-query';
import { API_TOKENS_PATHS, apiTokensAnswerSchema } from '../api/api-tokens';
import { api } from './client';

export const API_TOKENS_KEY = ['api-tokens'] as const;

/** `GET /api/api-tokens`: the reader's own. */
export const apiTokensQuery = queryOptions({
  queryKey: [...API_TOKENS_KEY, 'mine'],
  queryFn: ({ signal }) => api.get(API_TOKENS_PATHS.tokens, apiTokensAnswerSchema, undefined, signal),
  staleTime: 0,
});

/** `GET /api/api-tokens/all`: everyone's (admins). */
export const allApiTokensQuery = queryOptions({
  queryKey: [...API_TOKENS_KEY, 'all'],
  queryFn: ({ signal }) => api.get(API_TOKENS_PATHS.all, apiTokensAnswerSchema, undefined, signal),
  staleTime: 0,
});
