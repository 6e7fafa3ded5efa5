import { expect, test, type Page } from '@playwright/test';
import { PORTS } from '../playwright.config';

const BASE = `http://127.0.0.1:${PORTS.signIn}`;

/** Through the provider's own pages, as a person does it: the login form, then the consent. */
async function signIn(page: Page, email: string, path = '/') {
  await page.goto(`${BASE}${path}`);
  await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${PORTS.oidc}/`));
  await page.locator('input[name="login"]').fill(email);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(new RegExp(`^${BASE}${path.replace(/[?]/g, '\\?')}`));
}

test('sign-in: an admin and a manager sign in through the provider; the manager sees only their people; sign-out', async ({
  browser,
}) => {
  const admin = await browser.newContext();
  const a = await admin.newPage();
  await signIn(a, 'admin@acme.example', '/users');
  await expect(a.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(a.getByText('admin', { exact: true })).toBeVisible();
  const everyone = (await (await a.request.get(`${BASE}/api/users?limit=1000`)).json()) as {
    users: { userId: string }[];
  };
  const teams = (await (await a.request.get(`${BASE}/api/teams`)).json()) as {
    teams: { path: string; members: number; managers: string[] }[];
  };
  const team = teams.teams.find((t) => t.managers.length > 0 && t.members > 3)!;
  const manager = team.managers[0]!;

  const ctx = await browser.newContext();
  const m = await ctx.newPage();
  await signIn(m, manager, '/users');
  const mine = (await (await m.request.get(`${BASE}/api/users?limit=1000`)).json()) as {
    users: { userId: string }[];
    total: number;
  };
  expect(mine.total).toBeGreaterThan(0);
  expect(mine.total).toBeLessThan(everyone.users.length);
  await expect(m.getByText(`${mine.total} of ${mine.total} users active in the range`)).toBeVisible();
  const theirs = new Set(mine.users.map((u) => u.userId));
  const outsider = everyone.users.find((u) => !theirs.has(u.userId))!;
  expect((await m.request.get(`${BASE}/api/users/${encodeURIComponent(outsider.userId)}`)).status()).toBe(403);
  expect((await m.request.get(`${BASE}/api/v1/analytics/users?startDate=2026-05-01&endDate=2026-05-02`)).status()).toBe(
    403,
  );

  await m.getByRole('button', { name: 'Sign out' }).click();
  await expect(m.getByRole('heading', { name: 'Signed out' })).toBeVisible();
  expect((await m.request.get(`${BASE}/api/users`)).status()).toBe(401);
  await admin.close();
  await ctx.close();
});
