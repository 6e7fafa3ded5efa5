import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { serviceJson } from './helpers';

interface Row {
  user_id: string;
  user_email: string | null;
  date: string;
  billable_tokens: number;
  tool_calls: number;
  sessions: number;
}

async function allRows(request: Parameters<typeof serviceJson>[0], start: string, end: string): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor = '';
  for (;;) {
    const page = await serviceJson<{ data: Row[]; meta: { has_more: boolean; next_cursor?: string } }>(
      request,
      `/api/v1/analytics/users?startDate=${start}&endDate=${end}&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
    );
    rows.push(...page.data);
    if (!page.meta.has_more) return rows;
    cursor = page.meta.next_cursor!;
  }
}

test('users: sort, search, open the top user, and the totals match the service rows', async ({ page, request }) => {
  const start = '2026-05-02';
  const end = '2026-05-31';
  const rows = await allRows(request, start, end);
  const byUser = new Map<string, Row[]>();
  for (const r of rows) byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), r]);
  const credits = [...byUser.entries()].map(([id, rs]) => [id, rs.reduce((s, r) => s + r.billable_tokens, 0)] as const);
  credits.sort((a, b) => b[1] - a[1]);

  // The range written out (it is the default one): links carry it to the user page.
  await page.goto(`/users?start=${start}&end=${end}`);
  await expect(page.getByText(`${byUser.size} of ${byUser.size} people active in the range`)).toBeVisible();
  const table = page.getByRole('table', { name: 'Users active in the range' });

  // Sorted by credits, largest first, by default; a click sorts ascending and writes the URL.
  await expect(table.getByRole('columnheader', { name: /Credits/ })).toHaveAttribute('aria-sort', 'descending');
  await table.getByRole('button', { name: /^Credits/ }).click();
  await expect(page).toHaveURL(/usersSort=credits%3Aasc|usersSort=credits:asc/);
  await expect(table.getByRole('columnheader', { name: /Credits/ })).toHaveAttribute('aria-sort', 'ascending');
  await table.getByRole('button', { name: /^Credits/ }).click();

  const [topId, topCredits] = credits[0]!;
  const top = byUser.get(topId)!;
  const label = top[0]!.user_email ?? topId;
  await expect(table.getByRole('row').nth(1)).toContainText(label);

  // Search narrows the list, and the query is in the URL.
  await page.getByLabel('Search by email or id').fill(label.slice(0, 12));
  await expect(page).toHaveURL(/q=/);
  await expect(table.getByRole('link', { name: label })).toBeVisible();

  await table.getByRole('link', { name: label }).click();
  await expect(page).toHaveURL(new RegExp(`/users/${topId}\\?start=${start}&end=${end}`));
  await expect(page.getByRole('heading', { level: 1, name: label })).toBeVisible();
  const kpi = (name: string) => page.getByText(name, { exact: true }).locator('..');
  await expect(kpi('Standard credits').getByTitle(topCredits.toLocaleString('en-US'))).toBeVisible();
  const toolCalls = top.reduce((s, r) => s + r.tool_calls, 0);
  await expect(kpi('Tool calls').getByTitle(toolCalls.toLocaleString('en-US'))).toBeVisible();
  await expect(kpi('Active days').getByTitle(String(top.length))).toBeVisible();
  await expect(page.getByRole('table', { name: 'Daily rows' }).getByRole('row')).toHaveCount(top.length + 1);
});

test('users: filters and the column chooser live in the URL', async ({ page }) => {
  await page.goto('/users?delegation=manual');
  await expect(page.getByRole('combobox', { name: 'Delegation' })).toHaveValue('manual');
  const table = page.getByRole('table', { name: 'Users active in the range' });
  await expect.poll(() => table.getByRole('row').count()).toBeGreaterThan(1);
  // The Delegation column, wherever the columns shown put it (a team column comes with the store's mapping).
  const headers = await table.locator('thead th').allTextContents();
  const column = headers.findIndex((h) => h.startsWith('Delegation')) + 1;
  expect(column).toBeGreaterThan(0);
  await expect(table.getByRole('columnheader', { name: 'Team' })).toBeVisible();
  const cells = await table.locator(`tbody tr td:nth-child(${column})`).allTextContents();
  expect(cells.length).toBeGreaterThan(0);
  expect(cells.every((c) => c === 'manual')).toBe(true);

  await page.getByText('Columns', { exact: true }).click();
  await page.getByRole('checkbox', { name: 'Commits' }).click();
  await expect(page).toHaveURL(/cols=.*commits/);
  await expect(table.getByRole('columnheader', { name: /Commits/ })).toBeVisible();
});

test('the credits page links its top users to their pages', async ({ page }) => {
  await page.goto('/');
  const top = page.getByRole('region', { name: 'Top users by credits' }).getByRole('link').first();
  const name = await top.textContent();
  await top.click();
  await expect(page.getByRole('heading', { level: 1, name: name! })).toBeVisible();
});

test('users: the first rows come with the page, preloaded, and are asked for once', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/users') asked.push(r.url());
  });
  await page.goto('/users?start=2026-05-02&end=2026-05-31&usersSort=user:asc');
  const table = page.getByRole('table', { name: 'Users active in the range' });
  await expect(page.getByText(/^[\d,]+ of [\d,]+ people active in the range$/)).toBeVisible();
  // The preload, not a second request, answered the page: one request, started by the page's <link>.
  expect(asked).toHaveLength(1);
  const initiators = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => new URL(e.name).pathname === '/api/users')
      .map((e) => (e as PerformanceResourceTiming).initiatorType),
  );
  expect(initiators).toEqual(['link']);
  // And it is the table the URL asks for: sorted by email, A to Z.
  const emails = await table.getByRole('row').locator('td:nth-child(1)').allTextContents();
  expect(emails.length).toBeGreaterThan(1);
  expect(emails).toEqual([...emails].sort((a, b) => a.localeCompare(b)));
});

test('users: the known people not active in the range, each with their last active day, listed and exported', async ({
  page,
  request,
}) => {
  const start = '2026-05-18';
  const end = '2026-05-31';
  const active = new Set((await allRows(request, start, end)).map((r) => r.user_id));
  // Everyone seen since the history starts, by the range's end: those not active in it, with their latest day.
  const lastDay = new Map<string, string>();
  for (const r of await allRows(request, '2026-01-14', end))
    if (!active.has(r.user_id) && (lastDay.get(r.user_id) ?? '') < r.date) lastDay.set(r.user_id, r.date);
  expect(lastDay.size).toBeGreaterThan(0);

  await page.goto(`/users?start=${start}&end=${end}`);
  const listed = page.getByRole('group', { name: 'People listed' });
  await expect(listed.getByRole('button', { name: `Not active (${lastDay.size})` })).toBeVisible();
  await listed.getByRole('button', { name: /^Not active/ }).click();
  await expect(page).toHaveURL(/[?&]who=inactive/);
  await expect(page.getByText(`${lastDay.size} of ${lastDay.size} known people not active in the range`)).toBeVisible();
  const table = page.getByRole('table', { name: 'Known people not active in the range' });
  await expect(table.getByRole('columnheader', { name: /^Last active/ })).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download CSV of Users' }).click();
  const csv = parse(readFileSync(await (await download).path(), 'utf8'), { columns: true }) as Record<string, string>[];
  expect(csv).toHaveLength(lastDay.size);
  for (const r of csv) {
    expect(r.last_active_day).toBe(lastDay.get(r.user_id!));
    expect(r.active_days).toBe('0');
    expect(r.first_day).toBe('');
  }
});
