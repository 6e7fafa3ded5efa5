import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { serviceJson } from './helpers';

async function csvOf(page: Page, widget: string): Promise<string[][]> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: `Download CSV of ${widget}` }).click();
  const text = readFileSync(await (await download).path(), 'utf8');
  return text
    .trim()
    .split('\r\n')
    .map((l) => l.split(','));
}

test('activity: the CSV holds the service numbers, and the weekly switch rolls them up', async ({ page, request }) => {
  await page.goto('/activity?start=2026-05-04&end=2026-05-17');
  await expect(
    page.getByRole('figure', { name: /^Daily, weekly and monthly active people, per day, from 2026-05-04/ }),
  ).toBeVisible();
  const body = await serviceJson<{ data: { date: string; daily_active_users: number; weekly_active_users: number }[] }>(
    request,
    '/api/v1/analytics/activity?startDate=2026-05-04&endDate=2026-05-17',
  );
  const daily = await csvOf(page, 'Active people');
  expect(daily[0]).toEqual(['date', 'daily_active_users', 'weekly_active_users', 'monthly_active_users']);
  expect(daily.slice(1).map((r) => [r[0], Number(r[1]), Number(r[2])])).toEqual(
    body.data.map((d) => [d.date, d.daily_active_users, d.weekly_active_users]),
  );

  await page.getByRole('button', { name: 'Weekly', exact: true }).click();
  await expect(page).toHaveURL(/interval=week/);
  await expect(page.getByRole('figure', { name: /^Daily, weekly and monthly active people, per week/ })).toBeVisible();
  const weekly = await csvOf(page, 'Active people');
  expect(weekly[0]!.slice(0, 4)).toEqual(['week_start', 'days', 'partial_week', 'daily_active_users']);
  // Two whole ISO weeks: Monday 4 May and Monday 11 May, neither partial.
  expect(weekly.slice(1).map((r) => r.slice(0, 3))).toEqual([
    ['2026-05-04', '7', 'false'],
    ['2026-05-11', '7', 'false'],
  ]);
  const firstWeek = body.data.slice(0, 7);
  const meanDau = firstWeek.reduce((s, d) => s + d.daily_active_users, 0) / 7;
  expect(Number(weekly[1]![3])).toBeCloseTo(meanDau, 6);
  expect(Number(weekly[1]![4])).toBe(firstWeek[6]!.weekly_active_users);
});

test('tools: tool-server names that differ only in case are merged, with a note and a switch', async ({ page }) => {
  await page.goto('/tools');
  const servers = page.getByRole('region', { name: 'External tool servers' });
  await expect(servers.getByText(/Merged names that differ only in letter case: axiom \(axiom, Axiom\)/)).toBeVisible();
  await expect(servers.getByRole('cell', { name: 'Axiom', exact: true })).toHaveCount(0);
  await servers.getByLabel('Show case variants apart').click();
  await expect(servers.getByLabel('Show case variants apart')).toBeChecked();
  await expect(page).toHaveURL(/servers=split/);
  await expect(servers.getByRole('cell', { name: 'Axiom', exact: true })).toBeVisible();
  await expect(servers.getByRole('cell', { name: 'axiom', exact: true })).toBeVisible();
});

test('tools: the per-tool CSV matches the grouped rows of the service', async ({ page, request }) => {
  await page.goto('/tools?start=2026-05-25&end=2026-05-31');
  await expect(page.getByRole('figure', { name: /^Tool calls per tool, per day, from 2026-05-25/ })).toBeVisible();
  const csv = await csvOf(page, 'Tool calls per tool');
  const header = csv[0]!;
  const body = await serviceJson<{ data: { date: string; group_key: string; tool_calls: number }[] }>(
    request,
    '/api/v1/analytics/tools?startDate=2026-05-25&endDate=2026-05-31&group_by=tool_name',
  );
  for (const row of csv.slice(1)) {
    const rows = body.data.filter((g) => g.date === row[0]);
    const total = rows.reduce((s, g) => s + g.tool_calls, 0);
    expect(row.slice(1).reduce((s, v) => s + Number(v), 0)).toBe(total);
    const read = rows.find((g) => g.group_key === 'Read')!.tool_calls;
    expect(Number(row[header.indexOf('Read')])).toBe(read);
  }
});

test('productivity: sorting a table lives in the URL and survives a reload', async ({ page }) => {
  await page.goto('/productivity');
  const languages = page.getByRole('region', { name: 'Operations by language' });
  await languages.getByRole('button', { name: /^Language/ }).click();
  await expect(page).toHaveURL(/languagesSort=name%3Aasc|languagesSort=name:asc/);
  const names = await languages.locator('tbody tr td:first-child').allTextContents();
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  await page.reload();
  await expect(languages.getByRole('columnheader', { name: /Language/ })).toHaveAttribute('aria-sort', 'ascending');
});

test('KPI cards compare with the previous period only inside history', async ({ page }) => {
  await page.goto('/?start=2026-01-14&end=2026-01-31');
  await expect(page.getByText('no earlier period').first()).toBeVisible();
  await page.goto('/?start=2026-05-02&end=2026-05-31');
  await expect(page.getByText(/vs previous period/).first()).toBeVisible();
  // A calendar month is compared with the month before, and says so.
  await page.getByRole('button', { name: 'Last month' }).click();
  await expect(page).toHaveURL(/start=2026-05-01&end=2026-05-31/);
  await expect(page.getByText(/vs April$/).first()).toBeVisible();
  await expect(page.getByText(/vs previous period/)).toHaveCount(0);
});
