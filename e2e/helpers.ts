import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { PORTS } from '../playwright.config';

/** The dashboard with sign-in (playwright.config.ts). */
export const SIGN_IN_BASE = `http://127.0.0.1:${PORTS.signIn}`;

/**
 * Signs in through the provider's own pages, as a person does it (the login form, then the consent), back at `path`
 * of the dashboard at `base` (the sign-in one's by default).
 */
export async function signIn(page: Page, email: string, path = '/', base = SIGN_IN_BASE) {
  await page.goto(`${base}${path}`);
  await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${PORTS.oidc}/`));
  await page.locator('input[name="login"]').fill(email);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(new RegExp(`^${base}${path.replace(/[?]/g, '\\?')}`));
}

/** The demo service's own answer for a path, through the dashboard's server. */
export async function serviceJson<T = unknown>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(path);
  if (!res.ok()) throw new Error(`${path} → ${res.status()}`);
  return (await res.json()) as T;
}

/** Latest queryable day under the pinned demo clock (playwright.config.ts). */
export const LATEST = '2026-05-31';

/** What axe finds serious or critical on the page (WCAG 2.1 A and AA), one line each; it checks contrast too. */
export async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  // The checks did run, colour contrast included.
  expect(results.passes.map((p) => p.id)).toContain('color-contrast');
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes[0]?.target.join(' ')} — ${v.help}`);
}

/** The same in the light and then the dark theme, each line led by its theme; the page is left in the light one. */
export async function seriousInBothThemes(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    found.push(...(await seriousViolations(page)).map((v) => `${scheme}: ${v}`));
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}
