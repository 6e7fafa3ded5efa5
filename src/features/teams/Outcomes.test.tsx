// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { CriterionResult, ReadinessReport } from '../../api/schemas';
import { addDays, eachDay } from '../../lib/dates';
import { AGENT_ONLY_CAVEAT } from '../../lib/definitions';
import { TEAMS_ANSWER } from '../../test/analytics-fixtures';
import { TEST_CONFIG, renderWithApp } from '../../test/render';
import { ROWS, json, summary } from './fixtures';
import TeamPage from './TeamPage';
import TeamsPage from './TeamsPage';
import { readinessScope } from './PayoffAcrossTeams';

// A chart is drawn once it has a width (jsdom lays nothing out).
vi.mock('../../components/use-width', () => ({ useWidth: () => [{ current: null }, 600] as const }));

const CONFIG = { ...TEST_CONFIG, teams: true };

/** A report at a level: 10 criteria, 2 × (level − 1) of them passing (0 %, 20 %, … 80 %). */
function report(repo: string, day: string, level: number): ReadinessReport {
  const results: Record<string, CriterionResult> = {};
  for (let i = 0; i < 10; i++)
    results[`c${i}`] = { numerator: i < 2 * (level - 1) ? 1 : 0, denominator: 1, rationale: '' };
  return {
    reportId: `${repo}-${day}`,
    createdAt: Date.parse(`${day}T09:00:00Z`),
    repoUrl: repo,
    apps: {},
    report: results,
  };
}

/**
 * Engineering's days from Mar 2 (a Monday) to Apr 28 (a Tuesday): 8 whole weeks and 2 days. Before Mar 23 a day
 * has 1,000 credits, 20 tool calls and 6 weekly active people; from Mar 30, 700 credits, 40 tool calls and 8;
 * 10 user turns and 1 commit a day, but no commit in the week of Apr 13.
 */
const RANGE = 'start=2026-03-02&end=2026-04-28';
const DAYS = eachDay('2026-03-02', '2026-04-28');
const after = (d: string) => d >= '2026-03-30';
const noCommits = (d: string) => d >= '2026-04-13' && d <= addDays('2026-04-13', 6);

/** api rises 2 → 3 on Mar 25 (week of Mar 23); docs rises 1 → 2 on Apr 22 (week of Apr 20, none whole after it). */
const OWNED = {
  ownership: true,
  repos: [
    { key: 'github.com/acme/api', team: 'Engineering' },
    { key: 'github.com/acme/docs', team: 'Engineering/Apps' },
  ],
  reports: [
    report('https://github.com/acme/api', '2026-02-20', 2),
    report('https://github.com/acme/docs', '2026-03-01', 1),
    report('git@github.com:Acme/api.git', '2026-03-25', 3),
    report('https://github.com/acme/docs', '2026-04-22', 2),
  ],
};

const meta = (url: URL) => ({
  org_id: 'org-1',
  start_date: url.searchParams.get('startDate')!,
  end_date: url.searchParams.get('endDate')!,
  teams: url.searchParams.getAll('team'),
  members: 12,
  org_only: [],
});

function stubServer(readiness: unknown = OWNED, marks: unknown[] = []) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://dashboard.test');
    const rows = (f: (d: string) => object) => json({ data: DAYS.map((d) => ({ date: d, ...f(d) })), meta: meta(url) });
    switch (url.pathname) {
      case '/api/teams/summary':
        return json(summary());
      case '/api/teams':
        return json(TEAMS_ANSWER);
      case '/api/readiness':
        return json(readiness);
      case '/api/marks':
        return json({ marks });
      case '/api/teams/analytics/tokens':
        return rows((d) => ({
          billable_tokens: after(d) ? 700 : 1_000,
          input_tokens: 1,
          output_tokens: 1,
          by_model: [],
        }));
      case '/api/teams/analytics/productivity':
        return rows((d) => ({
          files_created: 0,
          files_edited: 0,
          git_commits: noCommits(d) ? 0 : 1,
          git_prs_created: 1,
        }));
      case '/api/teams/analytics/tools':
        return rows((d) => ({
          tool_calls: after(d) ? 40 : 20,
          mcp_users_with_mcp: 0,
          skills_invocations: 0,
          slash_commands_invocations: 0,
          hooks_invocations: 0,
          autonomy_ratio_avg: 0,
          autonomy_ratio_p50: 0,
          autonomy_ratio_p90: 0,
          tool_calls_per_session_avg: 0,
          user_turns_per_session_avg: 0,
        }));
      case '/api/teams/analytics/activity':
        return rows((d) => ({
          daily_active_users: 3,
          weekly_active_users: after(d) ? 8 : 6,
          monthly_active_users: 9,
          sessions: 2,
          messages: 20,
          user_messages: 10,
        }));
      default:
        return json({ title: 'Not Found', detail: `No ${url.pathname}.` }, 404);
    }
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const renderTeam = (path = 'Engineering') =>
  renderWithApp(
    <Routes>
      <Route path="/teams/*" element={<TeamPage />} />
    </Routes>,
    { url: `/teams/${path}?${RANGE}`, config: CONFIG },
  );

