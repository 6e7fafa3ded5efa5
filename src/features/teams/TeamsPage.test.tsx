// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TeamsSummary } from '../../api/teams';
import { TEST_CONFIG, captureDownloads, renderWithApp } from '../../test/render';
import { month, teamSpendRow } from '../../test/spend-fixtures';
import { TEAMS_ANSWER } from '../../test/analytics-fixtures';
import { DEFINITIONS } from '../../lib/definitions';
import { ROWS, goal, json, summary, summaryRow } from './fixtures';
import TeamsPage from './TeamsPage';

const CONFIG = { ...TEST_CONFIG, teams: true };

/**
 * The dashboard's server: `/api/teams/summary` answered by `answer`, `/api/teams` by the mapping's tree (35
 * known people: the organization's 39 members less 4 the mapping names who were never seen), anything else a 404.
 */
function stubServer(answer: (url: URL) => Response = () => json(summary()), goals?: unknown) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://dashboard.test');
    if (url.pathname === '/api/teams/summary') return answer(url);
    if (url.pathname === '/api/goals' && goals) return json(goals);
    if (url.pathname === '/api/teams') return json({ ...TEAMS_ANSWER, users: 35 });
    return json({ title: 'Not Found', detail: `No ${url.pathname}.` }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const render = (url = '/teams', config = CONFIG) => renderWithApp(<TeamsPage />, { url, config });

const table = () => screen.getByRole('table', { name: 'Teams, with their sub-teams' });
/** A row's team name, without its expand button's arrow. */
const name = (header: HTMLElement) => header.textContent?.replace(/[▸▾]/g, '');
/** The Team column, top to bottom. */
const teams = () =>
  within(table())
    .getAllByRole('row')
    .slice(1)
    .map((r) => name(within(r).getByRole('rowheader')));
const rowOf = (team: string) =>
  within(table())
    .getAllByRole('row')
    .find((r) => {
      const header = within(r).queryByRole('rowheader');
      return header !== null && name(header) === team;
    })!;
const cellOf = (team: string, column: string) => {
  const headers = within(table())
    .getAllByRole('columnheader')
    .map((h) => h.textContent?.replace(/[▲▼↕]/g, '').trim());
  return [...rowOf(team).querySelectorAll<HTMLElement>('th, td')][headers.indexOf(column)]!;
};

describe('TeamsPage', () => {
  it('asks for the summary of the range, and shows the organization first, the top-level teams, Unassigned last', async () => {
    const fetchMock = stubServer();
    render('/teams?start=2026-05-02&end=2026-05-31');
    await screen.findByRole('table', { name: 'Teams, with their sub-teams' });
    expect(teams()).toEqual(['Whole organization', 'Engineering', 'R&D Lab', 'Sales', 'Unassigned']);
    const asked = fetchMock.mock.calls.map(([u]) => new URL(String(u), 'http://dashboard.test'));
    // The summary first; once it is in, the known people (to say why members differ from them), the teams' goals and
    // the repositories' owners and readiness (for the comparison across teams), and the delegation headroom.
    const paths = asked.map((u) => `${u.pathname}${u.search}`);
    expect(paths[0]).toBe('/api/teams/summary?start=2026-05-02&end=2026-05-31');
    expect(paths.slice(1).sort()).toEqual([
      '/api/goals',
      '/api/readiness',
      '/api/readiness/friction?start=2026-05-02&end=2026-05-31',
      '/api/teams',
    ]);
    expect(
      await screen.findByText(
        /The organization's 39 members are its 35 known people and 4 people the mapping names who have not used the agent yet\./,
      ),
    ).toBeTruthy();
    // Every figure with a decided definition says it from its column header.
    for (const d of [
      DEFINITIONS.members,
      DEFINITIONS.activePeople,
      DEFINITIONS.adoption,
      DEFINITIONS.creditsPerActivePerson,
      DEFINITIONS.toolCallsPerTurn,
    ]) {
      const header = within(table()).getByRole('columnheader', { name: d.label });
      expect(within(header).getByRole('button', { name: `About ${d.label}` })).toBeTruthy();
    }
    // The figures of a row, and its change against the previous period.
    // One format for the column: another team's adoption needs a decimal, so every cell shows one.
    expect(cellOf('Engineering', 'Adoption').textContent).toBe('75.0%');
    expect(cellOf('Engineering', 'Credits change').textContent).toBe('▲ +25.0%');
    expect(cellOf('Sales', 'Credits change').textContent).toBe('▼ −20.0%');
    expect(cellOf('R&D Lab', 'Active people change').textContent).toBe('from 0');
    expect(cellOf('Engineering', 'Members').textContent).toBe('20');
    expect(within(cellOf('Engineering', 'Daily credits')).getByRole('img').getAttribute('aria-label')).toMatch(
      /^Engineering: daily credits from May 2 to May 5, most on May 5 \(400\); second half \+133\.3% on the first$/,
    );
  });

  it('with teams chosen in the selector, shows those teams and their sub-teams, each at the top of its tree', async () => {
    stubServer();
    render('/teams?team=Engineering%2FPlatform&team=Sales');
    await screen.findByRole('table', { name: 'Teams, with their sub-teams' });
    // No organization row: the figures are the chosen teams'; Platform heads its own tree.
    expect(teams()).toEqual(['Platform', 'Sales']);
    fireEvent.click(screen.getByRole('button', { name: 'Sub-teams of Platform' }));
    expect(teams()).toEqual(['Platform', 'Infra', 'Sales']);
    // The page says whose figures these are, by path.
    expect(screen.getByText('Teams:').parentElement!.textContent).toContain('Engineering/Platform');
  });

  it('links the teams chosen in the selector to their comparison, and says so only for 2 to 5 of them', async () => {
    stubServer();
    const { unmount } = render('/teams?start=2026-05-10&end=2026-05-16&team=Engineering%2FPlatform&team=Sales');
    const link = await screen.findByRole('link', { name: 'Compare these 2 teams' });
    expect(link.getAttribute('href')).toBe(
      '/compare?start=2026-05-10&end=2026-05-16&team=Engineering%2FPlatform&team=Sales',
    );
    unmount();
    render('/teams?team=Sales');
    expect((await screen.findByRole('link', { name: 'Compare teams' })).getAttribute('href')).toBe(
      '/compare?team=Sales',
    );
  });

  it('expands a team to show its sub-teams under it, and collapses it again', async () => {
    stubServer();
    render();
    await screen.findByRole('table', { name: 'Teams, with their sub-teams' });
    const engineering = screen.getByRole('button', { name: 'Sub-teams of Engineering' });
    expect(engineering.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('button', { name: 'Sub-teams of Platform' })).toBeNull();

    fireEvent.click(engineering);
    expect(engineering.getAttribute('aria-expanded')).toBe('true');
    expect(teams()).toEqual([
      'Whole organization',
      'Engineering',
      'Platform',
      'Apps',
      'R&D Lab',
      'Sales',
      'Unassigned',
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Sub-teams of Platform' }));
    expect(teams()).toEqual([
      'Whole organization',
      'Engineering',
      'Platform',
      'Infra',
      'Apps',
      'R&D Lab',
      'Sales',
      'Unassigned',
    ]);

    fireEvent.click(engineering);
    expect(teams()).toEqual(['Whole organization', 'Engineering', 'R&D Lab', 'Sales', 'Unassigned']);

    fireEvent.click(screen.getByRole('button', { name: 'Expand all' }));
    expect(teams()).toHaveLength(ROWS.length);
  });

  it('sorts by adoption among siblings, keeping each sub-team under its parent, and keeps the sort in the URL', async () => {
    stubServer();
    const r = render();
    await screen.findByRole('table', { name: 'Teams, with their sub-teams' });
    fireEvent.click(screen.getByRole('button', { name: 'Sub-teams of Engineering' }));
    expect(teams()).toEqual([
      'Whole organization',
      'Engineering',
      'Platform',
      'Apps',
      'R&D Lab',
      'Sales',
      'Unassigned',
    ]);

    fireEvent.click(screen.getByRole('button', { name: /^Adoption/ }));
    expect(r.params().get('teamsSort')).toBe('adoption:desc');
    expect(screen.getByRole('columnheader', { name: /^Adoption/ }).getAttribute('aria-sort')).toBe('descending');
    // Sales 90 % > Engineering 75 % > R&D Lab 50 %; under Engineering, Apps 87.5 % > Platform 66.7 %.
    expect(teams()).toEqual([
      'Whole organization',
      'Sales',
      'Engineering',
      'Apps',
      'Platform',
      'R&D Lab',
      'Unassigned',
    ]);

    fireEvent.click(screen.getByRole('button', { name: /^Adoption/ }));
    expect(r.params().get('teamsSort')).toBe('adoption:asc');
    expect(teams()).toEqual([
      'Whole organization',
      'R&D Lab',
      'Engineering',
      'Platform',
      'Apps',
      'Sales',
      'Unassigned',
    ]);
  });

  it('shows each team’s goal beside its adoption, its latest week against the target, and in the CSV', async () => {
    const off = goal({ team: 'Engineering', target: 0.8, by: '2026-06-30', status: 'off-course', value: 0.62 });
    const on = goal({ team: '', target: 0.5, by: '2027-01-31', status: 'on-course', value: 0.5234 });
    stubServer(undefined, { latest: '2026-05-31', goals: [on, off] });
    const downloads = captureDownloads();
    render();
    await screen.findByRole('table', { name: 'Teams, with their sub-teams' });
    await waitFor(() =>
      expect(cellOf('Engineering', 'Goal').textContent).toBe('62\u00a0% of 80\u00a0% by Jun 30 · off course'),
    );
    // A goal of another year says its year; a team without a goal has none.
    expect(cellOf('Whole organization', 'Goal').textContent).toBe(
      '52.3\u00a0% of 50\u00a0% by Jan 31, 2027 · on course',
    );
    expect(cellOf('Sales', 'Goal').textContent).toBe('–');
    const header = within(table()).getByRole('columnheader', { name: 'Goal' });
    expect(within(header).getByRole('button', { name: 'About Goal' })).toBeTruthy();
    // Beside the adoption it is read against.
    const headers = within(table())
      .getAllByRole('columnheader')
      .map((h) => h.textContent?.replace(/[▲▼↕]/g, '').trim());
    expect(headers.indexOf('Goal')).toBe(headers.indexOf('Adoption') + 1);
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV of Teams' }));
    const lines = (await downloads.text()).trimEnd().split('\r\n');
    expect(lines[0]).toMatch(
      /,daily_credits,goal_kind,goal_target,goal_by,goal_week,goal_value,goal_projected,goal_status$/,
    );
    const byPath = new Map(lines.slice(1).map((l) => [l.split(',')[0], l]));
    expect(byPath.get('Engineering')).toMatch(/,weekly-active,0\.8,2026-06-30,2026-05-18,0\.62,0\.7,off-course$/);
    expect(byPath.get('Sales')).toMatch(/,,,,,,,$/);
  });

  it('has no goal column while no goal is set', async () => {
    stubServer(undefined, { latest: '2026-05-31', goals: [] });
    render();
    await screen.findByRole('table', { name: 'Teams, with their sub-teams' });
    await waitFor(() => expect(within(table()).queryByRole('columnheader', { name: 'Goal' })).toBeNull());
  });

  it('downloads a CSV of every team with its path, expanded or not, and the organization’s totals', async () => {
    stubServer();
    const downloads = captureDownloads();
    render();
    await screen.findByRole('table', { name: 'Teams, with their sub-teams' });
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV of Teams' }));
    expect(downloads.files.map((f) => f.name)).toEqual(['teams-2026-05-02-2026-05-31.csv']);
    const lines = (await downloads.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'team_path,team_name,level,parent_path,managers,members,active_users,active_users_previous,active_users_change,adoption,credits,credits_previous,credits_change,credits_per_active_user,tool_calls,user_turns,tool_calls_per_turn,sessions,commits,pull_requests,credits_per_commit,credits_per_pull_request,daily_credits',
    );
    const byPath = new Map(lines.slice(1).map((l) => [l.split(',')[0], l]));
    expect([...byPath.keys()]).toEqual([
      '',
      'Engineering',
      'Engineering/Platform',
      'Engineering/Platform/Infra',
      'Engineering/Apps',
      'R&D Lab',
      'Sales',
      'Unassigned',
    ]);
    expect(byPath.get('')).toBe(
      `,Acme,0,,,39,27,20,0.35,0.6923076923076923,71000,50000,0.42,2629.6296296296296,300,100,3,900,12,3,${71_000 / 12},${71_000 / 3},100 200 300 400`,
    );
    expect(byPath.get('Engineering/Platform/Infra')).toMatch(
      /^Engineering\/Platform\/Infra,Infra,3,Engineering\/Platform,,5,4,4,0,0\.8,25000,20000,0\.25,6250,/,
    );
    expect(byPath.get('Engineering/Platform')).toContain(',"bo@acme.com; cy@acme.com",12,8,6,');
  });

  it('links each team to its page, each part of the path encoded, keeping the range', async () => {
    stubServer();
    render('/teams?start=2026-05-10&end=2026-05-16');
    await screen.findByRole('table', { name: 'Teams, with their sub-teams' });
    fireEvent.click(screen.getByRole('button', { name: 'Sub-teams of Engineering' }));
    const link = (name: string) => within(table()).getByRole('link', { name }).getAttribute('href');
    expect(link('Platform')).toBe('/teams/Engineering/Platform?start=2026-05-10&end=2026-05-16');
    expect(link('R&D Lab')).toBe('/teams/R%26D%20Lab?start=2026-05-10&end=2026-05-16');
    expect(link('Unassigned')).toBe('/teams/Unassigned?start=2026-05-10&end=2026-05-16');
    expect(within(rowOf('Whole organization')).queryByRole('link')).toBeNull();
    expect(screen.getByRole('link', { name: 'Team mapping' }).getAttribute('href')).toBe(
      '/settings/teams?start=2026-05-10&end=2026-05-16',
    );
  });

  it('says "no earlier period" when the period before the range starts before history', async () => {
    stubServer(() => json(summary(ROWS, false)));
    render();
    await screen.findByRole('table', { name: 'Teams, with their sub-teams' });
    expect(cellOf('Engineering', 'Credits change').textContent).toBe('no earlier period');
    expect(cellOf('Engineering', 'Active people change').textContent).toBe('no earlier period');
    expect(screen.getByText(/No change is shown: the period before this range starts before the history/)).toBeTruthy();
  });

  it('says when the mapping names no teams, and links to the mapping screen', async () => {
    const none: TeamsSummary = summary([summaryRow(''), summaryRow('Unassigned')]);
    stubServer(() => json(none));
    render();
    const notice = await screen.findByText(/The team mapping names no teams yet/);
    expect(within(notice).getByRole('link', { name: 'Set up the team mapping' }).getAttribute('href')).toBe(
      '/settings/teams',
    );
    expect(screen.getByText('No teams to show.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Download CSV of Teams' })).toBeNull();
  });

  it('shows a failed summary with its request id, and Retry asks again', async () => {
    let calls = 0;
    const fetchMock = stubServer(() =>
      ++calls === 1
        ? json({ title: 'Service Unavailable', detail: 'The store is busy.', requestId: 'req-teams-1' }, 503)
        : json(summary()),
    );
    render();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('503 Service Unavailable');
    expect(alert.textContent).toContain('The store is busy.');
    expect(within(alert).getByText('req-teams-1')).toBeTruthy();
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByRole('table', { name: 'Teams, with their sub-teams' });
    const summaries = fetchMock.mock.calls.filter(([u]) => String(u).startsWith('/api/teams/summary'));
    expect(summaries).toHaveLength(2);
  });

  it('shows a loading state while the summary is on its way', async () => {
    let release: (r: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (release = resolve))),
    );
    render();
    expect((await screen.findByRole('status')).textContent).toContain('Loading');
    release(json(summary()));
    await screen.findByRole('table', { name: 'Teams, with their sub-teams' });
    // The teams' widget is done loading (the comparison across teams, asked after it, is still on its way).
    const teamsWidget = screen.getByRole('region', { name: 'Teams' });
    await waitFor(() => expect(within(teamsWidget).queryByText('Loading…')).toBeNull());
  });

  it('explains that teams need the server’s store, and asks for nothing, when the server has none', () => {
    const fetchMock = stubServer();
    render('/teams', { ...CONFIG, teams: false });
    expect(screen.getByText(/Teams need the dashboard server to keep the organization/)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('TeamsPage with a price list', () => {
  const PRICED = { ...CONFIG, currency: 'EUR' };
  const SPEND = {
    currency: 'EUR',
    range: { start: '2026-05-02', end: '2026-05-31' },
    method: 'm',
    rows: [
      teamSpendRow('', { spend: 7100 }),
      teamSpendRow('Engineering', {
        spend: 5000.5,
        month: month({ budget: { budget: 2000, state: 'over', crossing: '2026-05-20', crossingForecast: false } }),
      }),
      teamSpendRow('R&D Lab', { spend: 100 }),
      teamSpendRow('Sales', {
        spend: 1500,
        month: month({ budget: { budget: 9000, state: 'on-track', crossing: null, crossingForecast: true } }),
      }),
      teamSpendRow('Unassigned', { spend: 20 }),
    ],
  };
  it('shows each team’s spend, month and budget beside its credits, sorts by budget state, and puts them in the CSV', async () => {
    const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://dashboard.test');
      if (url.pathname === '/api/teams/summary') return json(summary());
      if (url.pathname === '/api/spend/teams') return json(SPEND);
      return json({ title: 'Not Found', detail: `No ${url.pathname}.` }, 404);
    });
    vi.stubGlobal('fetch', fetchMock);
    const downloads = captureDownloads();
    render('/teams', PRICED);
    await waitFor(() => expect(cellOf('Engineering', 'Spend (EUR)').textContent).toBe('€5,001'));
    expect(cellOf('Engineering', 'Month to date').textContent).toBe('€2,800');
    expect(cellOf('Engineering', 'Month forecast').textContent).toBe('€3,100');
    expect(cellOf('Engineering', 'Budget').textContent).toBe('€2,000 Over budget');
    expect(cellOf('Sales', 'Budget').textContent).toBe('€9,000 On track');
    expect(cellOf('R&D Lab', 'Budget').textContent).toBe('none');
    fireEvent.click(screen.getByRole('button', { name: /^Budget/ }));
    await waitFor(() => expect(teams().slice(1, 3)).toEqual(['Engineering', 'Sales']));
    expect(screen.getByRole('link', { name: 'Budgets' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV of Teams' }));
    const lines = (await downloads.text()).trimEnd().split('\r\n');
    expect(lines[0]).toMatch(
      /,daily_credits,spend_eur,month_to_date_eur,forecast_low_eur,forecast_mid_eur,forecast_high_eur,monthly_budget_eur,budget_state,budget_crossing,spend_per_active_user_eur,spend_per_commit_eur,spend_per_pull_request_eur$/,
    );
    const eng = lines.find((l) => l.startsWith('Engineering,'))!;
    // Engineering: 15 active people, 210 commits, 44 pull requests.
    expect(
      eng.endsWith(`,5000.5,2800,3070,3100,3160,2000,over,2026-05-20,${5000.5 / 15},${5000.5 / 210},${5000.5 / 44}`),
    ).toBe(true);
  });

  it('shows no money and asks for none without a price list', async () => {
    const fetchMock = stubServer();
    render('/teams');
    await screen.findByRole('table', { name: 'Teams, with their sub-teams' });
    expect(screen.queryByRole('button', { name: /^Spend/ })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Budgets' })).toBeNull();
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('/api/spend'))).toBe(false);
  });
});
