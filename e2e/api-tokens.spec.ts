import { expect, test } from '@playwright/test';
import { SIGN_IN_BASE, seriousViolations, signIn } from './helpers';

const BASE = SIGN_IN_BASE;

/** The token's answer to `/api/me`, asked as a script would (no cookie). */
const asToken = (token: string) => fetch(`${BASE}/api/me`, { headers: { authorization: `Bearer ${token}` } });

for (const { width, height, who } of [
  { width: 1440, height: 900, who: 'tokens-wide@acme.example' },
  { width: 390, height: 844, who: 'tokens-phone@acme.example' },
]) {
  test(`API tokens at ${width} px: a person makes a token from the header, sees it once, uses it, and revokes it`, async ({
    browser,
  }, testInfo) => {
    test.slow();
    const ctx = await browser.newContext({ viewport: { width, height } });
    const page = await ctx.newPage();
    await signIn(page, who, '/');
    await page.getByRole('link', { name: 'API tokens' }).click();
    await expect(page).toHaveURL(`${BASE}/settings/api-tokens`);
    await expect(page.getByRole('heading', { name: 'API tokens', level: 1 })).toBeVisible();
    await expect(page.getByText('No tokens yet.')).toBeVisible();

    const name = `Weekly report ${width}`;
    const form = page.getByRole('form', { name: 'Make a token' });
    await form.getByLabel('Name', { exact: true }).fill(name);
    await form.getByLabel('Expires after').selectOption({ label: '30 days' });
    await form.getByRole('button', { name: 'Make token' }).click();

    const field = page.getByLabel(/^Your new token/);
    await expect(field).toHaveValue(/^aud_pat_[A-Za-z0-9_-]{43}$/);
    const token = await field.inputValue();
    await expect(page.getByText(`Copy “${name}” now: it is shown this once.`)).toBeVisible();
    const listed = page.getByRole('region', { name: 'Your tokens' }).getByRole('listitem');
    await expect(listed.filter({ hasText: name })).toContainText('Active');
    // Nothing on the page's own side of the page keeps it: not the address, not the browser's storage.
    expect(page.url()).not.toContain(token);
    const kept = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }]));
    expect(kept).not.toContain(token.slice(8));
    // The layout holds at this width: nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(await seriousViolations(page)).toEqual([]);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: testInfo.outputPath(`api-tokens-${width}-${scheme}-new.png`), fullPage: true });
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // It acts as its person.
    const me = await asToken(token);
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: who, role: 'viewer' });

    // Done: gone from the screen, and not shown again after a reload.
    await page.getByRole('button', { name: 'Done: I have copied it' }).click();
    await expect(page.getByLabel(/^Your new token/)).toHaveCount(0);
    await page.reload();
    await expect(listed.filter({ hasText: name })).toContainText('Active');
    expect(await page.content()).not.toContain(token.slice(8));

    // Revoked: asked once more, then it stops working at once.
    await page.getByRole('button', { name: `Revoke the token “${name}”` }).click();
    await page.getByRole('button', { name: `Yes, revoke the token “${name}”` }).click();
    await expect(listed.filter({ hasText: name })).toContainText('Revoked');
    await expect(page.getByRole('button', { name: `Revoke the token “${name}”` })).toHaveCount(0);
    const refused = await asToken(token);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { detail: string }).detail).toContain('was revoked on');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: testInfo.outputPath(`api-tokens-${width}-${scheme}-list.png`), fullPage: true });
    }
    await ctx.close();
  });
}