const rowWith = (table: HTMLElement, text: string) =>
  within(table)
    .getAllByRole('row')
    .find((r) => r.textContent?.includes(text))!;

describe('a team’s outcome ratios per week', () => {
  it('says the caveat, and lists each week’s ratios: partial weeks marked, "—" for a week without commits', async () => {
    stubServer();
    renderTeam();
    const widget = await screen.findByRole('region', { name: 'Outcome ratios per week' });
    expect((await within(widget).findByRole('note')).textContent).toBe(AGENT_ONLY_CAVEAT);
    fireEvent.click(await within(widget).findByRole('button', { name: 'Show Outcome ratios per week as a table' }));
    const table = within(widget).getByRole('table', { name: 'Outcome ratios of Engineering, per week' });
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 9);
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent?.replace(/[▲▼↕]/g, '').trim());
    const cell = (week: string, column: string) =>
      rowWith(table, week).querySelectorAll('td')[headers.indexOf(column)]!.textContent;
    // Mar 2: 7,000 credits over 7 commits, 7 pull requests, 6 people.
    expect(cell('Mar 2, 2026', 'Credits per commit')).toBe('1,000');
    expect(cell('Mar 2, 2026', 'Credits per active person')).toBe('1,166.67');
    // Apr 13: no commit, so no credits per commit (not infinity).
    expect(cell('Apr 13, 2026', 'Credits per commit')).toBe('—none: no commits through the agent');
    expect(cell('Apr 13, 2026', 'Credits per pull request')).toBe('700');
    // Apr 27–28: two days of a week, marked, without active people.
    expect(cell('Apr 27, 2026', 'Week of')).toBe('Apr 27, 2026 (partial: 2 of 7 days)');
    expect(cell('Apr 27, 2026', 'Active people')).toBe('—none: a partial week');
    expect(within(widget).getByText(/^\* A partial week/)).toBeTruthy();
  });
});

