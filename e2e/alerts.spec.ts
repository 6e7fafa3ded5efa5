import { expect, test } from '@playwright/test';
import { PORTS } from '../playwright.config';
import { seriousViolations } from './helpers';

/** The spend server (a price list; no sign-in, so changes come from this machine). */
const BASE = `http://127.0.0.1:${PORTS.spend}`;

test('alerts: a rule added on the rules screen, the check run, the alert listed, acknowledged, and its link followed', async ({
  page,
  request,
}) => {
  // The budgets e2e/spend.spec.ts sets too (the same ones: the two specs may run together): Engineering is over.
  const put = await request.put(`${BASE}/api/spend/budgets`, {
    data: {
      budgets: [
        { team: '', monthly: 1 },
        { team: 'Engineering', monthly: 1 },
      ],
    },
  });
  expect(put.status()).toBe(200);

  // The rules screen: a threshold out of bounds is refused in words, then the rule is added.
  await page.goto(`${BASE}/settings/alerts`);
  await expect(page.getByRole('heading', { name: 'Alert rules', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Add a rule' }).click();
  const form = page.getByRole('form', { name: 'Add a rule' });
  await form.getByLabel('When').selectOption({ label: 'Month to date passes N % of the budget' });
  await form.getByLabel('For').selectOption('Engineering');
  await form.getByLabel(/^N:/).fill('0');
  await form.getByRole('button', { name: 'Add the rule' }).click();
  await expect(form.getByRole('alert')).toHaveText('Percent of the budget must be a number from 1 to 1000.');
  await form.getByLabel(/^N:/).fill('80');
  await form.getByRole('button', { name: 'Add the rule' }).click();
  await expect(page.getByText('Month to date passes 80 % of the budget')).toBeVisible();
  // A second rule of the same kind for the same team is refused by the server, saying why.
  await page.getByRole('button', { name: 'Add a rule' }).click();
  const again = page.getByRole('form', { name: 'Add a rule' });
  await again.getByLabel('For').selectOption('Engineering');
  await again.getByLabel(/^N:/).fill('90');
  await again.getByRole('button', { name: 'Add the rule' }).click();
  await expect(again.getByRole('alert')).toContainText('has a “Month to date passes N % of the budget” rule already');
  await again.getByRole('button', { name: 'Cancel' }).click();

  // The check (as the daily sync's end runs it).
  const check = await request.post(`${BASE}/api/alerts/check`);
  expect(check.status()).toBe(200);
  const result = (await check.json()) as { opened: { scope: string }[] };
  expect(result.opened.map((a) => a.scope)).toContain('Engineering');

  // Listed on the alerts page, reached from the navigation, which counts it.
  await page.goto(`${BASE}/`);
  const nav = page.getByRole('navigation', { name: 'Pages' });
  await expect(nav.getByRole('link', { name: /^Alerts\s*\d+ open$/ })).toBeVisible();
  await nav.getByRole('link', { name: /^Alerts/ }).click();
  await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();
  const open = page.getByRole('region', { name: 'Open alerts' });
  const alert = open.getByRole('link', { name: /^Engineering has spent [\d,]+ % of its monthly budget/ });
  await expect(alert).toBeVisible();
  await open.getByRole('button', { name: /^Acknowledge: Engineering has spent/ }).click();
  await expect(open.getByText(/acknowledged/)).toBeVisible();
  await expect(open.getByRole('button', { name: /^Acknowledge: Engineering has spent/ })).toHaveCount(0);

  // The link: to the team's page over the month so far, where the budget shows as over.
  await alert.click();
  const base = BASE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await expect(page).toHaveURL(
    new RegExp(`^${base}/teams/Engineering\\?start=\\d{4}-\\d{2}-01&end=\\d{4}-\\d{2}-\\d{2}$`),
  );
  await expect(page.getByRole('heading', { name: 'Engineering', level: 1 })).toBeVisible();
  await expect(page.getByText('Over budget').first()).toBeVisible();

  // Removed on the rules screen: the alert is resolved, listed as past.
  await page.goto(`${BASE}/settings/alerts`);
  await page.getByRole('button', { name: /^Remove: Month to date passes 80 %/ }).click();
  await expect(page.getByText('No rule is set.')).toBeVisible();
  await page.goto(`${BASE}/alerts`);
  await expect(
    page.getByRole('region', { name: 'Past alerts' }).getByRole('link', { name: /^Engineering has spent/ }),
  ).toBeVisible();

  // Both screens: nothing serious for axe in either theme (the rules screen with its form open), and whole at 390 px.
  const screens = async () => {
    await page.goto(`${BASE}/alerts`);
    await expect(page.getByRole('region', { name: 'Past alerts' }).getByRole('link').first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Sync status' }).getByText('Newest day stored')).toBeVisible();
    await page.waitForLoadState('networkidle');
    const alertsPage = await seriousViolations(page);
    const alertsWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    await page.goto(`${BASE}/settings/alerts`);
    await page.getByRole('button', { name: 'Add a rule' }).click();
    await expect(page.getByRole('form', { name: 'Add a rule' })).toBeVisible();
    return {
      alertsPage,
      alertsWidth,
      rules: await seriousViolations(page),
      rulesWidth: await page.evaluate(() => document.documentElement.scrollWidth),
    };
  };
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const found = await screens();
    expect([found.alertsPage, found.rules]).toEqual([[], []]);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  const phone = await screens();
  expect([phone.alertsWidth, phone.rulesWidth]).toEqual([390, 390]);
});
