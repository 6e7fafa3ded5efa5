import { expect, test, type Locator, type Page } from '@playwright/test';
import { SIGN_IN_BASE, signIn } from './helpers';

const BASE = SIGN_IN_BASE;
const START = '2026-05-02';
const END = '2026-05-31';
const RANGE = `start=${START}&end=${END}`;

interface TeamView {
  path: string;
  managers: string[];
  children: TeamView[];
}

/** A team's figures as the comparison's table shows them: exact credits and active people, tool calls per turn. */
async function comparedFigures(row: Locator) {
  const cell = (label: string) => row.locator(`td[data-label="${label}"]`);
  return {
    credits: await cell('Credits').locator('[title]').getAttribute('title'),
    active: await cell('Active people').locator('[title]').getAttribute('title'),
    perTurn: (await cell('Tool calls per user turn').textContent())?.trim(),
  };
}

/** The same figures from a team page's cards: each card is its label's paragraph and its value's. */
async function pageFigures(page: Page) {
  const value = (label: string) =>
    page
      .locator('p')
      .filter({ hasText: new RegExp(`^${label}$`) })
      .locator('xpath=..')
      .locator('p[title]');
  await expect(value('Credits')).toHaveAttribute('title', /\d/);
  return {
    credits: await value('Credits').getAttribute('title'),
    active: await value('Active people').getAttribute('title'),
    perTurn: (await value('Tool calls per user turn').textContent())?.trim(),
  };
}

test('compare: a manager picks 3 of their teams on the teams page and reads them side by side, as each team’s page has them', async ({
  browser,
}) => {
  // The mapping in force, as an admin reads it: a top-level team with 3 sub-teams, its manager, and another team.
  const admin = await browser.newContext();
  const a = await admin.newPage();
  await signIn(a, 'admin@acme.example', `/teams?${RANGE}`);
  const tree = (await (await a.request.get(`${BASE}/api/teams`)).json()) as { teams: TeamView[] };
  await admin.close();
  const top = tree.teams.find((t) => t.managers.length > 0 && t.children.length >= 3)!;
  const chosen = top.children.slice(0, 3).map((t) => t.path);
  const sorted = [...chosen].sort();
  const manager = top.managers[0]!;
  // A team of the organization the manager has no part in.
  const outsider = tree.teams.find((t) => t.path !== top.path && !JSON.stringify(t).includes(manager))!.path;
  expect(chosen).toHaveLength(3);

  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await signIn(page, manager, `/teams?${RANGE}`);

  // Three teams ticked in the team selector of the teams page, then its comparison link.
  await page.getByRole('button', { name: /^Team:/ }).click();
  for (const t of chosen) {
    // The box shows the URL's selection: it is ticked once the address names the team.
    const box = page.getByRole('checkbox', { name: t, exact: true });
    await box.click();
    await expect(box).toBeChecked();
  }
  await page.keyboard.press('Escape');
  await page.getByRole('link', { name: 'Compare these 3 teams' }).click();
  await expect(page).toHaveURL(/\/compare\?/);
  const url = new URL(page.url());
  expect(url.searchParams.getAll('team')).toEqual(sorted);
  expect(url.searchParams.get('start')).toBe(START);
  expect(url.searchParams.get('end')).toBe(END);
  await expect(page.getByRole('heading', { level: 1, name: 'Compare teams' })).toBeVisible();

  const table = page.getByRole('table', { name: 'Each team over the range' });
  const rowOf = (t: string) =>
    table.locator('tbody tr').filter({ has: page.getByRole('link', { name: t, exact: true }) });
  await expect(table.locator('tbody tr')).toHaveCount(3);
  for (const t of chosen) await expect(rowOf(t)).toHaveCount(1);
  // One line per team on each chart, named by its path.
  for (const title of ['Credits', 'Daily active people']) {
    const legend = page.getByRole('region', { name: title }).getByRole('listitem');
    await expect(legend).toHaveText(sorted);
  }

  // Each team's figures are its own page's.
  for (const t of chosen) {
    const compared = await comparedFigures(rowOf(t));
    expect(Number(compared.credits!.replaceAll(',', ''))).toBeGreaterThan(0);
    await rowOf(t).getByRole('link', { name: t, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/teams/${t.split('/').map(encodeURIComponent).join('/')}\\?`));
    await expect(page.getByRole('heading', { level: 1, name: t.split('/').at(-1)!, exact: true })).toBeVisible();
    expect(await pageFigures(page)).toEqual(compared);
    await page.goBack();
    await expect(table.locator('tbody tr')).toHaveCount(3);
  }

  // A reload keeps the teams: they are in the address.
  await page.reload();
  await expect(table.locator('tbody tr')).toHaveCount(3);
  expect(new URL(page.url()).searchParams.getAll('team')).toEqual(sorted);

  // On a phone: no sideways scroll of the page, each team a card whose numbers are whole.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(table.locator('tbody tr').first()).toHaveCSS('display', 'grid');
  // The charts take the new width when their resize observers fire, a moment after the table's layout.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  for (const t of chosen) await expect(rowOf(t)).toBeVisible();
  const cut = await table
    .locator('td')
    .evaluateAll(
      (cells) =>
        cells.filter((c) => c.scrollWidth > c.clientWidth + 1 || c.getBoundingClientRect().right > innerWidth).length,
    );
  expect(cut).toBe(0);

  // A team that is not theirs: named, with the reason, and left out; the others are still compared.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(
    `${BASE}/compare?${RANGE}&team=${encodeURIComponent(chosen[0]!)}&team=${encodeURIComponent(outsider)}`,
  );
  const notice = page.getByRole('status').filter({ hasText: 'left out of the comparison' });
  await expect(notice.getByRole('listitem')).toHaveText([
    new RegExp(`^${outsider}: You see the figures of .*; "${outsider}" is not one of them\\.$`),
  ]);
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(rowOf(chosen[0]!)).toHaveCount(1);

  // One team only: the page says how many it takes.
  await page.goto(`${BASE}/compare?${RANGE}&team=${encodeURIComponent(chosen[0]!)}`);
  await expect(page.getByText(`Choose 2 to 5 teams to compare: only ${chosen[0]} is chosen.`)).toBeVisible();
  await ctx.close();
});
