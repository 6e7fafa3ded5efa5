import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { LATEST, serviceJson } from './helpers';

test('the landing page draws the daily credits chart for the last 30 complete UTC days', async ({ page, request }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Usage' })).toBeVisible();
  await expect(page.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
  // The browser runs in Los Angeles; the days must still be UTC days.
  await expect(page.getByText('May 2, 2026 – May 31, 2026 · 30 days, UTC')).toBeVisible();

  const chart = page.getByRole('figure', { name: 'Standard credits, per day, from 2026-05-02 to 2026-05-31.' });
  await expect(chart).toBeVisible();
  await expect(chart.locator('.recharts-area-area')).toHaveCount(1);
  await expect(chart.locator('.recharts-area-area')).toHaveAttribute('d', /\d/);
  // Axis ticks are UTC days of the range.
  await expect.poll(() => chart.locator('text').count()).toBeGreaterThan(5);
  const ticks = (await chart.locator('text').allTextContents()).filter((t) => /^[A-Z][a-z]{2} \d+$/.test(t));
  expect(ticks.length).toBeGreaterThan(3);
  const days = Array.from({ length: 30 }, (_, i) => `May ${i + 2}`);
  for (const t of ticks) expect(days).toContain(t);

  // The total on the card equals what the service returns for the range.
  const body = await serviceJson<{ data: { billable_tokens: number }[] }>(
    request,
    `/api/v1/analytics/tokens?startDate=2026-05-02&endDate=${LATEST}`,
  );
  const total = body.data.reduce((s, d) => s + d.billable_tokens, 0);
  await expect(
    page.getByText('Standard credits', { exact: true }).locator('..').getByTitle(total.toLocaleString('en-US')),
  ).toBeVisible();
});

test('a preset changes the range in the URL and the CSV holds the service numbers', async ({ page, request }) => {
  await page.goto('/');
  await page.getByRole('button', { name: '7 days' }).click();
  await expect(page).toHaveURL(/start=2026-05-25&end=2026-05-31/);
  await expect(
    page.getByRole('figure', { name: 'Standard credits, per day, from 2026-05-25 to 2026-05-31.' }),
  ).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV of Standard credits' }).click();
  const file = await (await download).path();
  const lines = readFileSync(file, 'utf8').trim().split('\r\n');
  expect(lines[0]).toBe('date,billable_tokens');
  const body = await serviceJson<{ data: { date: string; billable_tokens: number; input_tokens: number }[] }>(
    request,
    '/api/v1/analytics/tokens?startDate=2026-05-25&endDate=2026-05-31',
  );
  expect(lines.slice(1)).toEqual(body.data.map((d) => `${d.date},${d.billable_tokens}`));

  const tokens = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV of Tokens by kind' }).click();
  const tokenLines = readFileSync(await (await tokens).path(), 'utf8')
    .trim()
    .split('\r\n');
  expect(tokenLines[0]).toBe('date,input_tokens,output_tokens,cache_read_tokens,cache_write_tokens');
  expect(tokenLines.slice(1).map((l) => l.split(',').slice(0, 2).join(','))).toEqual(
    body.data.map((d) => `${d.date},${d.input_tokens}`),
  );
});

test('a custom range is clamped to history and the latest day', async ({ page }) => {
  await page.goto('/?start=2025-06-01&end=2027-01-01');
  await expect(page.getByText('Jan 14, 2026 – May 31, 2026')).toBeVisible();
  await page.getByLabel('From', { exact: true }).fill('2026-03-01');
  await page.getByLabel('to', { exact: true }).fill('2026-03-10');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/start=2026-03-01&end=2026-03-10/);
  await expect(
    page.getByRole('figure', { name: 'Standard credits, per day, from 2026-03-01 to 2026-03-10.' }),
  ).toBeVisible();
});

test('every page shows real data from its endpoint', async ({ page }) => {
  await page.goto('/');
  for (const [link, heading, widget] of [
    ['Tools', 'Tools', /^Tool calls per tool, per day/],
    ['Activity', 'Activity', /^Daily, weekly and monthly active people, per day/],
    ['Productivity', 'Productivity', /^Files created and edited, per day/],
  ] as const) {
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: link }).click();
    await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
    await expect(page.getByRole('figure', { name: widget })).toBeVisible();
  }
  await page.getByRole('link', { name: 'Users' }).click();
  await expect.poll(() => page.getByRole('table').getByRole('row').count()).toBeGreaterThan(10);
  await page.getByRole('link', { name: 'Readiness' }).click();
  await expect(page.getByText('Repositories tracked', { exact: true })).toBeVisible();
  await expect.poll(() => page.getByRole('table').getByRole('row').count()).toBeGreaterThan(10);
});

