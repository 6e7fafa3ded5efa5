/** A phone's first screen (390 px): a figure before much of anything else, and readiness tables whole on it. */
import { expect, test, type Locator, type Page } from '@playwright/test';

const PHONE = { width: 390, height: 844 };
const DESK = { width: 1280, height: 900 };

/** How far below the bottom of the app's header an element's top lies, in CSS pixels. */
async function belowHeader(page: Page, target: Locator): Promise<number> {
  const header = (await page.getByRole('banner').boundingBox())!;
  const box = (await target.boundingBox())!;
  return box.y - (header.y + header.height);
}

/** The boxes inside the page's main part that scroll sideways, and by how much (none should). */
const sideways = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('main *')]
      .filter((e) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX) && e.getClientRects().length > 0)
      .map((e) => ({ box: e.getAttribute('aria-label') ?? e.className, hidden: e.scrollWidth - e.clientWidth }))
      .filter((b) => b.hidden > 0),
  );

test('the first figure of each analytics page is within 300 px of the header on a phone', async ({ page }) => {
  await page.setViewportSize(PHONE);
  for (const path of ['/', '/tools', '/activity', '/productivity']) {
    await page.goto(path);
    const first = page.locator('main p.text-2xl.tabular-nums').first();
    await expect(first).not.toHaveText('–');
    expect(await belowHeader(page, first), path).toBeLessThanOrEqual(300);
  }
  // The users page: its seats in one row, its count of people, then the first person's figures on the first
  // screen, with the filters folded.
  await page.goto('/users');
  const seats = page.getByRole('region', { name: /^Seats/ }).getByRole('listitem');
  await expect(seats).toHaveCount(5);
  const tops = await seats.evaluateAll((bs) => bs.map((b) => b.getBoundingClientRect().top));
  expect(new Set(tops).size).toBe(1);
  expect(await belowHeader(page, seats.first())).toBeLessThanOrEqual(300);
  const count = page.getByText(/^\d+ of \d+ people active in the range$/);
  await expect(count).toBeVisible();
  expect(await belowHeader(page, count)).toBeLessThanOrEqual(320);
  const figure = page
    .getByRole('table', { name: 'Users active in the range' })
    .locator('tbody td.tabular-nums')
    .first();
  await expect(figure).toBeVisible();
  const header = (await page.getByRole('banner').boundingBox())!;
  expect(await belowHeader(page, figure)).toBeLessThanOrEqual(PHONE.height - header.y - header.height - 40);
});

test('on a phone the users filters fold behind a button that counts those in force; on a desk they are in the row', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await page.goto('/users');
  const delegation = page.getByRole('combobox', { name: 'Delegation' });
  const filters = page.getByRole('button', { name: 'Filters', exact: true });
  await expect(filters).toBeVisible();
  await expect(delegation).toBeHidden();
  await expect(page.getByText('Columns', { exact: true })).toBeHidden();
  await filters.click();
  await expect(delegation).toBeVisible();
  await page.getByRole('combobox', { name: 'Model tier' }).selectOption({ index: 1 });
  await expect(page).toHaveURL(/tier=/);
  await expect(page.getByRole('button', { name: 'Filters (1 in force)' })).toBeVisible();

  await page.setViewportSize(DESK);
  await expect(page.getByRole('button', { name: /^Filters/ })).toBeHidden();
  await expect(delegation).toBeVisible();
  // The search and the selects share one row, their bottoms aligned.
  const search = (await page.getByRole('searchbox', { name: 'Search by email or id' }).boundingBox())!;
  const select = (await delegation.boundingBox())!;
  expect(Math.abs(search.y + search.height - (select.y + select.height))).toBeLessThanOrEqual(4);
});

test('the range bar shows its presets as one select on a phone, and as a row of buttons on a desk', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await page.goto('/');
  await page.getByRole('button', { name: /^Range:/ }).click();
  const bar = page.getByRole('group', { name: 'Date range' });
  const presets = bar.getByRole('combobox', { name: 'Range' });
  await expect(presets).toBeVisible();
  await expect(bar.getByRole('button', { name: '7 days' })).toBeHidden();
  // The presets one row, the dates and Apply beneath: the bar was four rows of buttons and 206 px.
  expect((await presets.boundingBox())!.height).toBeLessThanOrEqual(40);
  expect((await bar.boundingBox())!.height).toBeLessThanOrEqual(110);
  await presets.selectOption('7 days');
  await expect(page).toHaveURL(/start=2026-05-25&end=2026-05-31/);

  await page.setViewportSize(DESK);
  await expect(presets).toBeHidden();
  const buttons = bar.getByRole('button', { name: /days|month|quarter|history/ });
  await expect(buttons).toHaveCount(8);
  const tops = await buttons.evaluateAll((bs) => bs.map((b) => Math.round(b.getBoundingClientRect().top)));
  expect(new Set(tops).size, 'one row of presets').toBe(1);
  await expect(bar.getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
});

