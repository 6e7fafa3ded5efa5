// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { parse } from 'csv-parse/sync';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { spendAnswer } from '../../test/spend-fixtures';
import { TEST_CONFIG, captureDownloads, renderWithApp } from '../../test/render';
import { json, summary } from './fixtures';
import ComparePage from './ComparePage';

const CONFIG = { ...TEST_CONFIG, teams: true };
const RANGE = 'start=2026-05-10&end=2026-05-13';
const PLATFORM = 'Engineering/Platform';
const TWO = `${RANGE}&team=${encodeURIComponent(PLATFORM)}&team=Sales`;

/** Each team's one day of credits and of active people, so every team's line is its own. */
const DAYS: Record<string, { date: string; credits: number; active: number }> = {
  [PLATFORM]: { date: '2026-05-11', credits: 30_000, active: 6 },
  Sales: { date: '2026-05-12', credits: 5_000, active: 3 },
  'R&D Lab': { date: '2026-05-13', credits: 700, active: 1 },
};
const SPEND: Record<string, number> = { [PLATFORM]: 412.5, Sales: 80.25 };

/**
 * The dashboard server: the summary; each team's analytics and spend, asked one team at a time (a
 * team the mapping lacks is refused as the server refuses it, naming it); `teams` answers 403 for a
 * team the reader may not see.
 */
function stubServer(notYours: readonly string[] = []) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://dashboard.test');
    const team = url.searchParams.getAll('team');
    if (url.pathname === '/api/teams/summary') return json(summary());
    if (team.length !== 1) return json({ title: 'Bad Request', detail: `One team at a time, not ${team}.` }, 400);
    const [t] = team as [string];
    if (notYours.includes(t))
      return json(
        { title: 'Forbidden', detail: `You see the figures of Sales and their sub-teams; "${t}" is not one of them.` },
        403,
      );
    const day = DAYS[t];
    if (!day) return json({ title: 'Bad Request', detail: `No team is called "${t}" in the mapping in force.` }, 400);
    const meta = {
      org_id: 'org-1',
      start_date: url.searchParams.get('startDate'),
      end_date: url.searchParams.get('endDate'),
      teams: team,
      members: 3,
      org_only: [],
    };
    switch (url.pathname) {
      case '/api/teams/analytics/tokens':
        return json({
          data: [{ date: day.date, billable_tokens: day.credits, input_tokens: 1, output_tokens: 1, by_model: [] }],
          meta,
        });
      case '/api/teams/analytics/activity':
        return json({
          data: [
            {
              date: day.date,
              daily_active_users: day.active,
              weekly_active_users: day.active,
              monthly_active_users: day.active,
              sessions: 1,
              messages: 1,
              user_messages: 1,
            },
          ],
          meta,
        });
      case '/api/spend':
        return json(spendAnswer({ currency: 'USD', teams: team, spend: SPEND[t] ?? 0 }));
      default:
        return json({ title: 'Not Found', detail: `No ${url.pathname}.` }, 404);
    }
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const render = (search: string, config = CONFIG) =>
  renderWithApp(
    <Routes>
      <Route path="/compare" element={<ComparePage />} />
    </Routes>,
    { url: `/compare?${search}`, config },
  );

const asked = (fetchMock: ReturnType<typeof stubServer>) =>
  fetchMock.mock.calls.map(([u]) => new URL(String(u), 'http://dashboard.test'));

/** The figures table's rows once its answers are in: each row's cells' text. */
async function figureRows() {
  const table = await screen.findByRole('table', { name: 'Each team over the range' }, { timeout: 5000 });
  return within(table).getAllByRole('row').slice(1);
}

/** A chart's table view, once its points are drawn: the header and each day's row. */
async function chartTable(title: string) {
  const region = await screen.findByRole('region', { name: title });
  const button = within(region).getByRole('button', { name: `Show ${title} as a table` });
  // The points are in once the chart's figure is drawn.
  await within(region).findByRole('figure', undefined, { timeout: 5000 });
  fireEvent.click(button);
  const table = within(region).getByRole('table');
  return {
    region,
    head: within(table)
      .getAllByRole('columnheader')
      .map((c) => c.textContent),
    rows: within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.textContent),
  };
}

