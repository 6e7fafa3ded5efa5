// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { UserDaysAnswer } from '../../api/users';
import { mergeUserRows } from '../../lib/user-merge';
import { userRow } from '../../test/fixtures';
import { cardDefinitions, undefinedCards } from '../../test/kpi';
import { month, spendAnswer, teamSpendRow } from '../../test/spend-fixtures';
import { TEST_CONFIG, renderWithApp } from '../../test/render';
import UserPage from './UserPage';

const days = [
  userRow({ user_id: 'u-bob', user_email: 'bob@acme.com', date: '2026-05-10', billable_tokens: 7_000, tool_calls: 20 }),
  userRow({ user_id: 'u-bob', user_email: 'bob@acme.com', date: '2026-05-11', billable_tokens: 5_000, tool_calls: 30 }),
];

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The dashboard's server with a store: `/api/users/<id>` for the user, the credits endpoint empty. */
function stubServer(answer: (id: string) => Response) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://dashboard.test');
    if (url.pathname.startsWith('/api/users/')) return answer(decodeURIComponent(url.pathname.slice(11)));
    if (url.pathname === '/api/v1/analytics/tokens') {
      return json({ data: [], meta: { org_id: 'o', start_date: '2026-05-02', end_date: '2026-05-31' } });
    }
    return json({ title: 'Not Found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const render = (url: string) =>
  renderWithApp(
    <Routes>
      <Route path="/users/:userId" element={<UserPage />} />
    </Routes>,
    { url, config: { ...TEST_CONFIG, keyRequired: false } },
  );

describe('UserPage, from the server’s store', () => {
  it("asks the server for this user's days only, and shows them merged", async () => {
    const fetchMock = stubServer((id) => {
      const body: UserDaysAnswer = {
        userId: id,
        user: mergeUserRows(days)[0]!,
        days,
        range: { start: '2026-05-02', end: '2026-05-31' },
        complete: true,
      };
      return json(body);
    });
    render('/users/u-bob');
    // The file's first render imports the page's widgets: allow for a loaded machine.
    expect(await screen.findByRole('heading', { level: 1, name: 'bob@acme.com' }, { timeout: 5000 })).toBeTruthy();
    const kpi = (label: string) => screen.getByText(label, { exact: true }).parentElement!;
    expect(within(kpi('Standard credits')).getByTitle('12,000')).toBeTruthy();
    expect(within(kpi('Active days')).getByTitle('2')).toBeTruthy();
    const rows = await screen.findByRole('table', { name: 'Daily rows' });
    expect(within(rows).getAllByRole('row')).toHaveLength(3);
    const asked = fetchMock.mock.calls.map(([u]) => new URL(String(u), 'http://dashboard.test'));
    const user = asked.filter((u) => u.pathname.startsWith('/api/users'));
    expect(user.map((u) => `${u.pathname}${u.search}`)).toEqual(['/api/users/u-bob?start=2026-05-02&end=2026-05-31']);
    expect(asked.some((u) => u.pathname === '/api/v1/analytics/users')).toBe(false);
  });

  it('says there is no such person when the store has never seen the id, and draws no empty cards', async () => {
    stubServer(() => json({ title: 'Not Found', status: 404, detail: 'No user with the id "u-x".' }, 404));
    render('/users/u-x?q=bo&who=inactive');
    expect(await screen.findByText('No such person in this organization.', undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain(
      'No one with the id u-x has a day of activity in the history the dashboard keeps (since Jan 14, 2026).',
    );
    expect(screen.getByRole('heading', { level: 1, name: 'u-x' })).toBeTruthy();
    // No cards, charts or tables of nobody's figures.
    expect(screen.queryByText('Standard credits')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Credits' })).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
    // The way back is the list the reader came from.
    expect(screen.getByRole('link', { name: '← All users' }).getAttribute('href')).toBe('/users?q=bo&who=inactive');
  });

  it('says the page is not theirs to see, with the server’s reason, rather than empty cards', async () => {
    const detail = 'A manager sees the people of their teams; this person is in none of them.';
    stubServer(() => json({ title: 'Forbidden', status: 403, detail }, 403));
    render('/users/u-y');
    expect(
      await screen.findByText('This person’s page is not shown to you.', undefined, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByText(detail)).toBeTruthy();
    expect(screen.queryByText('Standard credits')).toBeNull();
  });

  describe('with a price list and teams: the budgets that apply', () => {
    const budget = (amount: number, state: 'on-track' | 'at-risk' | 'over') => ({
      month: month({ budget: { budget: amount, state, crossing: null, crossingForecast: true } }),
    });
    /** The server: the user in `team`, their spend, and every team's month with the budgets given. */
    function stubSpend(team: string, rows: ReturnType<typeof teamSpendRow>[] | 'refused') {
      vi.stubGlobal(
        'fetch',
        vi.fn(async (input: RequestInfo | URL) => {
          const url = new URL(String(input), 'http://dashboard.test');
          if (url.pathname === '/api/spend/teams')
            return rows === 'refused'
              ? json({ title: 'Forbidden', status: 403, detail: 'Admins and managers only.' }, 403)
              : json({ currency: 'EUR', range: { start: '2026-05-02', end: '2026-05-31' }, rows, method: '' });
          if (url.pathname === '/api/spend') return json(spendAnswer({ user: 'u-bob' }));
          if (url.pathname.startsWith('/api/users/'))
            return json({
              userId: 'u-bob',
              user: { ...mergeUserRows(days)[0]!, team, managers: [] },
              days,
              range: { start: '2026-05-02', end: '2026-05-31' },
              complete: true,
            });
          if (url.pathname === '/api/v1/analytics/tokens')
            return json({ data: [], meta: { org_id: 'o', start_date: '2026-05-02', end_date: '2026-05-31' } });
          return json({ title: 'Not Found' }, 404);
        }),
      );
    }
    const renderPriced = () =>
      renderWithApp(
        <Routes>
          <Route path="/users/:userId" element={<UserPage />} />
        </Routes>,
        { url: '/users/u-bob', config: { ...TEST_CONFIG, keyRequired: false, teams: true, currency: 'EUR' } },
      );

    it('says how each card is counted, spend included', async () => {
      stubSpend('Eng/Platform', [teamSpendRow('')]);
      renderPriced();
      await screen.findByRole('region', { name: 'Spend in May 2026' });
      expect(cardDefinitions().map(([label]) => label)).toEqual([
        'Standard credits',
        'Spend',
        'Share of organization credits',
        'Tool calls',
        'Sessions',
        'Active days',
        'Tool calls per user turn',
      ]);
      expect(undefinedCards()).toEqual([]);
      const said = Object.fromEntries(cardDefinitions());
      expect(said['Active days']).toBe(
        'Active days: Days of the range on which the service reports activity for the person.',
      );
      expect(said['Spend']).toMatch(/^Spend: Each day’s credits .*, summed over the range’s days\.$/);
    });

    it('lists the budgets of the person’s team and of the teams above it, nearest first, with their state', async () => {
      stubSpend('Eng/Platform', [
        teamSpendRow('', budget(9000, 'on-track')),
        teamSpendRow('Eng', budget(2000, 'over')),
        teamSpendRow('Eng/Platform'),
        teamSpendRow('Sales', budget(500, 'at-risk')),
      ]);
      renderPriced();
      const widget = await screen.findByRole('region', { name: 'Spend in May 2026' });
      await within(widget).findByText('Team budgets');
      const budgets = () =>
        within(widget)
          .queryAllByRole('definition')
          .filter((d) => within(d).queryByRole('link'));
      // The month's figures are drawn by code loaded after the page's first chart.
      await waitFor(() =>
        expect(budgets().map((d) => d.textContent)).toEqual([
          'Eng€2,000 a monthOver budget',
          'Whole organization€9,000 a monthOn track',
        ]),
      );
      const lines = budgets();
      expect(within(lines[0]!).getByRole('link').getAttribute('href')).toBe('/teams/Eng');
      expect(within(widget).queryByText('No monthly budget set.')).toBeNull();
      expect(within(widget).getByText(/each state is the team’s spend against its budget/)).toBeTruthy();
    });

    it('says where budgets live to a reader who may not see the teams’ spend, without an error', async () => {
      stubSpend('Sales/EMEA', 'refused');
      renderPriced();
      const widget = await screen.findByRole('region', { name: 'Spend in May 2026' });
      expect(
        await within(widget).findByText('Budgets are set per team, and shown to admins and the team’s managers.'),
      ).toBeTruthy();
      expect(within(widget).queryByText('The team budgets could not be read.')).toBeNull();
    });

    it('says budgets are set per team when none covers the person', async () => {
      stubSpend('Sales/EMEA', [teamSpendRow(''), teamSpendRow('Eng', budget(2000, 'over'))]);
      renderPriced();
      const widget = await screen.findByRole('region', { name: 'Spend in May 2026' });
      expect((await within(widget).findByText(/^Budgets are set per team; none covers/)).textContent).toBe(
        'Budgets are set per team; none covers Sales/EMEA. Budgets',
      );
      expect(within(widget).queryByText('No monthly budget set.')).toBeNull();
    });
  });
});
