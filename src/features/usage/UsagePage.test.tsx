// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ORG_ONLY_NOTE } from '../../components/OrgOnlyNote';
import { HEADLINE, stubDashboard, teamFigures, tokenDay } from '../../test/analytics-fixtures';
import type { Me } from '../../data/me';
import { cardDefinitions, undefinedCards } from '../../test/kpi';
import { spendAnswer } from '../../test/spend-fixtures';
import { TEST_CONFIG, createTestQueryClient, renderWithApp } from '../../test/render';
import UsagePage from './UsagePage';

// The tables' code loads after the first chart is painted: here it is in, as a browser's cache would have it.
beforeAll(() => import('../../components/TableWidget'));

const CONFIG = { ...TEST_CONFIG, teams: true };
const URL_TWO_TEAMS = '/?start=2026-05-01&end=2026-05-31&team=Sales&team=Engineering/Platform';
const ORG = {
  tokens: [
    tokenDay({
      billable_tokens: 70_000,
      input_tokens: 50_000,
      by_user: [{ user_id: 'u-zed', user_email: 'zed@acme.com', billable_tokens: 70_000, by_model: [] }],
    }),
  ],
};
const TEAM = {
  tokens: [
    tokenDay({
      billable_tokens: 1_000,
      input_tokens: 600,
      output_tokens: 400,
      by_user: [{ user_id: 'u-ann', user_email: 'ann@acme.com', billable_tokens: 1_000, by_model: [] }],
    }),
  ],
};

const kpi = (label: string) => screen.getByText(label, { selector: 'p' }).parentElement!;

describe('UsagePage for teams', () => {
  it('asks the team endpoint with every team, grouped by model and not, for this period and the previous', async () => {
    const stub = stubDashboard(ORG, TEAM);
    renderWithApp(<UsagePage />, { url: URL_TWO_TEAMS, config: CONFIG });
    // The top users' table is drawn after the first chart is painted; the file's first render is the slowest.
    await screen.findByRole('link', { name: 'ann@acme.com' }, { timeout: 5000 });
    const asked = stub.asked('/api/teams/analytics/tokens');
    for (const u of asked) expect(u.searchParams.getAll('team')).toEqual(['Engineering/Platform', 'Sales']);
    const what = asked.map((u) => `${u.searchParams.get('startDate')} ${u.searchParams.get('group_by') ?? ''}`);
    // May is a calendar month: its previous period is April, whole.
    expect(new Set(what)).toEqual(new Set(['2026-05-01 model', '2026-05-01 ', '2026-04-01 ']));
    const april = asked.find((u) => u.searchParams.get('startDate') === '2026-04-01')!;
    expect(april.searchParams.get('endDate')).toBe('2026-04-30');
    expect(stub.asked('/api/v1/analytics/tokens')).toEqual([]);
    // The top users come from the server's team top-users, with every team and the range.
    const top = stub.asked('/api/teams/top-users');
    expect(top.map((u) => [u.searchParams.get('start'), u.searchParams.getAll('team')])).toEqual([
      ['2026-05-01', ['Engineering/Platform', 'Sales']],
    ]);
    expect(screen.getByText('Teams:').parentElement!.textContent).toContain('Engineering/PlatformSales');
  });

  it("shows the teams' tokens and top users, and the note in place of the cache tokens", async () => {
    stubDashboard(ORG, TEAM);
    renderWithApp(<UsagePage />, { url: URL_TWO_TEAMS, config: CONFIG });
    const ann = await screen.findByRole('link', { name: 'ann@acme.com' });
    expect(screen.queryByText('zed@acme.com')).toBeNull();
    // The user's link keeps every team, as the URL has them.
    const carried = new URLSearchParams(ann.getAttribute('href')!.split('?')[1]);
    expect(carried.getAll('team')).toEqual(['Sales', 'Engineering/Platform']);
    expect(kpi('Input tokens').textContent).toContain('600');
    expect(within(kpi('Cache read tokens')).getByRole('note').textContent).toBe(ORG_ONLY_NOTE);
    expect(within(kpi('Cache write tokens')).getByRole('note').textContent).toBe(ORG_ONLY_NOTE);
    expect(screen.queryByText('9,000')).toBeNull();

    const tokens = screen.getByRole('region', { name: 'Tokens by kind' });
    expect((await within(tokens).findByRole('note')).textContent).toBe(
      'Cache read and cache write tokens are given by the service for the whole organization only — not split by team.',
    );
    fireEvent.click(within(tokens).getByRole('button', { name: /as a table/ }));
    const headers = within(within(tokens).getByRole('table')).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual(['Day (UTC)', 'Input', 'Output']);
  });

  it('for the whole organization, shows the cache tokens and no note', async () => {
    const stub = stubDashboard(ORG, TEAM);
    renderWithApp(<UsagePage />, { url: '/?start=2026-05-01&end=2026-05-31', config: CONFIG });
    await screen.findByRole('link', { name: 'zed@acme.com' });
    // With a store, the organization's days come without every user's split, and the top users from the server.
    const lean = stub.asked('/api/teams/analytics/tokens');
    expect(lean.length).toBeGreaterThan(0);
    for (const u of lean) expect(u.searchParams.getAll('team')).toEqual([]);
    expect(stub.asked('/api/v1/analytics/tokens').every((u) => u.searchParams.get('group_by') === 'model')).toBe(true);
    expect(stub.asked('/api/teams/top-users').map((u) => u.searchParams.getAll('team'))).toEqual([[]]);
    expect(kpi('Cache read tokens').textContent).toContain('9,000');
    const tokens = screen.getByRole('region', { name: 'Tokens by kind' });
    fireEvent.click(within(tokens).getByRole('button', { name: /as a table/ }));
    const headers = within(within(tokens).getByRole('table')).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual(['Day (UTC)', 'Input', 'Output', 'Cache read', 'Cache write']);
    expect(screen.queryByRole('note')).toBeNull();
  });
});

