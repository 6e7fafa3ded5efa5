// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { UsersTableAnswer } from '../../api/users';
import { mergeUserRows } from '../../lib/user-merge';
import { userRow } from '../../test/fixtures';
import { cardDefinitions, undefinedCards } from '../../test/kpi';
import { TEST_CONFIG, renderWithApp } from '../../test/render';
import { json, summary } from './fixtures';
import TeamPage from './TeamPage';

const CONFIG = { ...TEST_CONFIG, teams: true };
const RANGE = 'start=2026-05-10&end=2026-05-16';

const MEMBERS = mergeUserRows([
  userRow({ user_id: 'u-ann', user_email: 'ann@acme.com', date: '2026-05-11', billable_tokens: 30_000 }),
  userRow({ user_id: 'u-bo', user_email: 'bo@acme.com', date: '2026-05-12', billable_tokens: 10_000 }),
]).sort((a, b) => b.credits - a.credits);

const meta = (url: URL, team: string[]) => ({
  org_id: 'org-1',
  start_date: url.searchParams.get('startDate')!,
  end_date: url.searchParams.get('endDate')!,
  teams: team,
  members: 12,
  org_only: [],
});

function tableAnswer(url: URL, over: Partial<UsersTableAnswer> = {}): UsersTableAnswer {
  return {
    users: MEMBERS,
    offset: 0,
    total: MEMBERS.length,
    activeUsers: 27,
    inactiveUsers: 0,
    history: { storedDays: 30, days: 30 },
    facets: { delegation: [], tier: [], lang: [] },
    range: { start: url.searchParams.get('start')!, end: url.searchParams.get('end')! },
    sort: { column: 'credits', dir: 'desc' },
    complete: true,
    ...over,
  };
}

/**
 * The dashboard's server: the summary, the team analytics (a day of credits and of activity), and
 * the users table for a team; `filling` first answers of the table say the range is still being read.
 */
