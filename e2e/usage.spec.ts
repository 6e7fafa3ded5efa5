import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { LATEST, serviceJson } from './helpers';

test('the landing page draws the daily credits chart for the last 30 complete UTC days', async ({ page, request }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Usage' })).toBeVisible();
  await expect(page.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
  // The browser runs in Los Angeles; the days must still be UTC days.
  await expect(page.getByText('May 2, 2026 – May 31, 2026 · 30 days, UTC')).toBeVisible();

  const chart = page.getByRole('figure', { name: 'Standard credits, per day, from 2026-05-02 to 2026-05-31.' });
  await expect(chart).toBeVisible();
  await expect(chart.locator('.recharts-area-area')).toHaveCount(1);
  await expect(chart.locator('.recharts-area-area')).toHaveAttribute('d', /\d/);
  // Axis ticks are UTC days of the range.
  await expect.poll(() => chart.locator('text').count()).toBeGreaterThan(5);
  const ticks = (await chart.locator('text').allTextContents()).filter((t) => /^[A-Z][a-z]{2} \d+$/.test(t));
  expect(ticks.length).toBeGreaterThan(3);
  const days = Array.from({ length: 30 }, (_, i) => `May ${i + 2}`);
  for (const t of ticks) expect(days).toContain(t);

  // The total on the card equals what the service returns for the range.
  const body = await serviceJson<{ data: { billable_tokens: number }[] }>(
    request,
    `/api/v1/analytics/tokens?startDate=2026-05-02&endDate=${LATEST}`,
  );
  const total = body.data.reduce((s, d) => s + d.billable_tokens, 0);
  await expect(
    page.getByText('Standard credits', { exact: true }).locator('..').getByTitle(total.toLocaleString('en-US')),
  ).toBeVisible();
});

test('a preset changes the range in the URL and the CSV holds the service numbers', async ({ page, request }) => {
  await page.goto('/');
  await page.getByRole('button', { name: '7 days' }).click();
  await expect(page).toHaveURL(/start=2026-05-25&end=2026-05-31/);
  await expect(
    page.getByRole('figure', { name: 'Standard credits, per day, from 2026-05-25 to 2026-05-31.' }),
  ).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV of Standard credits' }).click();
  const file = await (await download).path();
  const lines = readFileSync(file, 'utf8').trim().split('\r\n');
  expect(lines[0]).toBe('date,billable_tokens');
  const body = await serviceJson<{ data: { date: string; billable_tokens: number; input_tokens: number }[] }>(
    request,
    '/api/v1/analytics/tokens?startDate=2026-05-25&endDate=2026-05-31',
  );
  expect(lines.slice(1)).toEqual(body.data.map((d) => `${d.date},${d.billable_tokens}`));

  const tokens = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV of Tokens by kind' }).click();
  const tokenLines = readFileSync(await (await tokens).path(), 'utf8')
    .trim()
    .split('\r\n');
  expect(tokenLines[0]).toBe('date,input_tokens,output_tokens,cache_read_tokens,cache_write_tokens');
  expect(tokenLines.slice(1).map((l) => l.split(',').slice(0, 2).join(','))).toEqual(
    body.data.map((d) => `${d.date},${d.input_tokens}`),
  );
});

test('a custom range is clamped to history and the latest day', async ({ page }) => {
  await page.goto('/?start=2025-06-01&end=2027-01-01');
  await expect(page.getByText('Jan 14, 2026 – May 31, 2026')).toBeVisible();
  await page.getByLabel('From', { exact: true }).fill('2026-03-01');
  await page.getByLabel('to', { exact: true }).fill('2026-03-10');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/start=2026-03-01&end=2026-03-10/);
  await expect(
    page.getByRole('figure', { name: 'Standard credits, per day, from 2026-03-01 to 2026-03-10.' }),
  ).toBeVisible();
});

test('every page shows real data from its endpoint', async ({ page }) => {
  await page.goto('/');
  for (const [link, heading, widget] of [
    ['Tools', 'Tools', /^Tool calls per tool, per day/],
    ['Activity', 'Activity', /^Daily, weekly and monthly active people, per day/],
    ['Productivity', 'Productivity', /^Files created and edited, per day/],
  ] as const) {
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: link }).click();
    await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
    await expect(page.getByRole('figure', { name: widget })).toBeVisible();
  }
  await page.getByRole('link', { name: 'Users' }).click();
  await expect.poll(() => page.getByRole('table').getByRole('row').count()).toBeGreaterThan(10);
  await page.getByRole('link', { name: 'Readiness' }).click();
  await expect(page.getByText('Repositories tracked')).toBeVisible();
  await expect.poll(() => page.getByRole('table').getByRole('row').count()).toBeGreaterThan(10);
});