test('a top user’s model mix is one line, in full on hover, on a phone and on a desk', async ({ page }) => {
  for (const viewport of [PHONE, DESK]) {
    await page.setViewportSize(viewport);
    await page.goto('/');
    const table = page.getByRole('table', { name: 'Top people by credits' });
    await table.scrollIntoViewIfNeeded();
    const mixes = table.locator('td[data-label="Model mix"] > span');
    await expect(mixes.first()).toBeVisible();
    const lines = await mixes.evaluateAll((ss) =>
      ss.slice(0, 10).map((s) => ({
        text: s.textContent ?? '',
        title: s.getAttribute('title') ?? '',
        lines: Math.round(s.getBoundingClientRect().height / parseFloat(getComputedStyle(s).lineHeight)),
      })),
    );
    expect(lines.length).toBeGreaterThan(5);
    for (const l of lines) {
      expect(l.lines, `"${l.text}" at ${viewport.width} px`).toBe(1);
      // The title names every model in full, with its share: "claude-opus-4-20250514 71.2%; …".
      expect(l.title).toMatch(/^\S+ [\d.<]+%(; \S+ [\d.<]+%)*$/);
    }
    // A desk's rows are a line high, and the mix pushes no column off the side.
    if (viewport === DESK) {
      const heights = await table
        .locator('tbody tr')
        .evaluateAll((rs) => rs.slice(0, 10).map((r) => r.getBoundingClientRect().height));
      for (const h of heights) expect(h).toBeLessThanOrEqual(40);
      const box = page.getByLabel('Top people by credits, scrollable');
      expect(await box.evaluate((b) => b.scrollWidth - b.clientWidth)).toBeLessThanOrEqual(0);
    }
  }
});

test('at 390 px the readiness pages, a repository and a team’s readiness show every number whole, with nothing to the side', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  const pages: [string, Locator][] = [
    ['/readiness', page.getByRole('table', { name: 'Readiness by team' }).locator('tbody td.tabular-nums').first()],
    ['/readiness/github.com%2Facme%2Fcheckout-api', page.getByRole('region', { name: 'Scorecard' })],
    // A team's "Did it pay off": each level change's figures before and after it.
    ['/teams/Engineering', page.getByRole('region', { name: 'Did it pay off' }).getByText(/^#1 /)],
  ];
  for (const [path, ready] of pages) {
    await page.goto(path);
    await expect(ready).toBeVisible({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    expect(await sideways(page), `${path}: boxes that scroll sideways`).toEqual([]);
    const cells = await page.locator('main td.tabular-nums').evaluateAll((els) =>
      els
        .filter((e) => e.getClientRects().length > 0)
        .map((e) => ({
          text: e.textContent ?? '',
          cut: e.scrollWidth > e.clientWidth,
          right: e.getBoundingClientRect().right,
        })),
    );
    for (const c of cells) {
      expect(c.cut, `${path}: "${c.text}" fits its cell`).toBe(false);
      expect(c.right, `${path}: "${c.text}" is on screen`).toBeLessThanOrEqual(390);
    }
  }
});

/** How much of a table's box lies below its bottom edge (a box that scrolls inside the page), and its rows shown. */
const boxOf = (page: Page, caption: string) =>
  page.getByLabel(`${caption}, scrollable`).evaluate((b) => ({
    hidden: b.scrollHeight - b.clientHeight,
    shown: [...b.querySelectorAll('tbody tr')].filter((r) => r.getClientRects().length > 0).length,
    rows: b.querySelectorAll('tbody tr').length,
  }));

test('on a phone, long lists show their first rows and a “Show more” in the page, not a box that scrolls inside it; a desk keeps its box', async ({
  page,
}) => {
  test.slow();
  await page.setViewportSize(PHONE);
  const lists: [string, string, (() => Promise<void>)?][] = [
    ['/readiness', 'What to fix next'],
    ['/readiness', 'Readiness by team'],
    // The teams' tree, every sub-team shown.
    ['/teams', 'Teams, with their sub-teams', () => page.getByRole('button', { name: 'Expand all' }).click()],
    ['/', 'Top people by credits'],
  ];
  for (const [path, caption, open] of lists) {
    await page.goto(path);
    await expect(page.getByRole('table', { name: caption })).toBeVisible({ timeout: 30_000 });
    await open?.();
    const more = page.getByRole('button', { name: `Show more of ${caption}` });
    await expect(more).toBeVisible();
    const before = await boxOf(page, caption);
    expect(before.rows, `${path}: ${caption}`).toBeGreaterThan(10);
    expect(before, `${path}: ${caption}`).toMatchObject({ hidden: 0, shown: 10 });
    await expect(more.locator('xpath=../..')).toContainText(`10 of ${before.rows} shown`);
    await more.click();
    const after = await boxOf(page, caption);
    expect(after, `${path}: ${caption}`).toMatchObject({ hidden: 0, shown: Math.min(20, before.rows) });
    await page.getByRole('button', { name: 'Show fewer' }).first().click();
    expect((await boxOf(page, caption)).shown).toBe(10);
  }
  // A desk keeps the box, every row in it, and no "Show more".
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/readiness');
  const box = await boxOf(page, 'What to fix next');
  expect(box.hidden).toBeGreaterThan(0);
  expect(box.shown).toBe(box.rows);
  await expect(page.getByRole('button', { name: 'Show more of What to fix next' })).toBeHidden();
});

test('at 390 px a team’s readiness level and its count of repositories stay inside their cell', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto('/teams');
  const table = page.getByRole('table', { name: 'Readiness and outcomes across teams' });
  await expect(table).toBeVisible({ timeout: 30_000 });
  const cells = await table.locator('td[data-label="Readiness level"]').evaluateAll((tds) =>
    tds
      .filter((td) => td.getClientRects().length > 0)
      .map((td) => ({
        text: td.textContent ?? '',
        over: td.scrollWidth - td.clientWidth,
        right: Math.max(...[...td.querySelectorAll('span')].map((s) => s.getBoundingClientRect().right)),
        edge: td.getBoundingClientRect().right,
      })),
  );
  expect(cells.length).toBeGreaterThan(2);
  for (const c of cells) {
    expect(c.over, `"${c.text}" fits its cell`).toBeLessThanOrEqual(0);
    expect(c.right, `"${c.text}" stays in its cell`).toBeLessThanOrEqual(c.edge + 0.5);
  }
});
