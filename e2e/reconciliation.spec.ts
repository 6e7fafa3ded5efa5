import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { PORTS, PRIVACY_MIN_GROUP } from '../playwright.config';
import type { Reconciliation } from '../src/api/reconciliation';
import { SIGN_IN_BASE, seriousInBothThemes, signIn } from './helpers';

const RANGE = 'start=2026-05-04&end=2026-05-17';
const DAYS = 14;

test('reconciliation: an admin finds it beside the teams, every day explained, by figure, with its CSV, desk and phone', async ({
  page,
}) => {
  // Two widths, two themes each, on two cores beside the other specs' servers.
  test.slow();
  await signIn(page, 'admin@acme.example', `/teams?${RANGE}`);
  // The per-person rows of the range are in the store (the background sync, or this page's asking, fills them).
  expect((await page.request.get(`${SIGN_IN_BASE}/api/figures?${RANGE}&measure=credits`)).ok()).toBe(true);
  const answer = (await (
    await page.request.get(`${SIGN_IN_BASE}/api/reconciliation?${RANGE}`)
  ).json()) as Reconciliation;
  expect(answer.days).toHaveLength(DAYS);
  for (const d of answer.days) {
    expect(d.synced, d.day).toBe(true);
    for (const [m, f] of Object.entries(d.figures)) expect(f.unexplained, `${d.day} ${m}`).toBe(0);
  }

  // From the teams page, where its settings are: the range goes along.
  await page.getByRole('link', { name: 'Reconciliation', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/reconciliation\\?${RANGE}`));
  await expect(page.getByRole('heading', { level: 1, name: 'Reconciliation' })).toBeVisible();
  await expect(page.getByText('How this is counted:')).toBeVisible();
  const status = page.getByRole('status', { name: 'What the days say' });
  await expect(status).toContainText('Every difference in this range is explained: nothing is left unexplained.');
  await expect(status).not.toContainText('not yet synced');
  const table = page.getByRole('region', { name: 'Credits, each day' });
  await expect(table.getByRole('row')).toHaveCount(DAYS + 1);
  await expect(table.getByRole('columnheader', { name: /Outside the mapping/ })).toBeVisible();
  // The first day as the server gives it, in full.
  const first = answer.days[0]!.figures.credits;
  const row = table.getByRole('row').nth(1);
  await expect(row.locator('td[data-label="Service"]')).toHaveText(first.service.toLocaleString('en-US'));
  await expect(row.locator('td[data-label="Outside the mapping"]')).toHaveText(first.outside.toLocaleString('en-US'));
  await expect(page.getByRole('region', { name: 'The difference, by part' }).getByRole('figure')).toBeVisible();

  // Another figure: its own table, kept in the URL.
  await page.getByRole('group', { name: 'Figure' }).getByRole('button', { name: 'Sessions' }).click();
  await expect(page).toHaveURL(/figure=sessions/);
  await expect(page.getByRole('region', { name: 'Sessions, each day' }).getByRole('row')).toHaveCount(DAYS + 1);

  // Every figure of every day in one file.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV of every figure' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('reconciliation-2026-05-04-2026-05-17.csv');
  const lines = readFileSync(await file.path(), 'utf8')
    .trim()
    .split(/\r?\n/);
  expect(lines[0]).toBe('date,figure,state,service,dashboard,difference,not_synced,outside_mapping,unexplained');
  expect(lines).toHaveLength(DAYS * 5 + 1);
  expect(lines.every((l, i) => i === 0 || l.endsWith(',0'))).toBe(true);

  expect(await seriousInBothThemes(page)).toEqual([]);
  // On a phone (opened there: a chart's tooltip hovered on the desk keeps its place when the window narrows): the
  // screen fits its width, the days as cards.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole('region', { name: 'Sessions, each day' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await seriousInBothThemes(page)).toEqual([]);
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('reconciliation: a manager in privacy mode sees their teams’ share, beside the service’s totals', async ({
  browser,
}) => {
  test.slow();
  const base = `http://127.0.0.1:${PORTS.privacy}`;
  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, 'admin@acme.example', '/teams', base);
  const { teams } = (await (await admin.request.get(`${base}/api/teams`)).json()) as {
    teams: { path: string; members: number; managers: string[] }[];
  };
  const team = teams.find((t) => t.managers.length > 0 && t.members >= 2 * PRIVACY_MIN_GROUP)!;
  expect(team).toBeDefined();
  expect((await admin.request.get(`${base}/api/figures?${RANGE}&measure=credits`)).ok()).toBe(true);

  const m = await (await browser.newContext()).newPage();
  await signIn(m, team.managers[0]!, `/reconciliation?${RANGE}`, base);
  await expect(m.getByRole('heading', { level: 1, name: 'Reconciliation' })).toBeVisible();
  const answer = (await (await m.request.get(`${base}/api/reconciliation?${RANGE}`)).json()) as Reconciliation;
  expect(answer.outside).toBe('teams');
  expect(answer.teams).toContain(team.path);
  expect(answer.withheld?.minGroup).toBe(PRIVACY_MIN_GROUP);
  await expect(
    m.getByText(new RegExp(`the sum over the people of .*${team.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)),
  ).toBeVisible();
  const table = m.getByRole('region', { name: 'Credits, each day' });
  await expect(table.getByRole('columnheader', { name: /Outside your teams/ })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(DAYS + 1);
  await expect(m.getByRole('status', { name: 'What the days say' })).toContainText(
    'Every difference in this range is explained',
  );
  // No one named: no email, id or pseudonym on the page.
  expect(await m.locator('main').innerText()).not.toMatch(/@|Person [0-9a-f]{10}/);
  expect(await seriousInBothThemes(m)).toEqual([]);
});
