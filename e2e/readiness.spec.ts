import { expect, test } from '@playwright/test';

test('readiness: overview, search, a repository scorecard, grouping, rationale, an earlier report and its changes', async ({
  page,
}) => {
  await page.goto('/readiness');
  // The first walk of a fresh server waits for the store to fill the reports from the service, while the server's
  // backfill and the other worker's readiness spec (the same server) run beside it: up to 20 s seen under load.
  await expect(page.getByText(/^\d+ reports of \d+ repositories/)).toBeVisible({ timeout: 30_000 });
  await expect(
    page.getByText(/^[1-5] · (Functional|Documented|Standardized|Optimized|Autonomous)$/).first(),
  ).toBeVisible();
  await expect(page.getByRole('figure', { name: /^Repositories per level: level 1: \d+/ })).toBeVisible();
  // The date range belongs to the analytics pages only.
  await expect(page.getByRole('group', { name: 'Date range' })).toHaveCount(0);

  const table = page.getByRole('table', { name: 'Repositories and their latest readiness' });
  const first = table.getByRole('link').first();
  const name = (await first.textContent())!;
  await page.getByLabel('Search repositories').fill(name.split('/')[1]!);
  await expect(page).toHaveURL(/q=/);
  await expect(table.getByRole('link', { name, exact: true })).toBeVisible();

  // Pick a repository with several reports, so an earlier one can be opened.
  await page.getByLabel('Search repositories').fill('');
  await table.getByRole('button', { name: /^Reports/ }).click();
  // Read the first row only once the table shows the new order, and open that repository by name.
  await expect(table.getByRole('columnheader', { name: /^Reports/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(page).toHaveURL(/reposSort=reports/);
  const repo = (await table.getByRole('link').first().textContent())!;
  await table.getByRole('link', { name: repo, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: repo })).toBeVisible();

  const scorecard = page.getByRole('region', { name: 'Scorecard' });
  await expect(scorecard.getByRole('heading', { name: /^Level 1 · Functional/ })).toBeVisible();
  await scorecard.getByRole('button', { name: 'By pillar' }).click();
  await expect(page).toHaveURL(/group=pillar/);
  await expect(scorecard.getByRole('heading', { name: /^Style & Validation/ })).toBeVisible();

  const item = scorecard.locator('details').first();
  await expect(item.locator('p').first()).toBeHidden();
  await item.locator('summary').click();
  await expect(item.locator('p').first()).toBeVisible();
  await expect(item.locator('p').first()).not.toBeEmpty();

  const select = page.getByRole('combobox', { name: 'Report' });
  const options = await select.locator('option').allTextContents();
  expect(options.length).toBeGreaterThan(2);
  await select.selectOption({ index: 2 });
  await expect(page).toHaveURL(/report=/);
  await expect(page.getByText('an earlier report')).toBeVisible();
  const changes = page.getByRole('region', { name: 'Changes since the previous report' });
  await expect(changes.getByText(/^Against .*: pass rate .* → .*, level \d → \d\.$/)).toBeVisible();
});

test('readiness: unsafe repository URLs never become links', async ({ page }) => {
  await page.goto('/readiness');
  const links = page.getByRole('table', { name: 'Repositories and their latest readiness' }).getByRole('link');
  await expect.poll(() => links.count()).toBeGreaterThan(5);
  for (const href of await page.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!))) {
    expect(href).not.toMatch(/^\s*javascript:/i);
  }
});
