import { expect, test } from '@playwright/test';
import { PORTS, PRIVACY_MIN_GROUP } from '../playwright.config';
import { signIn } from './helpers';

const BASE = `http://127.0.0.1:${PORTS.privacy}`;
const K = PRIVACY_MIN_GROUP;

test('privacy mode: a manager sees the mode said, and their people as pseudonyms without emails or links', async ({
  browser,
}) => {
  const admin = await browser.newContext();
  const a = await admin.newPage();
  await signIn(a, 'admin@acme.example', '/users', BASE);
  await expect(a.getByRole('note')).toContainText(`Privacy mode: groups under ${K} people are not shown`);
  await expect(a.getByRole('note')).toContainText('You see names, and each view of a named person is logged.');
  const teams = (await (await a.request.get(`${BASE}/api/teams`)).json()) as {
    teams: { path: string; members: number; managers: string[] }[];
  };
  const team = teams.teams.find((t) => t.managers.length > 0 && t.members >= 2 * K)!;
  expect(team).toBeDefined();

  const ctx = await browser.newContext();
  const m = await ctx.newPage();
  await signIn(m, team.managers[0]!, '/users', BASE);
  await expect(m.getByRole('note')).toHaveText(
    `Privacy mode: groups under ${K} people are not shown; people are pseudonymous.`,
  );
  const table = m.locator('main table');
  await expect(table.getByText(/^Person [0-9a-f]{10}$/).first()).toBeVisible();
  expect(await table.innerText()).not.toContain('@');
  await expect(table.locator('a[href*="/users/"]')).toHaveCount(0);
  await expect(m.getByRole('searchbox')).toBeDisabled();
  await expect(m.getByText('People are pseudonymous in privacy mode: no search by email or id.')).toBeVisible();
  await admin.close();
  await ctx.close();
});
