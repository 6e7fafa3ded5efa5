import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { serviceJson } from './helpers';

interface Row {
  user_id: string;
  user_email: string | null;
  date: string;
  billable_tokens: number;
  tool_calls: number;
  sessions: number;
}

async function allRows(request: Parameters<typeof serviceJson>[0], start: string, end: string): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor = '';
  for (;;) {
    const page = await serviceJson<{ data: Row[]; meta: { has_more: boolean; next_cursor?: string } }>(
      request,
      `/api/v1/analytics/users?startDate=${start}&endDate=${end}&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
    );
    rows.push(...page.data);
    if (!page.meta.has_more) return rows;
    cursor = page.meta.next_cursor!;
  }
}

test('users: sort, search, open the top user, and the totals match the service rows', async ({ page, request }) => {
  const start = '2026-05-02';
  const end = '2026-05-31';
  const rows = await allRows(request, start, end);
  const byUser = new Map<string, Row[]>();
  for (const r of rows) byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), r]);
  const credits = [...byUser.entries()].map(([id, rs]) => [id, rs.reduce((s, r) => s + r.billable_tokens, 0)] as const);
  credits.sort((a, b) => b[1] - a[1]);

  // The range written out (it is the default one): links carry it to the user page.
  await page.goto(`/users?start=${start}&end=${end}`);
  await expect(page.getByText(`${byUser.size} of ${byUser.size} people active in the range`)).toBeVisible();
  const table = page.getByRole('table', { name: 'Users active in the range' });

  // Sorted by credits, largest first, by default; a click sorts ascending and writes the URL.
  await expect(table.getByRole('columnheader', { name: /Credits/ })).toHaveAttribute('aria-sort', 'descending');
  await table.getByRole('button', { name: /^Credits/ }).click();
  await expect(page).toHaveURL(/usersSort=credits%3Aasc|usersSort=credits:asc/);
  await expect(table.getByRole('columnheader', { name: /Credits/ })).toHaveAttribute('aria-sort', 'ascending');
  await table.getByRole('button', { name: /^Credits/ }).click();

  const [topId, topCredits] = credits[0]!;
  const top = byUser.get(topId)!;
  const label = top[0]!.user_email ?? topId;
  await expect(table.getByRole('row').nth(1)).toContainText(label);

  // Search narrows the list, and the query is in the URL.
  await page.getByLabel('Search by email or id').fill(label.slice(0, 12));
  await expect(page).toHaveURL(/q=/);
  await expect(table.getByRole('link', { name: label })).toBeVisible();

  await table.getByRole('link', { name: label }).click();
  await expect(page).toHaveURL(new RegExp(`/users/${topId}\\?start=${start}&end=${end}`));
  await expect(page.getByRole('heading', { level: 1, name: label })).toBeVisible();
  const kpi = (name: string) => page.getByText(name, { exact: true }).locator('..');
  await expect(kpi('Standard credits').getByTitle(topCredits.toLocaleString('en-US'))).toBeVisible();
  const toolCalls = top.reduce((s, r) => s + r.tool_calls, 0);
  await expect(kpi('Tool calls').getByTitle(toolCalls.toLocaleString('en-US'))).toBeVisible();
  await expect(kpi('Active days').getByTitle(String(top.length))).toBeVisible();
  await expect(page.getByRole('table', { name: 'Daily rows' }).getByRole('row')).toHaveCount(top.length + 1);
});

test('users: filters and the column chooser live in the URL', async ({ page }) => {
  await page.goto('/users?delegation=manual');
  await expect(page.getByRole('combobox', { name: 'Delegation' })).toHaveValue('manual');
  const table = page.getByRole('table', { name: 'Users active in the range' });
  await expect.poll(() => table.getByRole('row').count()).toBeGreaterThan(1);
  // The Delegation column, wherever the columns shown put it (a team column comes with the store's mapping).
  const headers = await table.locator('thead th').allTextContents();
  const column = headers.findIndex((h) => h.startsWith('Delegation')) + 1;
  expect(column).toBeGreaterThan(0);
  await expect(table.getByRole('columnheader', { name: 'Team' })).toBeVisible();
  const cells = await table.locator(`tbody tr td:nth-child(${column})`).allTextContents();
  expect(cells.length).toBeGreaterThan(0);
  expect(cells.every((c) => c === 'manual')).toBe(true);

  await page.getByText('Columns', { exact: true }).click();
  await page.getByRole('checkbox', { name: 'Commits' }).click();
  await expect(page).toHaveURL(/cols=.*commits/);
  await expect(table.getByRole('columnheader', { name: /Commits/ })).toBeVisible();
});

test('the credits page links its top users to their pages', async ({ page }) => {
  await page.goto('/');
  const top = page.getByRole('region', { name: 'Top people by credits' }).getByRole('link').first();
  const name = await top.textContent();
  await top.click();
  await expect(page.getByRole('heading', { level: 1, name: name! })).toBeVisible();
});

test('users: the first rows come with the page, preloaded, and are asked for once', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/users') asked.push(r.url());
  });
  await page.goto('/users?start=2026-05-02&end=2026-05-31&usersSort=user:asc');
  const table = page.getByRole('table', { name: 'Users active in the range' });
  await expect(page.getByText(/^[\d,]+ of [\d,]+ people active in the range$/)).toBeVisible();
  // The preload, not a second request, answered the page: one request, started by the page's <link>.
  expect(asked).toHaveLength(1);
  const initiators = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => new URL(e.name).pathname === '/api/users')
      .map((e) => (e as PerformanceResourceTiming).initiatorType),
  );
  expect(initiators).toEqual(['link']);
  // And it is the table the URL asks for: sorted by email, A to Z.
  const emails = await table.getByRole('row').locator('td:nth-child(1)').allTextContents();
  expect(emails.length).toBeGreaterThan(1);
  expect(emails).toEqual([...emails].sort((a, b) => a.localeCompare(b)));
});

test('users: the known people not active in the range, each with their last active day, listed and exported', async ({
  page,
  request,
}) => {
  const start = '2026-05-18';
  const end = '2026-05-31';
  const active = new Set((await allRows(request, start, end)).map((r) => r.user_id));
  // Everyone seen since the history starts, by the range's end: those not active in it, with their latest day.
  const lastDay = new Map<string, string>();
  for (const r of await allRows(request, '2026-01-14', end))
    if (!active.has(r.user_id) && (lastDay.get(r.user_id) ?? '') < r.date) lastDay.set(r.user_id, r.date);
  expect(lastDay.size).toBeGreaterThan(0);

  await page.goto(`/users?start=${start}&end=${end}`);
  const listed = page.getByRole('group', { name: 'People listed' });
  await expect(listed.getByRole('button', { name: `Not active (${lastDay.size})` })).toBeVisible();
  await listed.getByRole('button', { name: /^Not active/ }).click();
  await expect(page).toHaveURL(/[?&]who=inactive/);
  await expect(page.getByText(`${lastDay.size} of ${lastDay.size} known people not active in the range`)).toBeVisible();
  const table = page.getByRole('table', { name: 'Known people not active in the range' });
  await expect(table.getByRole('columnheader', { name: /^Last active/ })).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download CSV of Users' }).click();
  const csv = parse(readFileSync(await (await download).path(), 'utf8'), { columns: true }) as Record<string, string>[];
  expect(csv).toHaveLength(lastDay.size);
  for (const r of csv) {
    expect(r.last_active_day).toBe(lastDay.get(r.user_id!));
    expect(r.active_days).toBe('0');
    expect(r.first_day).toBe('');
  }
});

/** The widths a manager reads the users page at: a desk and a phone. */
const WIDTHS = [
  { name: 'desk', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

for (const { name, viewport } of WIDTHS)
  test.describe(`users at ${viewport.width} px (${name})`, () => {
    test.use({ viewport });

    test('the seats: who never used it, new starters in grace apart, a count that opens its list, exported under its own name', async ({
      page,
      request,
    }) => {
      const start = '2026-05-02';
      const end = '2026-05-31';
      // The organization's members (the mapping's people, seen or not) less the people the service has seen: the
      // teams page's count of those the mapping names who have not used the agent yet. Those whose start (the demo's
      // since) is within 14 days of the range's end are new starters in grace, said apart; the others are listed.
      const tree = await serviceJson<{ teams: { members: number }[]; unassigned: number; users: number }>(
        request,
        '/api/teams',
      );
      const never = tree.teams.reduce((n, t) => n + t.members, 0) + tree.unassigned - tree.users;
      expect(never).toBeGreaterThan(0);
      const seen = new Set((await allRows(request, '2026-01-14', end)).flatMap((r) => [r.user_id, r.user_email]));

      await page.goto(`/users?start=${start}&end=${end}`);
      const seats = page.getByRole('region', { name: /Seats/ });
      const button = seats.getByRole('button', { name: /^Never used: \d+$/ });
      const listed = Number((await button.textContent())!.match(/\d+$/)![0]);
      expect(listed).toBeGreaterThan(0);
      const grace = never - listed;
      expect(grace).toBeGreaterThanOrEqual(0);
      await button.click();
      await expect(page).toHaveURL(/[?&]who=never/);
      await expect(
        page.getByText(`${listed} of ${listed} named people who never used the agent by the range’s end`),
      ).toBeVisible();
      if (grace > 0)
        await expect(
          page.getByText(
            `${grace} new ${grace === 1 ? 'starter' : 'starters'} in their first 14 days ${grace === 1 ? 'is' : 'are'} not listed`,
          ),
        ).toBeVisible();
      const table = page.getByRole('table', { name: 'People the mapping names who never used the agent' });
      await expect(table.locator('tbody tr')).toHaveCount(listed);
      // Nobody of them ever had a day, and there is no page of theirs to open.
      await expect(table.getByRole('link')).toHaveCount(0);
      const names = await table.locator('tbody tr td:first-child').allTextContents();
      for (const n of names) expect(seen.has(n), n).toBe(false);
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en-US')));
      const neverDownload = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download CSV of Users' }).click();
      const neverFile = await neverDownload;
      expect(neverFile.suggestedFilename()).toBe(`users-never-used-${start}-${end}.csv`);
      const neverCsv = parse(readFileSync(await neverFile.path(), 'utf8'), { columns: true }) as Record<
        string,
        string
      >[];
      expect(neverCsv.map((r) => r.user_email || r.user_id)).toEqual(names);
      for (const r of neverCsv) expect([r.active_days, r.last_active_day, r.team === '']).toEqual(['0', '', false]);

      // Inactive 30 days: by the last active day, newest first, each older than the 30 days to the range's end.
      const idle = seats.getByRole('button', { name: /^Inactive 30 days: \d+$/ });
      const count = Number((await idle.getAttribute('aria-label'))!.split(': ')[1]);
      await idle.click();
      await expect(
        page.getByText(`${count} of ${count} named people inactive for the 30 days`, { exact: false }),
      ).toBeVisible();
      const list = page.getByRole('table', { name: 'People the mapping names, inactive 30 days' });
      await expect(list.locator('tbody tr').first()).toBeVisible();
      await expect(seats.getByRole('button', { name: /^Inactive 30 days/ })).toHaveAttribute('aria-pressed', 'true');
      // Exported under its own name: the same people, none active in those 30 days.
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download CSV of Users' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`users-inactive-30-days-${start}-${end}.csv`);
      const csv = parse(readFileSync(await file.path(), 'utf8'), { columns: true }) as Record<string, string>[];
      expect(csv).toHaveLength(count);
      for (const r of csv)
        expect([r.last_active_day! < '2026-05-02', r.last_active_day !== '', r.team !== ''], r.user_id).toEqual([
          true,
          true,
          true,
        ]);
    });

    test('the not-active list: who, their team and their last active day, none of it cut off', async ({ page }) => {
      await page.goto('/users?start=2026-05-18&end=2026-05-31&who=inactive');
      const table = page.getByRole('table', { name: 'Known people not active in the range' });
      await expect(table.locator('tbody tr').first()).toBeVisible();
      // Every figure of theirs is 0: no such column.
      for (const column of ['Credits', 'Tool calls', 'Sessions', 'Active days'])
        await expect(table.getByRole('columnheader', { name: new RegExp(`^${column}`) })).toHaveCount(0);
      const box = page.getByLabel('Known people not active in the range, scrollable');
      const within = await box.boundingBox();
      const cell = table.locator('tbody tr').first().locator('td').last();
      await expect(cell).toContainText(/\w{3} \d{1,2}, 2026/);
      const last = await cell.boundingBox();
      // Inside the box, whole, without scrolling sideways.
      expect(last!.x + last!.width).toBeLessThanOrEqual(within!.x + within!.width + 1);
      expect(await box.evaluate((b) => b.scrollWidth <= b.clientWidth + 1)).toBe(true);
    });

    test('a person’s page and back keep the list, its sort, the list shown and where the reader was', async ({
      page,
    }) => {
      const list = '/users?start=2026-05-02&end=2026-05-31&who=all&usersSort=user%3Aasc&q=acme';
      await page.goto(list);
      const table = page.getByRole('table', { name: 'Everyone known by the range’s end' });
      await expect(table.locator('tbody tr').first()).toBeVisible();
      const box = page.getByLabel('Everyone known by the range’s end, scrollable');
      // Down the page to the table, and down the list, to a person further on.
      await box.evaluate((b) => {
        b.scrollIntoView();
        b.scrollTop = 600;
      });
      const at = await box.evaluate((b) => b.scrollTop);
      const y = await page.evaluate(() => window.scrollY);
      expect(at).toBeGreaterThan(0);
      const frame = (await box.boundingBox())!;
      const bottom = Math.min(frame.y + frame.height, viewport.height);
      const links = table.locator('tbody tr td:first-child a');
      let person = links.first();
      for (let i = 0; i < (await links.count()); i++) {
        const b = await links.nth(i).boundingBox();
        if (b && b.y > frame.y + 60 && b.y + b.height < bottom) {
          person = links.nth(i);
          break;
        }
      }
      const who = (await person.textContent())!;
      await person.click();
      await expect(page.getByRole('heading', { level: 1, name: who })).toBeVisible();
      await page.getByRole('link', { name: '← All users' }).click();
      await expect(page).toHaveURL(/\/users\?/);
      const back = new URL(page.url());
      expect(Object.fromEntries(back.searchParams)).toEqual(Object.fromEntries(new URL(list, 'http://x').searchParams));
      await expect(page.getByRole('searchbox', { name: 'Search by email or id' })).toHaveValue('acme');
      await expect(
        page.getByRole('group', { name: 'People listed' }).getByRole('button', { name: /^Everyone/ }),
      ).toHaveAttribute('aria-pressed', 'true');
      await expect.poll(() => box.evaluate((b) => b.scrollTop)).toBe(at);
      expect(await page.evaluate(() => window.scrollY)).toBe(y);
      await expect(table.getByRole('link', { name: who })).toBeInViewport();
    });

    test('an unknown person’s id: no such person, no empty cards', async ({ page }) => {
      await page.goto('/users/usr_nobody_here?start=2026-05-02&end=2026-05-31');
      await expect(page.getByText('No such person in this organization.')).toBeVisible();
      await expect(page.getByText('Standard credits')).toHaveCount(0);
      await expect(page.getByRole('link', { name: '← All users' })).toHaveAttribute(
        'href',
        '/users?start=2026-05-02&end=2026-05-31',
      );
    });
  });