test('the weekly view marks the partial first and last weeks in the chart, tooltip and CSV', async ({
  page,
  request,
}) => {
  // Wednesday May 6 to Wednesday May 27: five days of the first week, three of the last.
  await page.goto('/?interval=week&start=2026-05-06&end=2026-05-27');
  const widget = page.getByRole('region', { name: 'Standard credits' });
  await expect(widget.getByRole('heading')).toHaveText('Standard credits per week');
  const chart = widget.getByRole('figure', { name: 'Standard credits, per week, from 2026-05-04 to 2026-05-25.' });
  await expect(chart.locator('.recharts-area-area')).toHaveCount(1);
  await expect(chart.locator('[data-shade]')).toHaveCount(2);
  await expect(chart.locator('[data-shade="2026-05-04"]')).toHaveText('partial');
  await expect(chart.locator('[data-shade="2026-05-25"]')).toHaveText('partial');
  const ticks = await chart.locator('.recharts-cartesian-axis-tick-value').allTextContents();
  expect(ticks).toContain('Wk May 4*');
  expect(ticks).toContain('Wk May 11');
  await expect(
    widget.getByText(/^\* Partial weeks, shaded: Wk May 4 holds 5 of 7 days, Wk May 25 holds 3 of 7 days/),
  ).toBeVisible();

  // The tooltip of the last week says how much of it the range holds.
  const box = (await chart.locator('.recharts-cartesian-grid').boundingBox())!;
  await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
  await expect(chart.locator('.recharts-tooltip-label')).toHaveText(
    'Week of May 25, 2026 (partial: 3 of 7 days in the range)',
  );

  const download = page.waitForEvent('download');
  await widget.getByRole('button', { name: 'Download CSV of Standard credits' }).click();
  const lines = readFileSync(await (await download).path(), 'utf8')
    .trim()
    .split('\r\n');
  const body = await serviceJson<{ data: { date: string; billable_tokens: number }[] }>(
    request,
    '/api/v1/analytics/tokens?startDate=2026-05-06&endDate=2026-05-27',
  );
  const sum = (from: string, to: string) =>
    body.data.filter((d) => d.date >= from && d.date <= to).reduce((s, d) => s + d.billable_tokens, 0);
  expect(lines).toEqual([
    'week_start,days,partial_week,billable_tokens',
    `2026-05-04,5,true,${sum('2026-05-06', '2026-05-10')}`,
    `2026-05-11,7,false,${sum('2026-05-11', '2026-05-17')}`,
    `2026-05-18,7,false,${sum('2026-05-18', '2026-05-24')}`,
    `2026-05-25,3,true,${sum('2026-05-25', '2026-05-27')}`,
  ]);
});

