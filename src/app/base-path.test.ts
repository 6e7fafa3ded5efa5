// @vitest-environment jsdom
/**
 * The base path as the app reads it from the page the server rendered: its addresses of the server's
 * (the client's requests, the CSV link, the writes) and its pages' under the base.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClientConfig } from '../api/schemas';
import { TEST_CONFIG } from '../test/render';

/** The modules as a page rendered with `basePath` loads them (each reads the page once, on import). */
async function loadUnder(basePath: string) {
  vi.resetModules();
  document.head.innerHTML = '';
  const meta = document.createElement('meta');
  meta.name = 'dashboard-config';
  meta.content = JSON.stringify({ ...TEST_CONFIG, basePath } satisfies ClientConfig);
  document.head.append(meta);
  return {
    base: await import('../data/base'),
    client: await import('../data/client'),
    csv: await import('../features/users/table-query'),
    send: await import('../data/send'),
  };
}

afterEach(() => {
  document.head.innerHTML = '';
  vi.unstubAllGlobals();
});

describe('the base path', () => {
  it('puts every address of the server’s under the base the page names', async () => {
    const { base, client, csv, send } = await loadUnder('/dashboard');
    expect(base.basePath).toBe('/dashboard');
    expect(base.atBase('/auth/logout')).toBe('/dashboard/auth/logout');
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(url);
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    });
    await client.api.get('/api/config', (await import('zod/mini')).object({}));
    await send.sendJson('PUT', '/api/spend/budgets', { budgets: [] });
    expect(asked).toEqual(['/dashboard/api/config', '/dashboard/api/spend/budgets']);
    const { usersTableParams } = await import('../api/users-table-query');
    const range = { start: '2026-05-01', end: '2026-05-31' };
    const href = csv.usersCsvHref(usersTableParams(range, [], new URLSearchParams(), null));
    expect(href).toMatch(/^\/dashboard\/api\/users\.csv\?start=2026-05-01&end=2026-05-31/);
  });

  it('names the app’s pages below the base, and is empty at the root', async () => {
    const { base } = await loadUnder('/dashboard');
    expect(base.appPath('/dashboard')).toBe('/');
    expect(base.appPath('/dashboard/')).toBe('/');
    expect(base.appPath('/dashboard/users/usr_1')).toBe('/users/usr_1');
    expect(base.appPath('/dashboardx')).toBe('/dashboardx');
    const root = (await loadUnder('')).base;
    expect(root.basePath).toBe('');
    expect(root.atBase('/api/config')).toBe('/api/config');
    expect(root.appPath('/users')).toBe('/users');
  });
});