const swatchOf = (el: HTMLElement) => (el.querySelector('span[aria-hidden]') as HTMLElement).style.background;

describe('ComparePage', () => {
  it('shows each team’s figures from its own summary row, side by side, each linking to its page', async () => {
    stubServer();
    render(TWO);
    expect(await screen.findByRole('heading', { level: 1, name: 'Compare teams' })).toBeTruthy();
    const rows = await figureRows();
    // Most credits first, the team page's figures: Platform's 40,000 credits, 8 of 12 active, 2,400 calls over 800 turns.
    const platform = rows[0]!;
    expect(within(platform).getByRole('link', { name: PLATFORM }).getAttribute('href')).toMatch(
      /^\/teams\/Engineering\/Platform\?start=2026-05-10&end=2026-05-13&/,
    );
    const cell = (row: HTMLElement, label: string) => row.querySelector(`td[data-label="${label}"]`)!;
    expect(within(cell(platform, 'Credits') as HTMLElement).getByTitle('40,000')).toBeTruthy();
    expect(within(cell(platform, 'Active people') as HTMLElement).getByTitle('8')).toBeTruthy();
    expect(within(cell(platform, 'Members') as HTMLElement).getByTitle('12')).toBeTruthy();
    expect(cell(platform, 'Adoption').textContent).toBe('66.7%');
    expect(cell(platform, 'Tool calls per user turn').textContent).toBe('3.0');
    const sales = rows[1]!;
    expect(within(sales).getByRole('link', { name: 'Sales' })).toBeTruthy();
    expect(within(cell(sales, 'Credits') as HTMLElement).getByTitle('8,000')).toBeTruthy();
    expect(within(cell(sales, 'Active people') as HTMLElement).getByTitle('9')).toBeTruthy();
    expect(rows).toHaveLength(2);
    // No spend without a price list.
    expect(screen.queryByText(/^Spend/)).toBeNull();
  });

  it('asks each team’s days on their own, as its page does, and draws one line per team', async () => {
    const fetchMock = stubServer();
    render(TWO);
    const credits = await chartTable('Credits');
    expect(credits.head).toEqual(['Day (UTC)', PLATFORM, 'Sales']);
    expect(credits.rows).toEqual(['May 10, 202600', 'May 11, 202630,0000', 'May 12, 202605,000', 'May 13, 202600']);
    const active = await chartTable('Daily active people');
    expect(active.head).toEqual(['Day (UTC)', PLATFORM, 'Sales']);
    expect(active.rows).toEqual(['May 10, 202600', 'May 11, 202660', 'May 12, 202603', 'May 13, 202600']);
    const tokens = asked(fetchMock).filter((u) => u.pathname === '/api/teams/analytics/tokens');
    expect(tokens.map((u) => u.search)).toEqual([
      '?startDate=2026-05-10&endDate=2026-05-13&team=Engineering%2FPlatform',
      '?startDate=2026-05-10&endDate=2026-05-13&team=Sales',
    ]);
  });

  it('keeps each team in one colour: its swatch in the list, the table and every chart’s legend', async () => {
    stubServer();
    render(`${RANGE}&team=R%26D%20Lab&team=Sales&team=${encodeURIComponent(PLATFORM)}`);
    const rows = await figureRows();
    const list = screen.getByRole('list', { name: 'Teams compared' });
    // The URL's teams, sorted: one spelling for one choice, and one colour for each team whatever order it was given in.
    const colours = new Map(
      within(list)
        .getAllByRole('listitem')
        .map((li) => [li.textContent, swatchOf(li)]),
    );
    expect([...colours]).toEqual([
      [PLATFORM, 'var(--chart-1)'],
      ['R&D Lab', 'var(--chart-2)'],
      ['Sales', 'var(--chart-3)'],
    ]);
    for (const r of rows) {
      const th = r.querySelector('td')!;
      expect(swatchOf(th)).toBe(colours.get(th.textContent!));
    }
    for (const title of ['Credits', 'Daily active people']) {
      const region = await screen.findByRole('region', { name: title });
      await waitFor(() => expect(within(region).getAllByRole('listitem')).toHaveLength(3), { timeout: 5000 });
      for (const li of within(region).getAllByRole('listitem')) expect(swatchOf(li)).toBe(colours.get(li.textContent!));
    }
  });

  it('names a team the server refuses, in its words, and compares the others', async () => {
    stubServer(['R&D Lab']);
    render(`${TWO}&team=Engineering%2FGone&team=R%26D%20Lab`);
    const notice = await screen.findByText(/2 teams are left out of the comparison/, undefined, { timeout: 5000 });
    const items = within(notice.parentElement!)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual([
      'Engineering/Gone: No team is called "Engineering/Gone" in the mapping in force.',
      'R&D Lab: You see the figures of Sales and their sub-teams; "R&D Lab" is not one of them.',
    ]);
    const rows = await figureRows();
    expect(rows.map((r) => r.querySelector('td')!.textContent)).toEqual([PLATFORM, 'Sales']);
    const credits = await chartTable('Credits');
    expect(credits.head).toEqual(['Day (UTC)', PLATFORM, 'Sales']);
    expect(
      within(screen.getByRole('list', { name: 'Teams compared' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([PLATFORM, 'Sales']);
  });

  it.each([
    [`${RANGE}&team=Sales`, 'Choose 2 to 5 teams to compare: only Sales is chosen. Add at least one more.'],
    [`${RANGE}`, 'Choose 2 to 5 teams to compare: no team is chosen yet.'],
    [
      `${RANGE}&team=A&team=B&team=C&team=D&team=E&team=F`,
      'A comparison shows 2 to 5 teams side by side; 6 are chosen (A, B, C, D, E, F). Remove 1 of them.',
    ],
  ])('says so when %s names fewer than 2 or more than 5 teams, and asks for nothing', async (search, said) => {
    const fetchMock = stubServer();
    render(search);
    expect(await screen.findByText(said)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'the Teams page' }).getAttribute('href')).toMatch(/^\/teams\?/);
    expect(screen.queryByRole('table')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('with a price list, gives each team’s spend as its page does, and the CSV has every figure of the teams page’s', async () => {
    const fetchMock = stubServer();
    render(TWO, { ...CONFIG, currency: 'USD' });
    const rows = await figureRows();
    // One money format for the column (whole dollars here), the exact amount on hover.
    const spendCell = (r: HTMLElement) => r.querySelector('td[data-label="Spend (USD)"] span[title]')!;
    await waitFor(() => expect(spendCell(rows[0]!).getAttribute('title')).toBe('$412.50'));
    expect(spendCell(rows[0]!).textContent).toBe('$413');
    expect(spendCell(rows[1]!).getAttribute('title')).toBe('$80.25');
    const spend = asked(fetchMock).filter((u) => u.pathname === '/api/spend');
    expect(spend.map((u) => u.searchParams.getAll('team'))).toEqual([[PLATFORM], ['Sales']]);

    const downloads = captureDownloads();
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV of Each team over the range' }));
    await waitFor(() => expect(downloads.count()).toBe(1));
    expect(downloads.files[0]!.name).toBe('teams-compare-figures-2026-05-10-2026-05-13.csv');
    const csv = parse(await downloads.text(), { columns: true }) as Record<string, string>[];
    expect(csv.map((r) => [r.team_path, r.credits, r.active_users, r.tool_calls_per_turn, r.spend_usd])).toEqual([
      [PLATFORM, '40000', '8', '3', '412.5'],
      ['Sales', '8000', '9', '3', '80.25'],
    ]);
  });
});
