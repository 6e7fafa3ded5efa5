import { expect, test, type Page, type Route } from '@playwright/test';
import { LATEST, serviceJson } from './helpers';

const CHART = 'Standard credits, per day, from 2026-05-02 to 2026-05-31.';
const ticks = (page: Page) => page.getByRole('figure', { name: CHART }).locator('svg text').allTextContents();

test('the first chart is drawn before the chart library arrives, then becomes interactive on the same axes', async ({
  page,
  request,
}) => {
  // Hold the interactive renderer back until the first paint has been checked.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/RechartsTimeSeries-[\w-]+\.js$/, async (route: Route) => {
    await held;
    await route.continue();
  });
  await page.goto('/');
  const chart = page.getByRole('figure', { name: CHART });
  await expect(chart.locator('path.chart-mark')).toHaveAttribute('d', /\d/);
  await expect(chart.locator('.recharts-surface')).toHaveCount(0);
  const first = await ticks(page);
  expect(first).toContain('May 31');
  expect(first.some((t) => /^\d+(\.\d)?[KM]$/.test(t))).toBe(true);

  release();
  await expect(chart.locator('.recharts-area-area')).toHaveAttribute('d', /\d/);
  await expect(chart.locator('.chart-mark')).toHaveCount(0);
  await expect.poll(() => ticks(page)).toEqual(first);

  // Interactive now: the tooltip of the last day shows the service's exact number.
  const body = await serviceJson<{ data: { date: string; billable_tokens: number }[] }>(
    request,
    `/api/v1/analytics/tokens?startDate=2026-05-02&endDate=${LATEST}`,
  );
  const last = body.data.find((d) => d.date === LATEST)!;
  const box = (await chart.locator('.recharts-surface').boundingBox())!;
  await page.mouse.move(box.x + box.width - 24, box.y + box.height / 2);
  const tooltip = chart.locator('.recharts-tooltip-wrapper');
  await expect(tooltip).toContainText('May 31, 2026');
  await expect(tooltip).toContainText(last.billable_tokens.toLocaleString('en-US'));
});

test('when the chart library cannot be fetched, the charts stay drawn and the page keeps working', async ({ page }) => {
  await page.route(/\/assets\/RechartsTimeSeries-[\w-]+\.js$/, (route) => route.abort());
  await page.goto('/');
  const chart = page.getByRole('figure', { name: CHART });
  await expect(chart.locator('path.chart-mark')).toHaveAttribute('d', /\d/);
  await page.getByRole('button', { name: 'Weekly', exact: true }).click();
  await expect(
    page.getByRole('figure', { name: /^Standard credits, per week/ }).locator('path.chart-mark'),
  ).toHaveCount(1);
  await expect(page.getByText('This page failed to load')).toHaveCount(0);
});

test('hovering a page link fetches that page and its data before the click', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('figure', { name: CHART })).toBeVisible();
  const data = page.waitForRequest((r) => r.url().includes('/api/v1/analytics/tools?startDate=2026-05-02'));
  const chunk = page.waitForRequest(/\/assets\/ToolsPage-[\w-]+\.js$/);
  // The page's first queries, asked together on the hover (the browser may hold some back while others run).
  const inFlight = new Set<unknown>();
  page.on('request', (r) => void (r.url().includes('/api/v1/analytics/') && inFlight.add(r)));
  page.on('requestfinished', (r) => void inFlight.delete(r));
  const grouped = page.waitForResponse(
    (r) => r.url().includes('/api/v1/analytics/tools?') && r.url().includes('tool_name'),
  );
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Tools' }).hover();
  await Promise.all([data, chunk, grouped]);
  await expect.poll(() => inFlight.size).toBe(0);
  // Clicking then opens the page on data that is already here.
  let asked = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/analytics/tools?startDate=2026-05-02&endDate=2026-05-31')) asked++;
  });
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Tools' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tools' })).toBeVisible();
  await expect(page.locator('figure svg').first()).toBeVisible();
  expect(asked).toBe(0);
});
