/**
 * The SPA's one client and its key session. It speaks to the dashboard's own
 * server, every path under the base path (`data/base.ts`); a key the user pasted
 * lives in session storage only (never local storage, never the URL) and travels
 * in the Authorization header.
 */
import type * as z from 'zod/mini';
import { createClient, listQueryString, type ListQuery } from '../api/client';
import { basePath } from './base';
import { externalValue } from './external-value';

const KEY_ITEM = 'agent-dashboard.api-key';
let memoryKey: string | undefined;

function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

export function getApiKey(): string | undefined {
  return memoryKey ?? storage()?.getItem(KEY_ITEM) ?? undefined;
}

export function setApiKey(key: string | undefined): void {
  memoryKey = key || undefined;
  const s = storage();
  if (key) s?.setItem(KEY_ITEM, key);
  else s?.removeItem(KEY_ITEM);
}

export const api = createClient({
  baseUrl: basePath,
  authorization: () => {
    const k = getApiKey();
    return k ? `Bearer ${k}` : undefined;
  },
});

export { listQueryString, type ListQuery } from '../api/client';

/**
 * `api.get` for the dashboard server's endpoints that take a parameter several times (`team=`): the
 * client's query record holds one value per name, so the query string is built here and sent with
 * the path.
 */
export function getWithLists<S extends z.ZodMiniType>(
  path: string,
  schema: S,
  query: ListQuery,
  signal?: AbortSignal,
): Promise<z.infer<S>> {
  return api.get(`${path}${listQueryString(query)}`, schema, undefined, signal);
}

/**
 * Whether the service refused the key (a 401). Kept outside React so the query
 * client, created before the first render, can report it.
 */
const rejected = externalValue(false);

export const setKeyRejected = rejected.set;

export function useKeyPrompt() {
  return { keyRejected: rejected.useValue(), setKeyRejected };
}
