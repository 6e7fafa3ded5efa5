import { expect, test, type Page } from '@playwright/test';
import { SIGN_IN_BASE, seriousInBothThemes, signIn } from './helpers';

const BASE = SIGN_IN_BASE;
const DAY = '2026-05-20';
const teamPage = (path: string) => `/teams/${path.split('/').map(encodeURIComponent).join('/')}`;

interface TeamView {
  path: string;
  managers: string[];
  children: TeamView[];
}
const flat = (ts: readonly TeamView[]): TeamView[] => ts.flatMap((t) => [t, ...flat(t.children)]);

/** Goes to `path` and returns the texts of the marks the server gave its charts. */
async function openWithMarks(page: Page, path: string): Promise<string[]> {
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/marks' && r.ok());
  await page.goto(`${BASE}${path}`);
  return ((await (await answered).json()) as { marks: { text: string }[] }).marks.map((x) => x.text);
}

test('marks: a manager adds a mark for their team, reads it on the charts by keyboard and in the table view, and removes it; another team’s page does not show it', async ({
  browser,
}) => {
  // Two readers, six pages and four axe passes, beside the other specs' servers on two cores.
  test.slow();
  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, 'admin@acme.example', '/teams');
  const tree = flat(((await (await admin.request.get(`${BASE}/api/teams`)).json()) as { teams: TeamView[] }).teams);
  const team = tree.find((t) => t.managers.length > 0 && !t.path.includes('/'))!;
  const other = tree.find((t) => !t.path.includes('/') && t.path !== team.path)!.path;
  const text = `Rollout of the new agent ${Date.now().toString(36)}`;
  const name = new RegExp(`^Mark \\d+, May 20, 2026, ${team.path.replace(/[/]/g, '\\/')}: ${text}$`);

  const ctx = await browser.newContext();
  const m = await ctx.newPage();
  await signIn(m, team.managers[0]!, '/settings/marks');
  const add = m.getByRole('region', { name: 'Add a mark' });
  // A manager marks their teams only: the organization is not offered.
  const scope = add.getByRole('combobox', { name: 'For' });
  await expect(scope.locator('option', { hasText: 'Whole organization' })).toHaveCount(0);
  await scope.selectOption(team.path);
  await add.getByLabel('Day (UTC)').fill(DAY);
  await add.getByRole('textbox', { name: 'Text' }).fill(text);
  await add.getByRole('button', { name: 'Add mark' }).click();
  await expect(add.getByRole('status')).toHaveText(`Added: it shows on the charts of ${team.path}.`);
  await expect(m.getByRole('region', { name: 'Marks', exact: true }).getByText(text)).toBeVisible();
  expect(await seriousInBothThemes(m)).toEqual([]);
  // On a phone: the screen fits its width.
  await m.setViewportSize({ width: 390, height: 800 });
  expect(await m.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await m.setViewportSize({ width: 1280, height: 800 });

  // The usage page for their team: the mark's flag on the daily credits, reached by keyboard, says its text.
  await m.goto(`${BASE}/?team=${encodeURIComponent(team.path)}`);
  const chart = m.getByRole('region', { name: 'Standard credits', exact: true });
  // The organization's marks show on a team's charts too, and the next test adds one beside this one.
  const flag = chart.getByRole('figure').getByRole('button', { name });
  await expect(flag).toHaveCount(1);
  await chart.getByRole('button', { name: 'Download CSV of Standard credits' }).focus();
  // From the CSV button: past the interactive chart's own stop (its tooltip's keys), to the flag.
  for (let i = 0; i < 3 && !(await flag.evaluate((e) => e === document.activeElement)); i++)
    await m.keyboard.press('Tab');
  await expect(flag).toBeFocused();
  await expect(chart.getByText(text, { exact: true })).toBeVisible();
  expect(await seriousInBothThemes(m)).toEqual([]);
  await m.keyboard.press('Escape');
  await expect(chart.getByText(text, { exact: true })).toBeHidden();
  // Under the table view, in the marks list.
  await chart.getByRole('button', { name: 'Show Standard credits as a table' }).click();
  const list = chart.getByRole('table', { name: 'Marks' });
  await expect(list.getByRole('row').filter({ hasText: text })).toContainText(`May 20, 2026${team.path}${text}`);

  // The team's own page shows it; another team's page (the admin's to open) does not.
  await m.goto(`${BASE}${teamPage(team.path)}`);
  await expect(m.getByRole('region', { name: 'Credits', exact: true }).getByRole('button', { name })).toBeVisible();
  expect(await openWithMarks(admin, teamPage(other))).not.toContain(text);
  await expect(admin.getByRole('region', { name: 'Credits', exact: true }).getByRole('figure')).toBeVisible({
    timeout: 30_000,
  });
  await expect(admin.getByRole('button', { name })).toHaveCount(0);
  // Nor does the organization's chart: a team's mark is its own.
  expect(await openWithMarks(admin, '/')).not.toContain(text);
  await expect(admin.getByRole('region', { name: 'Standard credits', exact: true }).getByRole('figure')).toBeVisible({
    timeout: 30_000,
  });
  await expect(admin.getByRole('button', { name })).toHaveCount(0);

  // Removed on the marks screen: gone from the charts.
  await m.goto(`${BASE}/settings/marks`);
  await m.getByRole('button', { name: `Remove the mark of May 20, 2026, ${team.path}` }).click();
  await expect(m.getByText(text)).toHaveCount(0);
  expect(await openWithMarks(m, `/?team=${encodeURIComponent(team.path)}`)).not.toContain(text);
  await expect(m.getByRole('region', { name: 'Standard credits', exact: true }).getByRole('figure')).toBeVisible({
    timeout: 30_000,
  });
  await expect(m.getByRole('button', { name })).toHaveCount(0);
  await ctx.close();
});

