import { expect, test } from '@playwright/test';
import { SIGN_IN_BASE, signIn } from './helpers';

const BASE = SIGN_IN_BASE;

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
  await expect(m.getByText(`${mine.total} of ${mine.total} people active in the range`)).toBeVisible();
  const theirs = new Set(mine.users.map((u) => u.userId));
  const outsider = everyone.users.find((u) => !theirs.has(u.userId))!;
  expect((await m.request.get(`${BASE}/api/users/${encodeURIComponent(outsider.userId)}`)).status()).toBe(403);
  // The service's own per-user rows carry their people only.
  const rows = (await (
    await m.request.get(`${BASE}/api/v1/analytics/users?startDate=2026-05-02&endDate=2026-05-31&limit=100`)
  ).json()) as { data: { user_id: string }[] };
  expect(rows.data.length).toBeGreaterThan(0);
  expect(rows.data.every((r) => theirs.has(r.user_id))).toBe(true);

  await m.getByRole('button', { name: 'Sign out' }).click();
  await expect(m.getByRole('heading', { name: 'Signed out' })).toBeVisible();
  expect((await m.request.get(`${BASE}/api/users`)).status()).toBe(401);
  await admin.close();
  await ctx.close();
});

test('sign-in: a viewer opens their own page from the header, and no other person’s row anywhere', async ({
  browser,
}) => {
  const admin = await browser.newContext();
  const a = await admin.newPage();
  await signIn(a, 'admin@acme.example', '/teams');
  const everyone = (await (await a.request.get(`${BASE}/api/users?limit=1000`)).json()) as {
    users: { userId: string; email: string | null }[];
  };
  const teams = (await (await a.request.get(`${BASE}/api/teams`)).json()) as {
    teams: { managers: string[]; children: unknown[] }[];
  };
  const managers = new Set(JSON.stringify(teams.teams).match(/[\w.+-]+@[\w.-]+/g));
  const self = everyone.users.find((u) => u.email && !managers.has(u.email))!;
  await admin.close();

  const ctx = await browser.newContext();
  const v = await ctx.newPage();
  await signIn(v, self.email!, '/');
  const nav = v.getByRole('navigation', { name: 'Pages' });
  await expect(nav.getByRole('link', { name: 'Usage' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Users' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Teams' })).toHaveCount(0);
  // Nor the team tree: no team selector, and the server refuses it.
  await expect(v.getByRole('button', { name: /All teams/ })).toHaveCount(0);
  expect((await v.request.get(`${BASE}/api/teams`)).status()).toBe(403);
  // The landing page's top users are other people's rows: a note, and their own figures instead.
  await expect(v.getByText('Other people’s figures are shown to their managers and admins.')).toBeVisible();
  // The header names them (the provider's name for the account) and links to their own page.
  await v.getByRole('link', { name: self.email!.split('@')[0]!, exact: true }).click();
  await expect(v).toHaveURL(new RegExp(`/users/${encodeURIComponent(self.userId)}`));
  await expect(v.getByRole('heading', { name: self.email! })).toBeVisible();
  await v.goto(`${BASE}/users`);
  await expect(v.getByRole('heading', { name: 'Not shown to you' })).toBeVisible();
  const other = everyone.users.find((u) => u.userId !== self.userId)!;
  expect((await v.request.get(`${BASE}/api/users/${encodeURIComponent(other.userId)}`)).status()).toBe(403);
  expect((await v.request.get(`${BASE}/api/users.csv`)).status()).toBe(403);
  expect((await v.request.get(`${BASE}/api/teams/top-users`)).status()).toBe(403);
  await ctx.close();
});
