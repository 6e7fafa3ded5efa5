/**
 * The dashboard served under /dashboard/ (BASE_PATH), with sign-in, behind a reverse proxy that forwards
 * the prefix unchanged and answers 404 to anything else (scripts/base-path-proxy.ts): a request of the
 * page's that escaped the prefix would fail, and is looked for.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { BASE_PATH, PORTS } from '../playwright.config';

const PROXY = `http://127.0.0.1:${PORTS.proxy}`;
const PROVIDER = `http://127.0.0.1:${PORTS.oidc}`;
const HOME = `${PROXY}${BASE_PATH}/`;
const at = (path: string) => new RegExp(`^${PROXY}${BASE_PATH}${path}(\\?|$)`);

test('under /dashboard/ behind a proxy: sign-in, every page by its links, a person, a CSV, sign-out; every request stays under the prefix', async ({
  page,
  context,
  request,
}) => {
  // Each request, and the page that made it (the provider's own sign-in pages load what they like).
  const asked: { url: string; from: string }[] = [];
  page.on('request', (r) => asked.push({ url: r.url(), from: r.frame().url() }));

  // Sign-in starts and ends under the prefix.
  await page.goto(HOME);
  await expect(page).toHaveURL(new RegExp(`^${PROVIDER}/`));
  await page.locator('input[name="login"]').fill('admin@acme.example');
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(at('/'));
  await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  // The session cookie goes with the dashboard's requests, and with no other path of the host.
  const session = (await context.cookies(HOME)).find((c) => c.name === 'session');
  expect(session?.path).toBe(BASE_PATH);
  expect((await context.cookies(`${PROXY}/elsewhere/`)).map((c) => c.name)).not.toContain('session');

  // Every page by the navigation's links.
  const nav = page.getByRole('navigation', { name: 'Pages' });
  for (const [name, path] of [
    ['Tools', '/tools'],
    ['Activity', '/activity'],
    ['Productivity', '/productivity'],
    ['Teams', '/teams'],
    ['Readiness', '/readiness'],
    ['Usage', '/'],
    ['Users', '/users'],
  ] as const) {
    await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute(
      'href',
      new RegExp(`^${BASE_PATH}${path}`),
    );
    await nav.getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL(at(path));
    await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
  }

  // The users table's CSV, from the server.
  const table = page.getByRole('table', { name: 'Users active in the range' });
  await expect.poll(() => table.getByRole('row').count()).toBeGreaterThan(1);
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download CSV of Users' }).click();
  const csv = await download;
  expect(csv.url().startsWith(`${PROXY}${BASE_PATH}/api/users.csv?`)).toBe(true);
  expect(csv.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = readFileSync(await csv.path(), 'utf8')
    .trim()
    .split('\n');
  expect(lines[0]).toMatch(/^\uFEFF?user_id,user_email,/);
  expect(lines.length).toBeGreaterThan(1);

  // A person's page by its link, then opened afresh at its own address (a nested route loads its code).
  const person = table.getByRole('link').first();
  const name = (await person.textContent())!;
  await person.click();
  await expect(page).toHaveURL(at('/users/[^/?]+'));
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Daily rows' })).toBeVisible();

  // A repository's scorecard by its link.
  await nav.getByRole('link', { name: 'Readiness', exact: true }).click();
  const repos = page.getByRole('table', { name: 'Repositories and their latest readiness' });
  const repo = (await repos.getByRole('link').first().textContent())!;
  await repos.getByRole('link', { name: repo, exact: true }).click();
  await expect(page).toHaveURL(at('/readiness/[^?]+'));
  await expect(page.getByRole('heading', { level: 1, name: repo })).toBeVisible();

  // Signing out posts under the prefix, and the way back in is under it too.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Signed out' })).toBeVisible();
  await expect(page).toHaveURL(at('/auth/logout'));
  await expect(page.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', `${BASE_PATH}/auth/login`);

  // Nothing the browser asked for left the prefix (or went anywhere but the provider).
  expect(asked.length).toBeGreaterThan(20);
  const escaped = asked.filter(({ url, from }) => {
    const u = new URL(url);
    if (u.origin === PROXY) return !u.pathname.startsWith(`${BASE_PATH}/`);
    return u.origin !== PROVIDER && !from.startsWith(PROVIDER);
  });
  expect(escaped).toEqual([]);
  const urls = asked.map((a) => a.url);
  for (const part of ['assets/', 'api/v1/analytics/', 'api/users?', 'auth/callback?', 'auth/logout'])
    expect(
      urls.some((u) => u.startsWith(`${HOME}${part}`)),
      part,
    ).toBe(true);

  // And the proxy does fail what escapes it.
  expect((await request.get(`${PROXY}/api/config`)).status()).toBe(404);
  expect((await request.get(`${PROXY}/assets/x.js`)).status()).toBe(404);
});