describe('a team’s "Did it pay off"', () => {
  it('lists its repositories’ level rises, compares the whole weeks around each, and says how little stands behind it', async () => {
    const fetchMock = stubServer();
    renderTeam();
    const section = await screen.findByRole('region', { name: 'Did it pay off' });
    const rises = await within(section).findByRole('heading', { name: 'Level rises' });
    expect(
      within(rises.parentElement!)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Mar 25, 2026: acme/api, level 2 → 3', 'Apr 22, 2026: acme/docs, level 1 → 2']);
    expect(within(section).queryByRole('heading', { name: 'Level falls' })).toBeNull();

    const table = within(section).getByRole('table', { name: /before and after each level change/ });
    const api = rowWith(table, 'acme/api 2 → 3');
    expect(within(api).getByRole('rowheader').textContent).toContain('↑ acme/api, week of Mar 23, 2026');
    expect([...api.querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      '1 repository; 3 + 4 whole weeks',
      // Tool calls per user turn, credits per commit (19,600 over 21: no commit in the week of Apr 13),
      // per pull request, and the weeks' mean active people.
      '2.0 → 4.0',
      '1,000 → 933.33',
      '1,000 → 700',
      '6.0 → 8.0',
    ]);
    // The docs rise is in the range's last whole week: nothing to compare, only why.
    const docs = rowWith(table, 'acme/docs 1 → 2');
    expect(docs.querySelectorAll('td')[1]!.textContent).toBe(
      'Too little to compare: 4 whole weeks before and 0 whole weeks after in the range; at least 2 on each side are needed.',
    );
    expect(within(section).getByRole('note').textContent).toMatch(
      /correlation over few points.*Behind this: 2 repositories \(2 with a report\), 2 level changes and 8 whole weeks in the range\./,
    );
    // The readiness of the team's repositories, its sub-teams' included.
    const asked = fetchMock.mock.calls.map(([u]) => new URL(String(u), 'http://dashboard.test'));
    expect(asked.filter((u) => u.pathname === '/api/readiness').map((u) => u.search)).toEqual(['?team=Engineering']);
  });

  it('marks each change on the chart, and lists it in its week in the table view', async () => {
    stubServer();
    renderTeam();
    const section = await screen.findByRole('region', { name: 'Did it pay off' });
    await within(section).findByRole('heading', { name: 'Level rises' });
    expect(within(section).getByRole('figure').getAttribute('aria-label')).toBe(
      'Tool calls per user turn of Engineering per week, with 2 weeks of level changes marked: acme/api rose 2 → 3 (Mar 25, 2026); acme/docs rose 1 → 2 (Apr 22, 2026).',
    );
    fireEvent.click(
      within(section).getByRole('button', { name: 'Show the weekly figures and level changes as a table' }),
    );
    const weeks = within(section).getByRole('table', { name: /Weekly figures of Engineering/ });
    expect(rowWith(weeks, 'Mar 23, 2026').textContent).toContain('acme/api rose 2 → 3 (Mar 25, 2026)');
    expect(rowWith(weeks, 'Mar 16, 2026').textContent).toMatch(/—$/);
  });

  it('draws the team’s marks on their weeks, under the level changes’ labels, and lists them in the table view', async () => {
    stubServer(OWNED, [
      {
        id: 'm1',
        day: '2026-03-26',
        team: 'Engineering',
        text: 'Review training',
        source: 'user',
        author: null,
        updatedAt: null,
        editable: true,
      },
    ]);
    renderTeam();
    const section = await screen.findByRole('region', { name: 'Did it pay off' });
    await within(section).findByRole('heading', { name: 'Level rises' });
    const flag = await within(within(section).getByRole('figure')).findByRole('button', {
      name: 'Mark 1, Mar 26, 2026, Engineering: Review training',
    });
    // On the week of Mar 23, the week of api's rise: below that line's label, not over it.
    expect(within(section).getByRole('figure').querySelector('[data-mark-line]')!.getAttribute('data-mark-line')).toBe(
      '2026-03-23',
    );
    expect(parseFloat(flag.style.top)).toBeGreaterThanOrEqual(8 + 16);
    fireEvent.click(
      within(section).getByRole('button', { name: 'Show the weekly figures and level changes as a table' }),
    );
    expect(within(section).getByRole('table', { name: 'Marks' }).textContent).toContain('Review training');
  });

  it('says how to give the team repositories when the mapping names none, with a link to the mapping', async () => {
    stubServer({ ownership: false, repos: [], reports: [] });
    renderTeam();
    const section = await screen.findByRole('region', { name: 'Did it pay off' });
    const status = await within(section).findByText(/The team mapping names no repositories for Engineering/, {
      selector: '[role=status] *',
    });
    expect(status.parentElement!.textContent).toContain('Add a repos column to the mapping');
    expect(
      within(status.parentElement!).getByRole('link', { name: 'Edit the team mapping' }).getAttribute('href'),
    ).toBe(`/settings/teams?${RANGE}`);
    expect(within(section).queryByRole('table')).toBeNull();
  });
});

const renderTeams = () =>
  renderWithApp(<TeamsPage />, { url: '/teams?start=2026-05-02&end=2026-05-31', config: CONFIG });

describe('the teams page’s outcome ratios and comparison across teams', () => {
  it('shows credits per commit and per pull request with the caveat, and "—" for a team without commits', async () => {
    // As the server's runner gives them: no commits, no ratio (and no change of it).
    const none = { commits: 0, prs: 0, creditsPerCommit: null, creditsPerPr: null };
    const rows = ROWS.map((r) => (r.team === 'Sales' ? { ...r, current: { ...r.current, ...none } } : r));
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = new URL(String(input), 'http://dashboard.test');
        if (url.pathname === '/api/teams/summary') return json(summary(rows));
        return json({ title: 'Not Found', detail: `No ${url.pathname}.` }, 404);
      }),
    );
    renderTeams();
    const table = await screen.findByRole('table', { name: 'Teams, with their sub-teams' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent?.replace(/[▲▼↕]/g, '').trim());
    const cell = (team: string, column: string) =>
      rowWith(table, team).querySelectorAll('th, td')[headers.indexOf(column)]!.textContent;
    // Engineering: 50,000 credits, 210 commits, 44 pull requests.
    // One format for the column: another team's ratio needs two decimals, so every cell has two.
    expect(cell('Engineering', 'Credits per commit')).toBe('238.10');
    // Another team's ratio passes 10,000: whole numbers in the column, the exact ratio on hover.
    expect(cell('Engineering', 'Credits per pull request')).toBe('1,136');
    expect(within(rowWith(table, 'Engineering')).getByText('1,136').getAttribute('title')).toBe('1,136.36');
    expect(cell('Sales', 'Credits per commit')).toBe('—none: no commits through the agent');
    expect(cell('Sales', 'Credits per pull request')).toBe('—none: no pull requests through the agent');
    // Each ratio's change against the previous period: Engineering's credits per pull request went from 40,000 ÷ 40
    // to 50,000 ÷ 44 (up 13.6 %: more per pull request, the bad way); Sales' has none in the range.
    expect(cell('Engineering', 'Credits per pull request change')).toBe('▲ +13.6%');
    expect(within(rowWith(table, 'Engineering')).getByText('+13.6%', { exact: false }).className).toContain(
      'text-danger',
    );
    expect(cell('Sales', 'Credits per pull request change')).toBe('—none: none in the range');
    const teams = screen.getByRole('region', { name: 'Teams' });
    expect(within(teams).getByRole('note').textContent).toBe(AGENT_ONLY_CAVEAT);
  });

  const teamsWith = (repos: { key: string; team: string | null }[], reports: ReadinessReport[]) => {
    stubServer({ ownership: true, repos, reports });
    renderTeams();
    return screen.findByRole('region', { name: 'Readiness and outcomes across teams' });
  };

  it('sets each owning team’s mean latest level beside its figures, lowest first, with the caveat and counts', async () => {
    const widget = await teamsWith(
      [
        { key: 'github.com/acme/a', team: 'Engineering/Platform' },
        { key: 'github.com/acme/b', team: 'Engineering/Platform' },
        { key: 'github.com/acme/c', team: 'Sales' },
        { key: 'github.com/acme/d', team: 'R&D Lab' },
        { key: 'github.com/acme/e', team: null },
      ],
      [
        report('https://github.com/acme/a', '2026-04-01', 1),
        report('https://github.com/acme/a', '2026-05-10', 2),
        // After the range's last day: not its level yet.
        report('https://github.com/acme/a', '2026-06-02', 5),
        report('https://github.com/acme/b', '2026-05-01', 4),
        report('https://github.com/acme/c', '2026-05-01', 1),
        report('https://github.com/acme/d', '2026-05-01', 5),
        report('https://github.com/acme/e', '2026-05-01', 5),
      ],
    );
    const table = await within(widget).findByRole('table', { name: 'Readiness and outcomes across teams' });
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) => [...r.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent)),
    ).toEqual([
      ['Sales', '1.0 (1 repository)'],
      ['Platform', '3.0 (2 repositories)'],
      ['R&D Lab', '5.0 (1 repository)'],
    ]);
    expect(within(table).getByRole('link', { name: 'Platform' }).getAttribute('href')).toBe(
      '/teams/Engineering/Platform?start=2026-05-02&end=2026-05-31',
    );
    expect(within(widget).getByRole('note').textContent).toMatch(
      /correlation over few points.*Behind this: 3 teams and 4 repositories with a report\./,
    );
  });

  it('says there is too little with fewer than 3 owning teams, and how to add repositories with none', async () => {
    const widget = await teamsWith(
      [
        { key: 'github.com/acme/a', team: 'Sales' },
        { key: 'github.com/acme/b', team: 'R&D Lab' },
      ],
      [report('https://github.com/acme/a', '2026-05-01', 2), report('https://github.com/acme/b', '2026-05-01', 3)],
    );
    await waitFor(() =>
      expect(within(widget).getByRole('status').textContent).toBe(
        'Too little to compare: 2 teams own repositories with a readiness report; at least 3 are needed.',
      ),
    );
    expect(within(widget).queryByRole('table')).toBeNull();
  });

  it('says how to give teams repositories when the mapping names none', async () => {
    const widget = await teamsWith([{ key: 'github.com/acme/a', team: null }], []);
    await waitFor(() => expect(within(widget).getByRole('status').textContent).toContain('Add a repos column'));
    expect(within(widget).queryByRole('table')).toBeNull();
  });
});

describe('readinessScope', () => {
  it('asks for everyone’s repositories with the organization’s row, else for the outermost teams shown', () => {
    expect(readinessScope(ROWS)).toEqual([]);
    const theirs = ROWS.filter((r) => r.team.startsWith('Engineering/') || r.team === 'Sales');
    expect(readinessScope(theirs)).toEqual(['Engineering/Platform', 'Engineering/Apps', 'Sales']);
  });
});
