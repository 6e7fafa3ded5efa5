import type { APIRequestContext } from '@playwright/test';

/** The demo service's own answer for a path, through the dashboard's server. */
export async function serviceJson<T = unknown>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(path);
  if (!res.ok()) throw new Error(`${path} → ${res.status()}`);
  return (await res.json()) as T;
}

/** Latest queryable day under the pinned demo clock (playwright.config.ts). */
export const LATEST = '2026-05-31';
