import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { PORTS } from '../playwright.config';

const BASE = `http://127.0.0.1:${PORTS.spend}`;

test('spend and highlights: budgets set, the landing page’s highlights lead to the pages that show them', async ({
  page,
  request,
}) => {
  // Budgets far under the month's spend: the organization and Engineering are over.
  const put = await request.put(`${BASE}/api/spend/budgets`, {
    data: {
      budgets: [
        { team: '', monthly: 1 },
        { team: 'Engineering', monthly: 1 },
      ],
    },
  });
  expect(put.status()).toBe(200);

  await page.goto(`${BASE}/`);
  const highlights = page.getByRole('region', { name: 'Highlights' });
  await expect(highlights.getByRole('link').first()).toBeVisible({ timeout: 30_000 });
  // The money beside the credits, and the month with its forecast.
  await expect(page.getByText('Spend', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Spend in / })).toBeVisible();
  await expect(page.getByText(/^Forecast to /)).toBeVisible();

  // The organization's budget: passed, linking to the usage page.
  const org = highlights.getByRole('link', { name: /^the organization passed its monthly budget/ });
  await expect(org).toBeVisible();
  // Engineering's: to its team page, where the budget shows as over, keeping the reader's range (the landing
  // page's default: the 30 days to the latest, 2026-05-31).
  await highlights.getByRole('link', { name: /^Engineering passed its monthly budget/ }).click();
  await expect(page).toHaveURL(`${BASE}/teams/Engineering?start=2026-05-02&end=2026-05-31`);
  await expect(page.getByRole('heading', { name: 'Engineering', level: 1 })).toBeVisible();
  await expect(page.getByText('Over budget').first()).toBeVisible();

  // A person far above their usual credits: to their page over the four weeks, showing that day.
  await page.goto(`${BASE}/`);
  const all = page.getByRole('button', { name: /^Show \d+ more$/ });
  if (await all.isVisible()) await all.click();
  const spike = highlights.getByRole('link', { name: /used .* their usual credits on / });
  await expect(spike.first()).toBeVisible();
  const href = (await spike.first().getAttribute('href'))!;
  const who = (await spike.first().textContent())!.split(' used ')[0]!;
  await spike.first().click();
  await expect(page).toHaveURL(`${BASE}${href}`);
  expect(new URL(`${BASE}${href}`).searchParams.get('start')).toBeTruthy();
  await expect(page.getByRole('heading', { name: who, level: 1 })).toBeVisible();

  // A team whose active people fell: to the activity page for that team.
  await page.goto(`${BASE}/`);
  if (await all.isVisible()) await all.click();
  const drop = highlights.getByRole('link', { name: /people active this week, down from/ });
  if ((await drop.count()) > 0) {
    const team = (await drop.first().textContent())!.split(':')[0]!;
    await drop.first().click();
    await expect(page).toHaveURL(
      new RegExp(`/activity\\?team=${encodeURIComponent(team).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
    await expect(page.getByRole('button', { name: /^Team:/ })).toContainText(team.split('/').at(-1)!);
  }
});

test('spend beside credits on the users page: sorted by it, and the CSV adds up to the organization’s spend', async ({
  page,
  request,
}) => {
  await page.goto(`${BASE}/users`);
  const table = page.getByRole('table', { name: 'Users active in the range' });
  await expect(table.getByRole('columnheader', { name: /^Spend \(USD\)/ })).toBeVisible({ timeout: 30_000 });
  await table.getByRole('button', { name: /^Spend/ }).click();
  await expect(page).toHaveURL(/usersSort=spend%3Adesc|usersSort=spend:desc/);
  await expect(table.getByRole('columnheader', { name: /^Spend/ })).toHaveAttribute('aria-sort', 'descending');

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download CSV of Users' }).click();
  const file = await download;
  const range = /users-(\d{4}-\d{2}-\d{2})-(\d{4}-\d{2}-\d{2})\.csv/.exec(file.suggestedFilename())!;
  const csv = parse(readFileSync(await file.path(), 'utf8'), { columns: true }) as Record<string, string>[];
  // The person's team and its managers (the demo's mapping) come before credits and spend.
  expect(Object.keys(csv[0]!).slice(0, 6)).toEqual([
    'user_id',
    'user_email',
    'team',
    'managers',
    'billable_tokens',
    'spend_usd',
  ]);
  const spends = csv.map((r) => Number(r.spend_usd));
  expect(spends).toEqual([...spends].sort((a, b) => b - a));
  expect(spends[0]).toBeGreaterThan(0);
  // The table's first row is the CSV's: the person who cost the most.
  await expect(table.getByRole('row').nth(1)).toContainText(csv[0]!.user_email || csv[0]!.user_id!);
  // Everyone's spend, each to the cent, is the organization's.
  const org = (await (await request.get(`${BASE}/api/spend?start=${range[1]}&end=${range[2]}`)).json()) as {
    spend: number;
  };
  const total = spends.reduce((n, v) => n + v, 0);
  expect(Math.abs(total - org.spend)).toBeLessThanOrEqual(0.005 * csv.length);
});

test.describe('budgets', () => {
  // These two set the budgets: one after the other, so neither sees the other's change as its own.
  test.describe.configure({ mode: 'serial' });

  test('the budgets screen: each line’s month to date, forecast and state; saving says so and keeps the form, on a desk and a phone', async ({
    page,
    request,
  }) => {
    // The organization's and Engineering's budgets as the first spec sets them (it runs beside these), and Sales'.
    await page.goto(`${BASE}/settings/budgets`);
    const form = page.getByRole('form', { name: 'Monthly budgets' });
    const box = (name: string) => form.getByRole('spinbutton', { name: `Monthly budget of ${name}`, exact: true });
    const row = (name: string) =>
      form.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
    await expect(box('the whole organization')).toBeVisible({ timeout: 30_000 });
    await box('the whole organization').fill('1');
    await box('Engineering').fill('1');
    await box('Sales').fill('90000');
    const status = form.getByRole('status');
    await expect(status).toHaveText('Unsaved changes.');
    const save = form.getByRole('button', { name: 'Save budgets' });
    await save.click();
    await expect(status).toHaveText('Saved: 3 budgets in force.');
    await expect(save).toBeFocused();
    await expect(box('Sales')).toHaveValue('90000');

    // Each line beside its box: the month to date and the forecast as the server computes them, and the state.
    const answer = (await (await request.get(`${BASE}/api/spend/teams`)).json()) as {
      rows: { team: string; month: { monthToDate: number; forecast: { low: number; high: number } | null } }[];
    };
    const usd = (n: number) =>
      new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency: 'USD',
        maximumFractionDigits: n < 100 ? 2 : 0,
        minimumFractionDigits: n < 100 ? 2 : 0,
      }).format(n);
    for (const [team, name, state] of [
      ['Engineering', 'Engineering', 'Over budget'],
      ['Sales', 'Sales', 'On track'],
    ] as const) {
      const m = answer.rows.find((r) => r.team === team)!.month;
      const cells = row(name).getByRole('cell');
      await expect(cells.nth(0)).toHaveText(usd(m.monthToDate));
      await expect(cells.nth(1)).toContainText(`${usd(m.forecast!.low)} – ${usd(m.forecast!.high)}`);
      await expect(cells.nth(2).getByText(state)).toBeVisible();
    }
    await expect(
      row('Engineering')
        .getByRole('cell')
        .nth(2)
        .getByText(/^passed [A-Z][a-z]{2} \d+$/),
    ).toBeVisible();

    // On a phone: the figures under each name, no column cut off, nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(form.getByRole('columnheader', { name: 'Forecast to month end' })).toBeHidden();
    const sales = answer.rows.find((r) => r.team === 'Sales')!.month;
    await expect(form.getByText(`${usd(sales.monthToDate)} to date · forecast`).first()).toBeVisible();
    await box('Sales').scrollIntoViewIfNeeded();
    await expect(box('Sales')).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test('a person’s page: the team budgets that cover them with their state, and the burn chart’s forecast band in dollars', async ({
    page,
    request,
  }) => {
    // The organization's and Engineering's budgets passed, as the first spec sets them.
    const put = await request.put(`${BASE}/api/spend/budgets`, {
      data: {
        budgets: [
          { team: '', monthly: 1 },
          { team: 'Engineering', monthly: 1 },
        ],
      },
    });
    expect(put.status()).toBe(200);
    const people = (await (await request.get(`${BASE}/api/users?team=Engineering&limit=1`)).json()) as {
      users: { userId: string; team: string }[];
    };
    const person = people.users[0]!;
    expect(person.team.startsWith('Engineering')).toBe(true);

    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`${BASE}/users/${person.userId}`);
      const widget = page.getByRole('region', { name: /^Spend in / });
      await expect(widget.getByText('Team budgets', { exact: true })).toBeVisible({ timeout: 30_000 });
      const eng = widget
        .getByRole('definition')
        .filter({ has: page.getByRole('link', { name: 'Engineering', exact: true }) });
      await expect(eng).toContainText('$1.00 a month');
      await expect(eng.getByText('Over budget')).toBeVisible();
      await expect(widget.getByRole('link', { name: 'Whole organization' })).toBeVisible();
      await expect(widget.getByText('No monthly budget set.')).toHaveCount(0);
      // The burn chart: the money axis in dollars; the forecast's range a band only when days remain in the month.
      await expect(widget.locator('.recharts-yAxis-tick-labels text').first()).toHaveText(/^\$/);
      await expect(widget.getByText('Spent', { exact: true })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
  });
});
