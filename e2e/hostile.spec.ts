/** Against the hostile-content server: markup and script in every free-text field, javascript: repository URLs. */
import { expect, test } from '@playwright/test';
import { PORTS } from '../playwright.config';

test.use({ baseURL: `http://127.0.0.1:${PORTS.hostile}` });

test('no script runs and no unsafe link is made, on any page', async ({ page }) => {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const pages = ['/', '/tools', '/activity', '/productivity', '/users', '/readiness'];
  for (const p of pages) {
    await page.goto(p);
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  // The hostile text is shown as text…
  await page.goto('/tools');
  await expect(page.getByRole('cell', { name: /<script>window.__xss=1<\/script>Read/ }).first()).toBeVisible();
  await page.goto('/readiness');
  await expect
    .poll(() => page.getByRole('table', { name: 'Repositories and their latest readiness' }).getByRole('link').count())
    .toBeGreaterThan(3);
  const repo = page.getByRole('table', { name: 'Repositories and their latest readiness' }).getByRole('link').first();
  await repo.click();
  await expect(page.getByRole('region', { name: 'Scorecard' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: /^javascript:window.__xss=1\/\// })).toBeVisible();
  // …no script ran, no markup became an element, and no link points at javascript:.
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(await page.locator('main img[src="x"], main script').count()).toBe(0);
  const hrefs = await page.locator('a[href]').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
  expect(hrefs.filter((h) => h.trim().toLowerCase().startsWith('javascript:'))).toEqual([]);
  expect(dialogs).toEqual([]);
});
