/**
 * Against the faults server (playwright.config.ts FAULTS): each endpoint
 * fails a fixed number of times, the error stays inside the widget it
 * affects with what the service said, and Retry recovers.
 */
import { expect, test, type Page } from '@playwright/test';
import { PORTS } from '../playwright.config';

test.use({ baseURL: `http://127.0.0.1:${PORTS.faults}` });
test.describe.configure({ mode: 'serial' });

const widget = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

async function expectContained(page: Page, failing: string, healthy: string) {
  const w = widget(page, failing);
  await expect(w.getByRole('alert')).toBeVisible({ timeout: 20_000 });
  // The rest of the page keeps working.
  await expect(widget(page, healthy).getByRole('figure')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Pages' })).toBeVisible();
  return w;
}

// First: the landing page's headline figures fill `/users` days too, and would take the one broken answer.
test('a response that breaks the contract names the endpoint and the field', async ({ page }) => {
  await page.goto('/users');
  const w = widget(page, 'Users');
  await expect(w.getByRole('alert')).toBeVisible({ timeout: 20_000 });
  await expect(w.getByRole('alert')).toContainText('/api/v1/analytics/users');
  await expect(w.getByRole('alert')).toContainText(/data\[0\]\.(tool_calls|billable_tokens)/);
  await w.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('table', { name: 'Users active in the range' })).toBeVisible();
});

test('500 on one grouped query: only that chart fails, with the request id; Retry recovers', async ({ page }) => {
  await page.goto('/');
  const w = await expectContained(page, 'Credits per model', 'Tokens by kind');
  await expect(w.getByRole('alert')).toContainText('500 Internal Server Error');
  await expect(w.getByRole('alert')).toContainText('Injected fault: the service failed.');
  await expect(w.getByRole('alert')).toContainText(/Request id: req_[0-9A-Z]{26}/);
  await w.getByRole('button', { name: 'Retry' }).click();
  await expect(w.getByRole('figure')).toBeVisible();
  await expect(w.getByRole('alert')).toHaveCount(0);
});

test('429 after the server’s own retries: the widget says when to retry; Retry recovers', async ({ page }) => {
  await page.goto('/activity');
  const w = await expectContained(page, 'Daily active people per client', 'Active people');
  await expect(w.getByRole('alert')).toContainText('429 Too Many Requests');
  await expect(w.getByRole('alert')).toContainText('retry in 1 s');
  await w.getByRole('button', { name: 'Retry' }).click();
  await expect(w.getByRole('figure')).toBeVisible();
});

test('a truncated body: a readable error in the widget; Retry recovers', async ({ page }) => {
  await page.goto('/tools');
  const w = await expectContained(page, 'Tool calls per tool', 'Autonomy levels');
  await expect(w.getByRole('alert')).toContainText(/Network error|Incomplete response/);
  await w.getByRole('button', { name: 'Retry' }).click();
  await expect(w.getByRole('figure')).toBeVisible();
});

test('malformed JSON: says so and shows what came back; Retry recovers', async ({ page }) => {
  await page.goto('/productivity');
  const w = widget(page, 'Files created and edited');
  await expect(w.getByRole('alert')).toBeVisible({ timeout: 20_000 });
  await expect(w.getByRole('alert')).toContainText('Malformed response');
  await expect(w.getByRole('alert')).toContainText('did not return valid JSON');
  await expect(page.getByRole('heading', { level: 1, name: 'Productivity' })).toBeVisible();
  await w.getByRole('button', { name: 'Retry' }).click();
  await expect(w.getByRole('figure')).toBeVisible();
});

test('a hanging service: the server answers 504 in time; Retry recovers', async ({ page }) => {
  await page.goto('/readiness');
  const alert = page.getByRole('alert').first();
  await expect(alert).toBeVisible({ timeout: 30_000 });
  await expect(alert).toContainText('504');
  await expect(alert).toContainText('did not answer within 0.8 s');
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByText(/^\d+ reports of \d+ repositories/)).toBeVisible({ timeout: 20_000 });
});