test('marks: a mark’s figures before and after it, as the server’s runner gives them, on a desk and on a phone', async ({
  browser,
}) => {
  test.slow();
  const page = await (await browser.newContext()).newPage();
  await signIn(page, 'admin@acme.example', '/settings/marks');
  const text = `Training for everyone ${Date.now().toString(36)}`;
  const add = page.getByRole('region', { name: 'Add a mark' });
  await add.getByRole('combobox', { name: 'For' }).selectOption({ label: 'Whole organization' });
  // A Wednesday: the data run to May 31, so three whole weeks after its week (May 11 to 31) and three before.
  await add.getByLabel('Day (UTC)').fill('2026-05-06');
  await add.getByRole('textbox', { name: 'Text' }).fill(text);
  await add.getByRole('button', { name: 'Add mark' }).click();
  await expect(add.getByRole('status')).toHaveText('Added: it shows on the charts of the organization.');
  const item = page.getByRole('listitem').filter({ hasText: text });
  const asked = page.waitForResponse((r) => /^\/api\/marks\/[^/]+\/figures$/.test(new URL(r.url()).pathname));
  await item
    .getByRole('button', { name: 'Figures before and after the mark of May 6, 2026, Whole organization' })
    .click();
  const answer = (await (await asked).json()) as {
    weeks: number;
    figures: { measure: string; before: number | null; after: number | null }[];
  };
  expect(answer.weeks).toBe(3);
  const table = item.getByRole('table', {
    name: 'Figures of The organization before and after the mark of May 6, 2026',
  });
  await expect(item.getByText(/3 whole weeks before the week of May 4, 2026 \(Apr 13 – May 3, 2026\)/)).toBeVisible();
  // The organization's active people in the weeks after: the teams page's figure for the same days.
  const summary = (await (
    await page.request.get(`${BASE}/api/teams/summary?start=2026-05-11&end=2026-05-31`)
  ).json()) as { rows: { team: string; current: { active: number; creditsPerPr: number | null } }[] };
  const org = summary.rows.find((r) => r.team === '')!.current;
  const active = answer.figures.find((f) => f.measure === 'active')!;
  expect(active.after).toBe(org.active);
  const row = table.getByRole('row', { name: /^Active people/ });
  await expect(row.getByRole('cell').nth(1)).toHaveText(org.active.toLocaleString('en-US'));
  await expect(row.getByRole('cell').nth(0)).toHaveText(active.before!.toLocaleString('en-US'));
  expect(answer.figures.find((f) => f.measure === 'creditsPerPr')!.after).toBeCloseTo(org.creditsPerPr!, 6);
  await expect(item.getByRole('note')).toContainText('correlation over few points');
  expect(await seriousInBothThemes(page)).toEqual([]);
  // On a phone: each figure a card, the screen no wider than the phone.
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(row).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const box = (await row.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1440, height: 900 });
  await item.getByRole('button', { name: /^Remove the mark of May 6, 2026/ }).click();
  await expect(page.getByText(text)).toHaveCount(0);
});
