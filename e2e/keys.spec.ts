/** Against a dashboard with neither a server key nor the demo service: the browser brings the key. */
import { expect, test } from '@playwright/test';
import { PORTS } from '../playwright.config';

test.use({ baseURL: `http://127.0.0.1:${PORTS.keyless}` });

test('asks for a key, says when it is refused, explains the Manager/Owner role, and never stores it in local storage', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Enter an API key' })).toBeVisible();

  await page.getByLabel('API key').fill('not-a-key');
  await page.getByRole('button', { name: 'Use this key' }).click();
  await expect(page.getByRole('alert')).toContainText('did not accept the key (401)');

  await page.getByLabel('API key').fill('demo-member');
  await page.getByRole('button', { name: 'Use this key' }).click();
  const alert = page.getByRole('region', { name: 'Standard credits' }).getByRole('alert');
  await expect(alert).toContainText('403 Forbidden');
  await expect(alert).toContainText('Manager or Owner role');
  // Readiness is open to any valid key.
  await page.getByRole('link', { name: 'Readiness' }).click();
  await expect(page.getByText(/^[\d,]+ reports of [\d,]+ repositories/)).toBeVisible({ timeout: 20_000 });

  await page.getByRole('button', { name: 'Forget key' }).click();
  await page.getByLabel('API key').fill('demo-manager');
  await page.getByRole('button', { name: 'Use this key' }).click();
  await page.getByRole('link', { name: 'Usage' }).click();
  await expect(page.getByRole('region', { name: 'Standard credits' }).getByRole('figure')).toBeVisible();

  const local = await page.evaluate(() => JSON.stringify(localStorage));
  expect(local).not.toContain('demo-manager');
  expect(page.url()).not.toContain('demo-manager');
});