function stubServer(filling = 0) {
  let fills = filling;
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://dashboard.test');
    const team = url.searchParams.getAll('team');
    switch (url.pathname) {
      case '/api/teams/summary':
        return json(summary());
      case '/api/teams/analytics/tokens':
        return json({
          data: [
            {
              date: '2026-05-11',
              billable_tokens: 30_000,
              input_tokens: 1,
              output_tokens: 1,
              by_model: [],
              by_user: [],
            },
          ],
          meta: { ...meta(url, team), org_only: ['cache_read_tokens', 'cache_write_tokens'] },
        });
      case '/api/teams/analytics/activity':
        return json({
          data: [
            {
              date: '2026-05-11',
              daily_active_users: 2,
              weekly_active_users: 2,
              monthly_active_users: 2,
              sessions: 9,
              messages: 40,
              user_messages: 20,
            },
          ],
          meta: { ...meta(url, team), org_only: ['daily_active_users_by_client'] },
        });
      case '/api/users':
        if (fills > 0) {
          fills--;
          return json(
            tableAnswer(url, {
              users: [],
              total: 0,
              complete: false,
              progress: { days: 7, storedDays: 3, activity: null, detail: 'still reading' },
            }),
            202,
          );
        }
        return json(tableAnswer(url));
      default:
        return json({ title: 'Not Found', detail: `No ${url.pathname}.` }, 404);
    }
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const render = (url: string) =>
  renderWithApp(
    <Routes>
      <Route path="/teams/*" element={<TeamPage />} />
    </Routes>,
    { url, config: CONFIG },
  );

const kpi = (label: string) => screen.getByText(label, { exact: true, selector: 'p' }).parentElement!;
const asked = (fetchMock: ReturnType<typeof stubServer>) =>
  fetchMock.mock.calls.map(([u]) => new URL(String(u), 'http://dashboard.test'));

describe('TeamPage', () => {
  it('shows the team’s KPIs from its summary row, with the change against the previous period', async () => {
    stubServer();
    render(`/teams/Engineering/Platform?${RANGE}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Platform' })).toBeTruthy();
    await waitFor(() => expect(within(kpi('Members')).getByTitle('12')).toBeTruthy());
    expect(within(kpi('Active people')).getByTitle('8')).toBeTruthy();
    expect(within(kpi('Active people')).getByText('▲ +33.3% vs previous period')).toBeTruthy();
    expect(within(kpi('Adoption')).getByText('66.7%')).toBeTruthy();
    expect(within(kpi('Adoption')).getByText('+16.7 pts vs previous period')).toBeTruthy();
    expect(within(kpi('Credits')).getByTitle('40,000')).toBeTruthy();
    expect(within(kpi('Credits')).getByText('▲ +25.0% vs previous period')).toBeTruthy();
    expect(within(kpi('Credits per active person')).getByTitle('5,000')).toBeTruthy();
    // 2,400 tool calls over 800 turns, against 1,800 over 900 before.
    expect(within(kpi('Tool calls per user turn')).getByText('3.0')).toBeTruthy();
    expect(within(kpi('Tool calls per user turn')).getByText('▲ +50.0% vs previous period')).toBeTruthy();
    expect(within(kpi('Sessions')).getByTitle('320')).toBeTruthy();
    expect(screen.getByText('bo@acme.com, cy@acme.com')).toBeTruthy();
  });

  it('says how each card is counted: credits, sessions, commits and pull requests too', async () => {
    stubServer();
    render(`/teams/Engineering/Platform?${RANGE}`);
    await waitFor(() => expect(within(kpi('Members')).getByTitle('12')).toBeTruthy());
    expect(cardDefinitions().map(([label]) => label)).toEqual([
      'Members',
      'Active people',
      'Adoption',
      'Credits',
      'Credits per active person',
      'Tool calls per user turn',
      'Sessions',
      'Commits',
      'Pull requests',
    ]);
    expect(undefinedCards()).toEqual([]);
    const said = Object.fromEntries(cardDefinitions());
    expect(said['Credits']).toMatch(/^Standard credits: The service’s unit of consumption, as it reports it, summed/);
    expect(said['Commits']).toMatch(/not every commit of the organization, team or person\.$/);
  });

  it('has a breadcrumb of the parent teams, and a link that opens every page for this team', async () => {
    stubServer();
    render(`/teams/Engineering/Platform/Infra?${RANGE}`);
    const crumbs = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(
      within(crumbs)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Teams', `/teams?${RANGE}`],
      ['Engineering', `/teams/Engineering?${RANGE}`],
      ['Platform', `/teams/Engineering/Platform?${RANGE}`],
    ]);
    expect(within(crumbs).getByText('Infra').getAttribute('aria-current')).toBe('page');
    const every = screen.getByRole('link', { name: 'Show every page for this team' });
    const href = new URL(every.getAttribute('href')!, 'http://dashboard.test');
    expect(href.pathname).toBe('/');
    expect(href.searchParams.getAll('team')).toEqual(['Engineering/Platform/Infra']);
    expect(href.searchParams.get('start')).toBe('2026-05-10');
    expect(href.searchParams.get('end')).toBe('2026-05-16');
  });

  it('lists its sub-teams, each linking to its page with the range', async () => {
    stubServer();
    render(`/teams/Engineering?${RANGE}`);
    const subTeams = await screen.findByRole('table', { name: 'Sub-teams' });
    const links = within(subTeams).getAllByRole('link');
    // Most credits first: Platform (40,000), Apps (10,000); Infra is Platform's, not Engineering's.
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Platform', `/teams/Engineering/Platform?${RANGE}`],
      ['Apps', `/teams/Engineering/Apps?${RANGE}`],
    ]);
  });

  it('lists the members active in the range from the users table of the team, each linking to their page with the range', async () => {
    const fetchMock = stubServer();
    render(`/teams/Engineering/Platform?${RANGE}`);
    const members = await screen.findByRole('table', { name: 'Members active in the range' });
    const links = within(members).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['ann@acme.com', `/users/u-ann?${RANGE}`],
      ['bo@acme.com', `/users/u-bo?${RANGE}`],
    ]);
    expect(screen.getByText(/^2 of the 12 members were active from May 10, 2026 to May 16, 2026\.$/)).toBeTruthy();
    const urls = asked(fetchMock);
    const users = urls.find((u) => u.pathname === '/api/users')!;
    expect(Object.fromEntries(users.searchParams)).toEqual({
      start: '2026-05-10',
      end: '2026-05-16',
      team: 'Engineering/Platform',
      sort: 'credits',
      dir: 'desc',
      offset: '0',
      limit: '500',
    });
    const tokens = urls.find((u) => u.pathname === '/api/teams/analytics/tokens')!;
    expect(tokens.search).toBe('?startDate=2026-05-10&endDate=2026-05-16&team=Engineering%2FPlatform');
    expect(urls.some((u) => u.pathname === '/api/teams/analytics/activity')).toBe(true);
  });

  it('draws the team’s daily credits from the team analytics, one point per day of the range', async () => {
    stubServer();
    render(`/teams/Engineering/Platform?${RANGE}`);
    const credits = await screen.findByRole('region', { name: 'Credits' });
    await waitFor(() => expect(within(credits).queryByRole('status')).toBeNull());
    fireEvent.click(within(credits).getByRole('button', { name: 'Show Credits as a table' }));
    const rows = within(within(credits).getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      'May 10, 20260',
      'May 11, 202630,000',
      'May 12, 20260',
      'May 13, 20260',
      'May 14, 20260',
      'May 15, 20260',
      'May 16, 20260',
    ]);
  });

  it('shows the progress while the server reads the range, and the members once it has', async () => {
    stubServer(1);
    render(`/teams/Engineering/Platform?${RANGE}`);
    expect(
      await screen.findByText(/Reading the users of this range from the service: 3 of 7 days stored/),
    ).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Members active in the range' })).toBeNull();
    // Asked again a second later.
    const members = await screen.findByRole('table', { name: 'Members active in the range' }, { timeout: 3000 });
    expect(within(members).getAllByRole('link')).toHaveLength(2);
    expect(screen.queryByText(/Reading the users of this range/)).toBeNull();
  });

  it('reads a path whose parts are encoded', async () => {
    const fetchMock = stubServer();
    render(`/teams/R%26D%20Lab?${RANGE}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'R&D Lab' })).toBeTruthy();
    await waitFor(() => expect(within(kpi('Members')).getByTitle('4')).toBeTruthy());
    const users = asked(fetchMock).find((u) => u.pathname === '/api/users')!;
    expect(users.searchParams.get('team')).toBe('R&D Lab');
  });

  it('says clearly when the mapping has no such team', async () => {
    stubServer();
    render(`/teams/Engineering/Gone?${RANGE}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Team not found' })).toBeTruthy();
    expect(screen.getByText('Engineering/Gone')).toBeTruthy();
    expect(screen.getByText(/has no team/).textContent).toContain('It may have been renamed or removed');
    expect(screen.getByRole('link', { name: 'All teams' }).getAttribute('href')).toBe(`/teams?${RANGE}`);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByText('Members')).toBeNull();
  });
});