test('hiding weekends leaves Saturdays and Sundays out of the daily charts, not the totals, on every page', async ({
  page,
}) => {
  await page.goto('/?start=2026-05-06&end=2026-05-27');
  const card = page.getByText('Standard credits', { exact: true }).locator('..');
  const total = await card.locator('[title]').first().getAttribute('title');
  const hide = page.getByRole('checkbox', { name: 'Hide weekends' });
  // A click, not check(): the box follows the URL, which the router updates in a transition.
  await hide.click();
  await expect(page).toHaveURL(/weekends=hide/);
  await expect(hide).toBeChecked();
  const widget = page.getByRole('region', { name: 'Standard credits' });
  await expect(
    widget.getByRole('figure', { name: 'Standard credits, per day, weekdays only, from 2026-05-06 to 2026-05-27.' }),
  ).toBeVisible();
  await expect(
    widget.getByText('Saturdays and Sundays (UTC) are left out of this chart; the totals above count every day.'),
  ).toBeVisible();
  // The card still counts every day.
  await expect(card.locator('[title]').first()).toHaveAttribute('title', total!);

  const download = page.waitForEvent('download');
  await widget.getByRole('button', { name: 'Download CSV of Standard credits' }).click();
  const days = readFileSync(await (await download).path(), 'utf8')
    .trim()
    .split('\r\n')
    .slice(1)
    .map((l) => l.split(',')[0]);
  // 22 days, 6 of them Saturdays and Sundays.
  expect(days).toHaveLength(16);
  for (const d of days) expect([0, 6]).not.toContain(new Date(`${d}T00:00:00Z`).getUTCDay());

  // The choice follows the reader to another page, as the range does.
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Activity' }).click();
  await expect(page).toHaveURL(/\/activity\?.*weekends=hide/);
  await expect(page.getByRole('checkbox', { name: 'Hide weekends' })).toBeChecked();
  await expect(
    page.getByRole('figure', { name: /^Daily, weekly and monthly active people, per day, weekdays only/ }),
  ).toBeVisible();

  // On a phone the switch is at hand and the page does not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('checkbox', { name: 'Hide weekends' })).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  test(`the landing page leads with people and outcomes, as the teams and users pages count them (${width} px)`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width, height });
    const range = `start=2026-05-02&end=${LATEST}`;
    await page.goto(`/?${range}`);
    const card = (label: string) =>
      page.locator('main div.grid > div').filter({ has: page.getByText(label, { exact: true }) });
    const lead = ['Active people', 'Adoption', 'Standard credits', 'Credits per pull request'];
    await expect(page.locator('main div.grid').first().locator(':scope > div > p:first-child')).toHaveText(lead);
    // What a manager reads first is on the first screen, above the first chart; the tokens below it.
    for (const label of lead) await expect(card(label)).toBeInViewport();
    const chart = page.getByRole('region', { name: 'Standard credits' });
    const below = (await chart.boundingBox())!.y;
    expect((await card('Credits per pull request').boundingBox())!.y).toBeLessThan(below);
    expect((await card('Input tokens').boundingBox())!.y).toBeGreaterThan(below);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

    // The teams page's organization row, and the users page's active people, for the same range.
    const summary = await serviceJson<{ rows: { team: string; current: Record<string, number> }[] }>(
      request,
      `/api/teams/summary?${range}`,
    );
    const org = summary.rows.find((r) => r.team === '')!.current;
    const users = await serviceJson<{ activeUsers: number }>(request, `/api/users?${range}&limit=1`);
    expect(org.active).toBe(users.activeUsers);
    const exact = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });
    await expect(card('Active people').locator('p[title]')).toHaveAttribute('title', exact(org.active!));
    await expect(card('Active people')).toContainText(`of ${exact(org.members!)} members`);
    await expect(card('Active people')).toContainText(/(▲|▼|■) [+−]?[\d,]+\.\d% vs previous period/);
    await expect(card('Adoption').locator('p[title]')).toHaveText(
      org.adoption!.toLocaleString('en-US', { style: 'percent', maximumFractionDigits: 1 }),
    );
    await expect(card('Adoption')).toContainText(/ pts vs /);
    await expect(card('Standard credits').locator('p[title]')).toHaveAttribute('title', exact(org.credits!));
    await expect(card('Standard credits')).toContainText('no price list: credits stand in for spend');
    await expect(card('Credits per pull request').locator('p[title]')).toHaveAttribute(
      'title',
      exact(org.creditsPerPr!),
    );

    // Each says how it is counted, as the glossary does: a tap pins the sentence open.
    await card('Adoption').getByRole('button', { name: 'About Adoption' }).click();
    await expect(page.getByRole('tooltip').filter({ visible: true })).toHaveText(
      'Adoption: Active people in the range divided by members.',
    );
  });
}

test('the teams page’s organization row shows the landing page’s active people', async ({ page }) => {
  const range = `start=2026-05-02&end=${LATEST}`;
  await page.goto(`/?${range}`);
  const active = page
    .locator('main div.grid > div')
    .filter({ has: page.getByText('Active people', { exact: true }) })
    .locator('p[title]');
  await expect(active).toHaveAttribute('title', /\d/);
  const shown = (await active.textContent())!;
  await page.goto(`/teams?${range}`);
  const table = page.getByRole('table', { name: 'Teams, with their sub-teams' });
  await expect(table.getByRole('columnheader').first()).toBeVisible();
  const headers = (await table.getByRole('columnheader').allTextContents()).map((h) => h.replace(/[▲▼↕]/g, '').trim());
  const column = headers.findIndex((h) => h.startsWith('Active people') && !h.includes('change'));
  expect(column, headers.join(' | ')).toBeGreaterThan(0);
  const orgRow = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Whole organization' }) });
  await expect(orgRow.locator('th, td').nth(column)).toHaveText(shown);
});

for (const width of [1440, 390]) {
  test(`a team with no activity in the range says so, instead of drawing empty charts (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    // The team's days, as the server answers a team whose people did nothing in the range: no rows.
    await page.route(/\/api\/teams\/analytics\/(tokens|activity)\?/, async (route) => {
      const answer = (await (await route.fetch()).json()) as { data: unknown[]; meta: unknown };
      await route.fulfill({ json: { ...answer, data: [] } });
    });
    await page.goto(`/teams/Engineering?start=2026-05-02&end=${LATEST}`);
    for (const title of ['Credits', 'Daily active people']) {
      const widget = page.getByRole('region', { name: title, exact: true });
      // The team's figures are filled from the service on its first visit: allow for a busy machine.
      await expect(widget.getByText('Nothing in this range: every day is 0.')).toBeVisible({ timeout: 30_000 });
      await expect(widget.getByRole('figure')).toHaveCount(0);
    }
  });
}
