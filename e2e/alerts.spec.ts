import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { PORTS } from '../playwright.config';
import { LATEST, seriousViolations } from './helpers';

/** The spend server (a price list; no sign-in, so changes come from this machine). */
const BASE = `http://127.0.0.1:${PORTS.spend}`;
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The month the budgets speak of: the latest day's, so far. */
const MONTH = `start=${LATEST.slice(0, 8)}01&end=${LATEST}`;

// Both tests add, check and remove rules on one server: one at a time.
test.describe.configure({ mode: 'serial' });

/** The budgets e2e/spend.spec.ts sets too (the same ones: the two specs may run together): Engineering is over. */
async function overBudget(request: APIRequestContext) {
  const put = await request.put(`${BASE}/api/spend/budgets`, {
    data: {
      budgets: [
        { team: '', monthly: 1 },
        { team: 'Engineering', monthly: 1 },
      ],
    },
  });
  expect(put.status()).toBe(200);
}

/**
 * On the rules screen: a budget rule for `scope` added, the preview beside it saying the alert it would open (its
 * words, linked over the month), then Check now saying it opened; gives the rule's line.
 */
async function addCheckNow(page: Page, scope: string, summary: RegExp, link: string) {
  await page.getByRole('button', { name: 'Add a rule' }).click();
  const form = page.getByRole('form', { name: 'Add a rule' });
  await form.getByLabel('When').selectOption({ label: 'Month to date passes N % of the budget' });
  await form.getByLabel('For').selectOption({ label: scope });
  await form.getByLabel(/^N:/).fill('80');
  await form.getByRole('button', { name: 'Add the rule' }).click();
  const rule = page
    .getByRole('list', { name: 'Rules' })
    .getByRole('listitem')
    .filter({ hasText: 'Month to date passes 80 % of the budget' });
  await expect(rule).toHaveCount(1);
  // Right after adding it, before any check: the preview says what it would open, in the alert's words.
  await expect(rule.getByText('Would open', { exact: true })).toBeVisible();
  const would = rule.getByRole('link', { name: summary });
  await expect(would).toBeVisible();
  await expect(would).toHaveAttribute('href', link);
  await page.getByRole('button', { name: 'Check now' }).click();
  await expect(page.getByRole('region', { name: 'Rules' }).getByRole('status')).toContainText(
    /: 1 alert opened, no alerts resolved/,
  );
  // Open now: the preview, asked again, says so.
  await expect(rule.getByText('Open', { exact: true })).toBeVisible();
  return rule;
}

test('alerts at 1,440 px: a rule added, previewed, checked now, listed, acknowledged, and its link followed', async ({
  page,
  request,
}) => {
  // Two screens in two themes and at two widths, each checked by axe.
  test.slow();
  await page.setViewportSize({ width: 1440, height: 900 });
  await overBudget(request);

  // The rules screen: a threshold out of bounds is refused in words, then the rule is added.
  await page.goto(`${BASE}/settings/alerts`);
  await expect(page.getByRole('heading', { name: 'Alert rules', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Add a rule' }).click();
  const form = page.getByRole('form', { name: 'Add a rule' });
  await form.getByLabel('For').selectOption('Engineering');
  await form.getByLabel(/^N:/).fill('0');
  await form.getByRole('button', { name: 'Add the rule' }).click();
  await expect(form.getByRole('alert')).toHaveText('Percent of the budget must be a number from 1 to 1000.');
  await form.getByRole('button', { name: 'Cancel' }).click();
  const summary = /^Engineering has spent [\d,]+ % of its monthly budget: /;
  await addCheckNow(page, 'Engineering', summary, `/teams/Engineering?${MONTH}`);
  // A second rule of the same kind for the same team is refused by the server, saying why.
  await page.getByRole('button', { name: 'Add a rule' }).click();
  const again = page.getByRole('form', { name: 'Add a rule' });
  await again.getByLabel('For').selectOption('Engineering');
  await again.getByLabel(/^N:/).fill('90');
  await again.getByRole('button', { name: 'Add the rule' }).click();
  await expect(again.getByRole('alert')).toContainText('has a “Month to date passes N % of the budget” rule already');
  await again.getByRole('button', { name: 'Cancel' }).click();

  // Listed on the alerts page, reached from the navigation, which counts it.
  await page.goto(`${BASE}/`);
  const nav = page.getByRole('navigation', { name: 'Pages' });
  await expect(nav.getByRole('link', { name: /^Alerts\s*\d+ open$/ })).toBeVisible();
  await nav.getByRole('link', { name: /^Alerts/ }).click();
  await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();
  const open = page.getByRole('region', { name: 'Open alerts' });
  const alert = open.getByRole('link', { name: summary });
  await expect(alert).toBeVisible();
  await open.getByRole('button', { name: /^Acknowledge: Engineering has spent/ }).click();
  await expect(open.getByText(/acknowledged/)).toBeVisible();
  await expect(open.getByRole('button', { name: /^Acknowledge: Engineering has spent/ })).toHaveCount(0);

  // The link: to the team's page over the month so far, kept as the page loads, where the budget shows as over.
  await alert.click();
  await expect(page).toHaveURL(`${BASE}/teams/Engineering?${MONTH}`);
  await expect(page.getByRole('heading', { name: 'Engineering', level: 1 })).toBeVisible();
  // The team's page asks for many figures at once: its month's spend may come last.
  await expect(page.getByText('Over budget').first()).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(`${BASE}/teams/Engineering?${MONTH}`);

  // Removed on the rules screen: the alert is resolved, listed as past.
  await page.goto(`${BASE}/settings/alerts`);
  await page.getByRole('button', { name: /^Remove: Month to date passes 80 %/ }).click();
  await expect(page.getByText('No rule is set.')).toBeVisible();
  await page.goto(`${BASE}/alerts`);
  await expect(page.getByRole('region', { name: 'Past alerts' }).getByRole('link', { name: summary })).toBeVisible();

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

test('alerts at 390 px: the organization’s rule previewed and checked now, listed, opening the month', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await overBudget(request);
  await page.goto(`${BASE}/settings/alerts`);
  await expect(page.getByRole('heading', { name: 'Alert rules', level: 1 })).toBeVisible();
  const summary = /^The organization has spent [\d,]+ % of its monthly budget: /;
  await addCheckNow(page, 'The whole organization', summary, `/?${MONTH}`);
  // The screen with its preview and the check's answer: nothing serious for axe, in either theme, and whole.
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await seriousViolations(page)).toEqual([]);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);

  // The check's link to the alerts page, which lists it; its link opens the overview over the month.
  await page
    .getByRole('region', { name: 'Rules' })
    .getByRole('status')
    .getByRole('link', { name: 'See the alerts' })
    .click();
  await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();
  const alert = page.getByRole('region', { name: 'Open alerts' }).getByRole('link', { name: summary });
  await expect(alert).toBeVisible();
  await alert.click();
  await expect(page).toHaveURL(new RegExp(`^${escaped(BASE)}/\\?${escaped(MONTH)}$`));
  await expect(page.getByRole('heading', { name: /^Spend in / })).toBeVisible();
  await expect(page.getByText('Over budget').first()).toBeVisible();
  await expect(page).toHaveURL(`${BASE}/?${MONTH}`);

  await page.goto(`${BASE}/settings/alerts`);
  await page.getByRole('button', { name: /^Remove: Month to date passes 80 %/ }).click();
  await expect(page.getByText('No rule is set.')).toBeVisible();
});
