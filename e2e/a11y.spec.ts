/** Accessibility of every page, in light and dark: axe finds nothing serious, keys reach everything. */
import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './helpers';

const PAGES = [
  ['usage', '/'],
  ['tools', '/tools'],
  ['activity', '/activity'],
  ['productivity', '/productivity'],
  ['users', '/users'],
  ['readiness', '/readiness'],
] as const;

async function settle(page: Page) {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.getByText('Drawing chart…')).toHaveCount(0);
  await expect(page.locator('[role="status"]:has-text("Loading")')).toHaveCount(0);
}

for (const scheme of ['light', 'dark'] as const) {
  for (const [name, path] of PAGES) {
    test(`axe: ${name} page, ${scheme} theme`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(path);
      await settle(page);
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(scheme === 'dark');
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
}

test('axe: a user page and a repository page', async ({ page }) => {
  await page.goto('/users');
  await page.getByRole('table', { name: 'Users active in the range' }).getByRole('link').first().click();
  await settle(page);
  expect(await seriousViolations(page)).toEqual([]);
  await page.goto('/readiness');
  await page.getByRole('table', { name: 'Repositories and their latest readiness' }).getByRole('link').first().click();
  await settle(page);
  expect(await seriousViolations(page)).toEqual([]);
});

for (const scheme of ['light', 'dark'] as const) {
  for (const [name, path] of PAGES) {
    test(`keyboard: ${name} page, ${scheme} theme — every stop shows focus, and Tab reaches the content`, async ({
      page,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(path);
      await settle(page);
      let reachedMain = false;
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press('Tab');
        const stop = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          if (!el || el === document.body) return null;
          const cs = getComputedStyle(el);
          return {
            tag: el.tagName,
            label: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40),
            visible: cs.outlineStyle !== 'none' && cs.outlineWidth !== '0px',
            inMain: !!el.closest('main'),
          };
        });
        if (!stop) continue;
        expect(stop.visible, `focus ring on ${stop.tag} “${stop.label}”`).toBe(true);
        if (stop.inMain) reachedMain = true;
      }
      expect(reachedMain).toBe(true);
    });
  }
}
