import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { PORTS } from '../playwright.config';
import type { ReadinessAnswer } from '../src/api/readiness';
import { repoName, reportAgeDays } from '../src/lib/readiness';
import { repoKey } from '../src/lib/repos';
import { LATEST, SIGN_IN_BASE, seriousViolations, signIn } from './helpers';

/** The spend server (a price list; no sign-in, so changes come from this machine). */
const BASE = `http://127.0.0.1:${PORTS.spend}`;
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The month the budgets speak of: the latest day's, so far. */
const MONTH = `start=${LATEST.slice(0, 8)}01&end=${LATEST}`;

// The tests add, check and remove rules on their servers: one at a time.
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

/** The stale rule's N in the journey below: the demo's latest reports are up to a few weeks old. */
const STALE_N = 10;

/**
 * A team with a manager whose repositories include one whose latest report is older than STALE_N days (asked of
 * the sign-in dashboard as its admin), with that manager and those repositories' names, stalest first.
 */
async function staleTeam(browser: Browser) {
  const admin = await browser.newContext();
  const a = await admin.newPage();
  await signIn(a, 'admin@acme.example', '/');
  const get = async <T>(path: string) => (await (await a.request.get(`${SIGN_IN_BASE}${path}`)).json()) as T;
  const flat = (ts: TeamNode[]): TeamNode[] => ts.flatMap((t) => [t, ...flat(t.children)]);
  for (const team of flat((await get<{ teams: TeamNode[] }>('/api/teams')).teams)) {
    if (team.managers.length === 0) continue;
    const answer = await get<ReadinessAnswer>(`/api/readiness?team=${encodeURIComponent(team.path)}`);
    const latest = new Map<string, number>();
    for (const r of answer.reports) latest.set(repoKey(r.repoUrl), r.createdAt);
    const stale = [...latest]
      .map(([key, at]) => ({ key, age: reportAgeDays(at, LATEST) }))
      .filter((r) => r.age > STALE_N)
      .sort((x, y) => y.age - x.age || (x.key < y.key ? -1 : 1));
    if (stale.length > 0) {
      await admin.close();
      return { team: team.path, manager: team.managers[0]!, stale };
    }
  }
  throw new Error(`no team owns a repository whose report is older than ${STALE_N} days`);
}
interface TeamNode {
  path: string;
  managers: string[];
  children: TeamNode[];
}

/**
 * A manager's journey at one width: a stale-report rule for their team added (N offered at its usual 30, set to
 * STALE_N), its preview naming their stale repositories, Check now opening them, the alert followed from the alerts
 * page to the repository's scorecard with the team kept, where the stale badge says its age; axe in both themes.
 */
async function staleJourney(browser: Browser, width: number) {
  const { team, manager, stale } = await staleTeam(browser);
  const ctx = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 } });
  const page = await ctx.newPage();
  await signIn(page, manager, '/settings/alerts');
  await expect(page.getByRole('heading', { name: 'Alert rules', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Add a rule' }).click();
  const form = page.getByRole('form', { name: 'Add a rule' });
  await form.getByLabel('When').selectOption({ label: 'A readiness report older than N days' });
  await expect(form.getByLabel(/^N:/)).toHaveValue('30');
  await form.getByLabel('For').selectOption({ label: team });
  await form.getByLabel(/^N:/).fill(String(STALE_N));
  await form.getByRole('button', { name: 'Add the rule' }).click();
  const rule = page
    .getByRole('list', { name: 'Rules' })
    .getByRole('listitem')
    .filter({ hasText: `A readiness report older than ${STALE_N} days` });
  await expect(rule).toHaveCount(1);
  // The preview: the stalest of the team's repositories first, in the alert's words, linked to its scorecard.
  const first = stale[0]!;
  const name = repoName(`https://${first.key}`);
  const summary = `${name}: its latest readiness report is ${first.age} days old`;
  const scorecard = `/readiness/${encodeURIComponent(first.key)}?team=${encodeURIComponent(team)}`;
  const would = rule.getByRole('link', { name: new RegExp(`^${escaped(summary)}`) });
  await expect(would).toBeVisible();
  await expect(would).toHaveAttribute('href', scorecard);
  await expect(rule.getByText('Would open', { exact: true })).toHaveCount(Math.min(5, stale.length));
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await seriousViolations(page)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  // Checked now: one alert per stale repository of the team.
  await page.getByRole('button', { name: 'Check now' }).click();
  const status = page.getByRole('region', { name: 'Rules' }).getByRole('status');
  await expect(status).toContainText(
    `: ${stale.length} ${stale.length === 1 ? 'alert' : 'alerts'} opened, no alerts resolved`,
  );
  await status.getByRole('link', { name: 'See the alerts' }).click();
  const alert = page
    .getByRole('region', { name: 'Open alerts' })
    .getByRole('link', { name: new RegExp(`^${escaped(summary)}`) });
  await expect(alert).toBeVisible();
  await alert.click();
  // The repository's scorecard, the team kept; its latest report marked stale after the rule's N days.
  await expect(page).toHaveURL(`${SIGN_IN_BASE}${scorecard}`);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  const badge = page.getByTitle(`The latest report is ${first.age} days old: older than ${STALE_N} days.`);
  await expect(badge).toHaveText(`stale · ${first.age} days (older than ${STALE_N} days)`);
  await expect(badge).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await seriousViolations(page)).toEqual([]);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);

  // Removed (its alerts resolve), so the other width's journey adds it again.
  await page.goto(`${SIGN_IN_BASE}/settings/alerts`);
  await page.getByRole('button', { name: /^Remove: A readiness report older than/ }).click();
  await expect(rule).toHaveCount(0);
  await ctx.close();
}

test('readiness alerts at 1,440 px: a manager’s stale-report rule for their team, previewed, checked, its scorecard', async ({
  browser,
}) => {
  test.slow();
  await staleJourney(browser, 1440);
});

test('readiness alerts at 390 px: the same journey on a phone', async ({ browser }) => {
  test.slow();
  await staleJourney(browser, 390);
});