describe('UsagePage leads with people and outcomes', () => {
  const labels = () => screen.getAllByText(/./, { selector: 'div.relative > p:first-child' }).map((p) => p.textContent);

  it('with a store: active people, adoption, credits standing in for spend and per pull request, then the chart, then tokens', async () => {
    const stub = stubDashboard(ORG, TEAM);
    renderWithApp(<UsagePage />, { url: URL_TWO_TEAMS, config: CONFIG });
    await waitFor(() => expect(kpi('Active people').textContent).toContain('15'), { timeout: 5000 });
    expect(labels()).toEqual([
      'Active people',
      'Adoption',
      'Standard credits',
      'Credits per pull request',
      'Input tokens',
      'Output tokens',
      'Cache read tokens',
      'Cache write tokens',
    ]);
    // Each with its change, as the other cards: relative, a share's in points, a ratio that did not move.
    expect(kpi('Active people').textContent).toBe('Active people15▲ +25.0% vs Aprilof 20 members');
    expect(kpi('Adoption').textContent).toBe('Adoption75%▲ +15.0 pts vs April');
    expect(kpi('Standard credits').textContent).toContain('no price list: credits stand in for spend');
    expect(kpi('Credits per pull request').textContent).toBe('Credits per pull request7,000■ 0.0% vs April');
    // The figures are the runner's, for the teams chosen, asked once the first chart's answer is in.
    const figures = stub.asked('/api/figures');
    expect(
      figures.map((u) => [
        u.searchParams.get('by'),
        u.searchParams.get('start'),
        u.searchParams.getAll('team'),
        u.searchParams.getAll('measure'),
      ]),
    ).toEqual([
      [
        'total',
        '2026-05-01',
        ['Engineering/Platform', 'Sales'],
        ['active', 'members', 'adoption', 'prs', 'creditsPerPr'],
      ],
    ]);
    const first = stub.urls.findIndex((u) => u.includes('group_by=model'));
    expect(stub.urls.findIndex((u) => u.startsWith('/api/figures'))).toBeGreaterThan(first);
    // The tokens are below the first chart.
    const chart = screen.getByRole('region', { name: 'Standard credits' });
    expect(chart.compareDocumentPosition(kpi('Input tokens')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(kpi('Adoption').compareDocumentPosition(chart) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('says how each headline figure is counted, as the glossary does', async () => {
    stubDashboard(ORG, TEAM);
    renderWithApp(<UsagePage />, { url: '/?start=2026-05-01&end=2026-05-31', config: CONFIG });
    await waitFor(() => expect(kpi('Active people').textContent).toContain('15'), { timeout: 5000 });
    for (const [label, words] of [
      ['Active people', /^Active people: Distinct people with at least one day of activity/],
      ['Adoption', /^Adoption: Active people in the range divided by members\.$/],
      ['Standard credits', /^Standard credits: The service’s unit of consumption/],
      [
        'Credits per pull request',
        /^Credits per pull request: Standard credits of the range divided by the pull requests/,
      ],
      ['Input tokens', /^Tokens: Raw counts/],
    ] as const) {
      const about = within(kpi(label)).getByRole('button', { name: /^About / });
      const tip = document.getElementById(about.getAttribute('aria-describedby')!)!;
      expect(tip.textContent).toMatch(words);
    }
  });

  it('with a price list: spend and spend per pull request lead, the credits go down with the tokens', async () => {
    stubDashboard(ORG, TEAM, undefined, {
      current: teamFigures({ spend: 1_234.5, spendPerPr: 123.45 }),
      before: teamFigures({ spend: 987.6, spendPerPr: 0 }),
    });
    renderWithApp(<UsagePage />, { url: URL_TWO_TEAMS, config: { ...CONFIG, currency: 'EUR' } });
    await waitFor(() => expect(kpi('Spend').textContent).toContain('€1,235'), { timeout: 5000 });
    expect(labels().slice(0, 5)).toEqual([
      'Active people',
      'Adoption',
      'Spend',
      'Spend per pull request',
      'Standard credits',
    ]);
    expect(kpi('Spend').textContent).toContain('▲ +25.0% vs April');
    // The previous period had none (its ratio was 0): "from 0", not "no earlier period".
    expect(kpi('Spend per pull request').textContent).toBe('Spend per pull request€123▲ from 0 vs April');
    expect(kpi('Standard credits').textContent).not.toContain('price list');
  });

  it('says when there is no pull request to divide by', async () => {
    stubDashboard(ORG, TEAM, undefined, { ...HEADLINE, current: teamFigures({ prs: 0, creditsPerPr: null }) });
    renderWithApp(<UsagePage />, { url: '/?start=2026-05-01&end=2026-05-31', config: CONFIG });
    await waitFor(() => expect(kpi('Active people').textContent).toContain('15'), { timeout: 5000 });
    expect(kpi('Credits per pull request').textContent).toBe(
      'Credits per pull request–no pull requests through the agent',
    );
  });

  it('without a store: the service’s own figures, credits first, and no people figure asked', async () => {
    const stub = stubDashboard(ORG, TEAM);
    renderWithApp(<UsagePage />, { url: '/?start=2026-05-01&end=2026-05-31' });
    await waitFor(() => expect(kpi('Input tokens').textContent).toContain('50K'), { timeout: 5000 });
    expect(labels()).toEqual([
      'Standard credits',
      'Input tokens',
      'Output tokens',
      'Cache read tokens',
      'Cache write tokens',
      'Credits per day',
    ]);
    expect(stub.asked('/api/figures')).toEqual([]);
  });

  it('without a store: each card says how it is counted once the glossary is in, credits per day as such', async () => {
    stubDashboard(ORG, TEAM);
    renderWithApp(<UsagePage />, { url: '/?start=2026-05-01&end=2026-05-31' });
    await waitFor(() => expect(kpi('Input tokens').textContent).toContain('50K'), { timeout: 5000 });
    await waitFor(() => expect(undefinedCards()).toEqual([]));
    expect(Object.fromEntries(cardDefinitions())['Credits per day']).toBe(
      'Credits per day: Standard credits of the range divided by its number of days, weekends and holidays included.',
    );
  });
});

describe('UsagePage words', () => {
  it('calls people people, as the glossary does: no heading, column or region says "users"', async () => {
    stubDashboard(ORG, TEAM);
    renderWithApp(<UsagePage />, { url: '/?start=2026-05-01&end=2026-05-31', config: CONFIG });
    const top = await screen.findByRole('region', { name: 'Top people by credits' }, { timeout: 5000 });
    await within(top).findByRole('link', { name: 'zed@acme.com' }, { timeout: 5000 });
    expect(within(top).getAllByRole('columnheader')[0]!.textContent).toMatch(/^Person/);
    expect(within(top).getByText(/^The 25 people with the most credits/)).toBeTruthy();
    const names = [
      ...screen.getAllByRole('heading'),
      ...screen.getAllByRole('columnheader'),
      ...screen.getAllByRole('region'),
    ].map((e) => e.getAttribute('aria-label') ?? e.textContent ?? '');
    for (const n of names) expect(n).not.toMatch(/\busers?\b/i);
  });
});

describe('UsagePage signed in', () => {
  const signedIn = (me: Me) => {
    const client = createTestQueryClient();
    client.setQueryData(['me'], me);
    return { config: { ...CONFIG, signIn: true }, client };
  };
  const ann: Me = { email: 'ann@acme.com', name: null, role: 'viewer', teams: [], userId: 'u-ann', orgView: true };

  it('shows a viewer no other person’s row: a note and a link to their own figures instead of top users', async () => {
    const stub = stubDashboard(ORG, TEAM);
    renderWithApp(<UsagePage />, { url: '/?start=2026-05-01&end=2026-05-31', ...signedIn(ann) });
    const own = await screen.findByRole('link', { name: 'Your own figures' });
    expect(own.getAttribute('href')).toMatch(/^\/users\/u-ann\?/);
    expect(screen.getByText(/shown to their managers and admins/)).toBeTruthy();
    expect(stub.asked('/api/teams/top-users')).toEqual([]);
    expect(screen.queryByText('zed@acme.com')).toBeNull();
  });

  it('lists a manager’s own people as top users when no team is chosen', async () => {
    const stub = stubDashboard(ORG, TEAM);
    renderWithApp(<UsagePage />, {
      url: '/?start=2026-05-01&end=2026-05-31',
      ...signedIn({ ...ann, role: 'manager', teams: ['Sales'] }),
    });
    await screen.findByRole('link', { name: 'ann@acme.com' });
    expect(stub.asked('/api/teams/top-users').map((u) => u.searchParams.getAll('team'))).toEqual([['Sales']]);
    expect(screen.getByText(/people of your teams/)).toBeTruthy();
    // The organization's figures are theirs to see: the KPIs are the organization's.
    expect(stub.asked('/api/teams/analytics/tokens').every((u) => u.searchParams.getAll('team').length === 0)).toBe(
      true,
    );
  });
});

describe('UsagePage with a price list', () => {
  it('shows the range’s spend against the previous period, and the month with its forecast, for the teams chosen', async () => {
    // The range's spend is the headline's (the teams page's figure); the month's is `/api/spend`'s.
    const stub = stubDashboard(ORG, TEAM, undefined, {
      current: teamFigures({ spend: 1_234.5 }),
      before: teamFigures({ spend: 987.6 }),
    });
    const inner = globalThis.fetch;
    const asked: URL[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://dashboard.test');
      if (url.pathname !== '/api/spend') return inner(input, init);
      asked.push(url);
      return new Response(JSON.stringify(spendAnswer()), { headers: { 'content-type': 'application/json' } });
    });
    renderWithApp(<UsagePage />, { url: URL_TWO_TEAMS, config: { ...CONFIG, currency: 'EUR' } });
    // The spend is asked once the first chart's answer is in: allow for a slow machine.
    expect((await screen.findByText('€1,235', { selector: 'p' }, { timeout: 5000 })).getAttribute('title')).toBe(
      '1,234.5',
    );
    expect(kpi('Spend').textContent).toContain('+25.0%');
    expect(screen.queryByText('Credits per day')).toBeNull();
    expect(await screen.findByRole('heading', { name: 'Spend in May 2026' }, { timeout: 5000 })).toBeTruthy();
    // The month's figures are drawn by code loaded after the first chart.
    expect(await screen.findByText('€3,070 – €3,160', undefined, { timeout: 5000 })).toBeTruthy();
    expect(asked.map((u) => u.searchParams.getAll('team'))).toEqual([['Engineering/Platform', 'Sales']]);
    expect(stub.asked('/api/teams/analytics/tokens').length).toBeGreaterThan(0);
  });
});
