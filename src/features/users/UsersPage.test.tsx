// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { UserRow, UsersResponse } from '../../api/schemas';
import type { UsersTableAnswer } from '../../api/users';
import { sortRows } from '../../components/DataTable';
import type { SortDir } from '../../data/search';
import { facetValues, filterUsers, mergeUserRows, type MergedUser, type Who } from '../../lib/user-merge';
import { TEST_CONFIG, captureDownloads, renderWithApp } from '../../test/render';
import { userRow } from '../../test/fixtures';
import { userColumns } from './columns';
import UsersPage from './UsersPage';
import UserPage from './UserPage';
import { prefetchUsersPage } from './table-query';
import { createQueryClient } from '../../data/query-client';

const row = (over: Partial<UserRow>) => userRow({ date: '2026-05-10', ...over });

const alice = { user_id: 'u-alice', user_email: 'alice@acme.com' };
const bob = { user_id: 'u-bob', user_email: 'bob@acme.com' };
const carol = { user_id: 'u-carol', user_email: 'carol@other.org' };
const anon = { user_id: 'u-9f2c', user_email: null };

// Two pages; bob's days are split across them (12,000 credits in all).
const PAGES: UserRow[][] = [
  [
    row({
      ...alice,
      billable_tokens: 5_000,
      primary_model: 'opus',
      primary_model_tier: 'thinking',
      languages: ['TypeScript'],
    }),
    row({ ...bob, billable_tokens: 7_000, delegation_level: 'manual', sessions: 3 }),
    row({ ...carol, billable_tokens: 800, languages: ['Go', 'Rust'], sessions: 9 }),
  ],
  [
    row({ ...bob, date: '2026-05-11', billable_tokens: 5_000, delegation_level: 'manual', sessions: 4 }),
    row({ ...anon, billable_tokens: 3_000, delegation_level: 'spec', languages: [] }),
  ],
];

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The teams of the users above, as the server's mapping puts them (carol and the anonymous user in none). */
const TEAM_OF: Record<string, string> = { 'u-alice': 'Engineering/Platform', 'u-bob': 'Sales' };

/**
 * Answers `/api/users` like the dashboard's server over a store holding these rows: merged,
 * filtered (to the members of the `team`s asked for, a team including its sub-teams), sorted and
 * paged; `filling` answers first say the range is still being read.
 */
function stubUsersServer(
  pages = PAGES,
  filling = 0,
  spend?: Record<string, number>,
  idle: MergedUser[] = [],
  history = { storedDays: 138, days: 138 },
) {
  const everyone = [...mergeUserRows(pages.flat()), ...idle];
  if (spend) for (const u of everyone) u.spend = spend[u.userId] ?? 0;
  const columns = userColumns(() => '', spend ? 'EUR' : null);
  let fills = filling;
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://dashboard.test');
    const p = url.searchParams;
    if (url.pathname !== '/api/users') return json({ title: 'Not Found' }, 404);
    const teams = p.getAll('team');
    const inTeams = (userId: string) => {
      const t = TEAM_OF[userId] ?? 'Unassigned';
      return teams.some((x) => t === x || t.startsWith(`${x}/`));
    };
    const merged = teams.length ? everyone.filter((u) => inTeams(u.userId)) : everyone;
    const f = facetValues(merged);
    const base = {
      range: { start: p.get('start')!, end: p.get('end')! },
      sort: { column: p.get('sort')!, dir: p.get('dir') as SortDir },
      facets: { delegation: f.delegation, tier: f.tier, lang: f.language },
      inactiveUsers: 0,
      history,
    };
    if (fills > 0) {
      fills--;
      const progress = { days: 14, storedDays: 3, activity: null, detail: 'still being read' };
      const body: UsersTableAnswer = {
        ...base,
        users: [],
        offset: 0,
        total: 0,
        activeUsers: 0,
        inactiveUsers: 0,
        complete: false,
        progress,
      };
      return json(body, 202);
    }
    const shown = filterUsers(merged, {
      search: p.get('q') ?? '',
      delegation: p.get('delegation') ?? '',
      tier: p.get('tier') ?? '',
      language: p.get('lang') ?? '',
      who: (p.get('who') ?? 'active') as Who,
    });
    const sorted = sortRows(shown, columns, base.sort);
    const offset = Number(p.get('offset'));
    const body: UsersTableAnswer = {
      ...base,
      users: sorted.slice(offset, offset + Number(p.get('limit'))),
      offset,
      total: sorted.length,
      activeUsers: merged.filter((u) => u.activeDays > 0).length,
      inactiveUsers: merged.filter((u) => u.activeDays === 0).length,
      complete: true,
    };
    return json(body);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** Answers `/api/v1/analytics/users` like the service: cursor pages, then `has_more: false`. */
function stubUsersService(pages = PAGES) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://dashboard.test');
    if (url.pathname !== '/api/v1/analytics/users') return new Response('{}', { status: 404 });
    const i = Number(url.searchParams.get('cursor') ?? 0);
    const body: UsersResponse = {
      data: pages[i] ?? [],
      meta: {
        org_id: 'org-1',
        start_date: url.searchParams.get('startDate') ?? '',
        end_date: url.searchParams.get('endDate') ?? '',
        has_more: i + 1 < pages.length,
        next_cursor: i + 1 < pages.length ? String(i + 1) : null,
      },
    };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/**
 * jsdom lays nothing out, and the virtual table renders only the rows that fit its scroller's
 * height: give every element a viewport-sized box so all rows of these small lists are rendered.
 */
function stubLayout() {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(720);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
}

/**
 * The two ways the page gets its rows: from the server's store (it holds the key), or, when each
 * reader brings a key, by walking `/users` itself. Both must show the same page.
 */
const MODES = [
  { mode: 'from the server’s store', keyRequired: false, stub: () => stubUsersServer() },
  { mode: 'walking /users in the browser', keyRequired: true, stub: () => stubUsersService() },
];

const table = () => screen.getByRole('table', { name: 'Users active in the range' });
/** The User column, top to bottom. */
const users = () =>
  within(table())
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0]!.textContent);
const status = () => screen.getByText(/people active in the range$/).textContent;

describe.each(MODES)('UsersPage, $mode', ({ keyRequired, stub }) => {
  async function renderUsers(url = '/users') {
    stubLayout();
    const fetchMock = stub();
    const r = renderWithApp(<UsersPage />, { url, config: { ...TEST_CONFIG, keyRequired } });
    // Loaded once the count of all users is shown.
    await screen.findByText(/ of 4 people active in the range$/);
    return { ...r, fetchMock };
  }

  it('shows one row per user over the URL range, most credits first', async () => {
    await renderUsers('/users?start=2026-05-01&end=2026-05-14');
    expect(users()).toEqual(['bob@acme.com', 'alice@acme.com', 'u-9f2c', 'carol@other.org']);
    expect(status()).toBe('4 of 4 people active in the range');
    // bob's two days, merged: 12,000 credits, 7 sessions, 2 active days.
    const bobRow = within(table()).getAllByRole('row')[1]!;
    expect(within(bobRow).getByText('12,000').getAttribute('title')).toBe('12,000');
    expect(
      within(bobRow)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toContain('7');
    // A user is a link to their page, keeping the range.
    expect(within(bobRow).getByRole('link', { name: 'bob@acme.com' }).getAttribute('href')).toBe(
      '/users/u-bob?start=2026-05-01&end=2026-05-14',
    );
  });

  it('filters by a search on email or id, kept in the URL', async () => {
    const r = await renderUsers();
    const search = screen.getByRole('searchbox', { name: 'Search by email or id' });
    fireEvent.change(search, { target: { value: 'ACME' } });
    // The search is sent once typing settles (200 ms), then answered: allow for a loaded machine.
    const slow = { timeout: 5000 };
    await waitFor(() => expect(users()).toEqual(['bob@acme.com', 'alice@acme.com']), slow);
    expect(r.params().get('q')).toBe('ACME');
    await waitFor(() => expect(status()).toBe('2 of 4 people active in the range'), slow);

    fireEvent.change(search, { target: { value: '9f2' } });
    await waitFor(() => expect(users()).toEqual(['u-9f2c']), slow);

    fireEvent.change(search, { target: { value: 'nobody' } });
    await screen.findByText('No user matches the search and filters.', undefined, slow);
    expect(screen.queryByRole('table')).toBeNull();

    fireEvent.change(search, { target: { value: '' } });
    await waitFor(() => expect(users()).toHaveLength(4), slow);
    expect(r.params().has('q')).toBe(false);
  });

  it('narrows the rows with the filter selects, whose options are the values present', async () => {
    const r = await renderUsers();
    const delegation = screen.getByRole('combobox', { name: 'Delegation' });
    expect(
      within(delegation)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All', 'auto-high', 'manual', 'spec']);
    fireEvent.change(delegation, { target: { value: 'auto-high' } });
    await waitFor(() => expect(users()).toEqual(['alice@acme.com', 'carol@other.org']));
    expect(r.params().get('delegation')).toBe('auto-high');

    fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), { target: { value: 'Rust' } });
    await waitFor(() => expect(users()).toEqual(['carol@other.org']));
    expect(r.params().get('lang')).toBe('Rust');

    fireEvent.change(delegation, { target: { value: '' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), { target: { value: '' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Model tier' }), { target: { value: 'thinking' } });
    await waitFor(() => expect(users()).toEqual(['alice@acme.com']));
    expect(r.location().search).toBe('?tier=thinking');
  });

  it('folds the facet filters and columns behind a Filters button on a phone, which counts those in force', async () => {
    const r = await renderUsers('/users?delegation=manual&tier=thinking');
    const filters = screen.getByRole('button', { name: 'Filters (2 in force)' });
    // Folded (the CSS shows them from `md` up whatever the button says), and what it folds is named.
    expect(filters.getAttribute('aria-expanded')).toBe('false');
    const folded = document.getElementById(filters.getAttribute('aria-controls')!)!;
    expect(folded.className).toMatch(/(^| )hidden( |$)/);
    expect(within(folded).getByRole('combobox', { name: 'Delegation' })).toBeTruthy();
    expect(within(folded).getByText('Columns')).toBeTruthy();
    // The search stays out of the fold.
    expect(within(folded).queryByRole('searchbox')).toBeNull();
    fireEvent.click(filters);
    expect(filters.getAttribute('aria-expanded')).toBe('true');
    expect(folded.className).not.toMatch(/(^| )hidden( |$)/);
    fireEvent.change(within(folded).getByRole('combobox', { name: 'Delegation' }), { target: { value: '' } });
    await waitFor(() => expect(r.params().has('delegation')).toBe(false));
    expect(screen.getByRole('button', { name: 'Filters (1 in force)' })).toBe(filters);
    fireEvent.change(within(folded).getByRole('combobox', { name: 'Model tier' }), { target: { value: '' } });
    expect(screen.getByRole('button', { name: 'Filters' })).toBe(filters);
  });

  it('applies the filters of the URL it opens with', async () => {
    await renderUsers('/users?q=acme&delegation=manual');
    expect(users()).toEqual(['bob@acme.com']);
    expect(screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search by email or id' }).value).toBe('acme');
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Delegation' }).value).toBe('manual');
  });

  it('sorts by a column header, in the URL', async () => {
    const r = await renderUsers();
    const header = (name: RegExp) => within(table()).getByRole('columnheader', { name });
    expect(header(/^Credits/).getAttribute('aria-sort')).toBe('descending');

    fireEvent.click(within(header(/^Credits/)).getByRole('button'));
    await waitFor(() => expect(users()).toEqual(['carol@other.org', 'u-9f2c', 'alice@acme.com', 'bob@acme.com']));
    expect(r.params().get('usersSort')).toBe('credits:asc');
    expect(header(/^Credits/).getAttribute('aria-sort')).toBe('ascending');

    fireEvent.click(within(header(/^Sessions/)).getByRole('button'));
    await waitFor(() => expect(users()).toEqual(['carol@other.org', 'bob@acme.com', 'alice@acme.com', 'u-9f2c']));
    expect(r.params().get('usersSort')).toBe('sessions:desc');

    fireEvent.click(within(header(/^User/)).getByRole('button'));
    await waitFor(() => expect(users()).toEqual(['alice@acme.com', 'bob@acme.com', 'carol@other.org', 'u-9f2c']));
    expect(r.params().get('usersSort')).toBe('user:asc');
  });

  it('sorts the filtered rows', async () => {
    await renderUsers('/users?delegation=auto-high&usersSort=credits:asc');
    expect(users()).toEqual(['carol@other.org', 'alice@acme.com']);
  });

  it('shows and hides columns from the Columns menu, in the URL', async () => {
    const r = await renderUsers();
    expect(within(table()).queryByRole('columnheader', { name: /^Commits/ })).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Commits' }));
    expect(within(table()).getByRole('columnheader', { name: /^Commits/ })).toBeTruthy();
    expect(r.params().get('cols')?.split(',')).toContain('commits');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Commits' }));
    expect(r.params().has('cols')).toBe(false);
  });

  it('shows the service error with its request id, and Retry asks again', async () => {
    const fetchMock = vi.fn(async () =>
      json({ title: 'Forbidden', detail: 'The key lacks the analytics scope.', requestId: 'req-42' }, 403),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderWithApp(<UsersPage />, { url: '/users', config: { ...TEST_CONFIG, keyRequired } });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('403 Forbidden');
    expect(alert.textContent).toContain('The key lacks the analytics scope.');
    expect(alert.textContent).toContain('req-42');
    const calls = fetchMock.mock.calls.length;
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(fetchMock.mock.calls.length).toBeGreaterThan(calls));
  });
});

describe('UsersPage, from the server’s store', () => {
  it('asks the server for the sorted, filtered first page: no walk of /users', async () => {
    stubLayout();
    const fetchMock = stubUsersServer();
    renderWithApp(<UsersPage />, { url: '/users?start=2026-05-01&end=2026-05-14&delegation=manual' });
    await screen.findByText('1 of 4 people active in the range');
    const asked = fetchMock.mock.calls.map(([u]) => new URL(String(u), 'http://dashboard.test'));
    expect(asked.map((u) => u.pathname)).toEqual(['/api/users']);
    expect(Object.fromEntries(asked[0]!.searchParams)).toEqual({
      start: '2026-05-01',
      end: '2026-05-14',
      sort: 'credits',
      dir: 'desc',
      delegation: 'manual',
      offset: '0',
      limit: '200',
    });
  });

  it('links the CSV of the same table, filtered and sorted by the server', async () => {
    stubLayout();
    stubUsersServer();
    renderWithApp(<UsersPage />, { url: '/users?q=acme&usersSort=sessions:asc' });
    await screen.findByText('2 of 4 people active in the range');
    const link = screen.getByRole('link', { name: 'Download CSV of Users' });
    expect(link.getAttribute('download')).toBe('users-2026-05-02-2026-05-31.csv');
    expect(link.getAttribute('href')).toBe(
      '/api/users.csv?start=2026-05-02&end=2026-05-31&sort=sessions&dir=asc&q=acme',
    );
  });

  it('asks for the rows in view a page at a time, the end of a long list without the pages before it', async () => {
    stubLayout();
    const many = Array.from({ length: 450 }, (_, i) =>
      row({ user_id: `u-${String(i).padStart(3, '0')}`, user_email: null, billable_tokens: 10_000 - i }),
    );
    const fetchMock = stubUsersServer([many]);
    renderWithApp(<UsersPage />, { url: '/users' });
    await screen.findByText('450 of 450 people active in the range');
    expect(users()[0]).toBe('u-000');
    const scroller = screen.getByLabelText('Users active in the range, scrollable');
    scroller.scrollTop = 450 * 36;
    fireEvent.scroll(scroller);
    await waitFor(() => expect(users()).toContain('u-449'));
    const offsets = fetchMock.mock.calls.map(([u]) =>
      new URL(String(u), 'http://dashboard.test').searchParams.get('offset'),
    );
    expect(offsets).toEqual(['0', '400']);
  });

  it('puts spend beside credits with a price list, in its currency, and sorts by it on the server', async () => {
    stubLayout();
    // Spend need not follow credits: carol's credits are all on a dear model.
    const SPEND = { 'u-bob': 96, 'u-alice': 60.5, 'u-9f2c': 24, 'u-carol': 1234.5 };
    const fetchMock = stubUsersServer(PAGES, 0, SPEND);
    const r = renderWithApp(<UsersPage />, { url: '/users', config: { ...TEST_CONFIG, currency: 'EUR' } });
    await screen.findByText('4 of 4 people active in the range');
    const headers = within(table())
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers.slice(0, 3)).toEqual([
      expect.stringMatching(/^User/),
      expect.stringMatching(/^Credits/),
      expect.stringMatching(/^Spend \(EUR\)/),
    ]);
    const spendCells = () =>
      within(table())
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[2]!.textContent);
    // One format for the column: €1,234.50 is written in whole euros, so every amount is; the cent on hover.
    expect(spendCells()).toEqual(['€96', '€61', '€24', '€1,235']);
    expect(within(table()).getByText('€61').getAttribute('title')).toBe('€60.50');

    fireEvent.click(within(within(table()).getByRole('columnheader', { name: /^Spend/ })).getByRole('button'));
    await waitFor(() => expect(users()).toEqual(['carol@other.org', 'bob@acme.com', 'alice@acme.com', 'u-9f2c']));
    expect(r.params().get('usersSort')).toBe('spend:desc');
    const last = new URL(String(fetchMock.mock.calls.at(-1)![0]), 'http://dashboard.test');
    expect(last.searchParams.get('sort')).toBe('spend');
  });

  it('lists the known people not active in the range on request, with their last active day, and exports them', async () => {
    stubLayout();
    const [base] = mergeUserRows([row({ user_id: 'u-dave', user_email: 'dave@acme.com' })]);
    const dave: MergedUser = {
      ...base!,
      activeDays: 0,
      firstDay: null,
      lastDay: null,
      credits: 0,
      sessions: 0,
      lastActiveDay: '2026-03-02',
    };
    const fetchMock = stubUsersServer(PAGES, 0, undefined, [dave]);
    const r = renderWithApp(<UsersPage />, { url: '/users?start=2026-05-01&end=2026-05-14' });
    await screen.findByText('4 of 4 people active in the range');
    const listed = screen.getByRole('group', { name: 'People listed' });
    const pressed = within(listed).getByRole('button', { name: 'Active in the range (4)' });
    expect(pressed.getAttribute('aria-pressed')).toBe('true');
    expect(users()).not.toContain('dave@acme.com');

    fireEvent.click(within(listed).getByRole('button', { name: 'Not active (1)' }));
    await screen.findByText('1 of 1 known people not active in the range');
    expect(r.params().get('who')).toBe('inactive');
    const idle = screen.getByRole('table', { name: 'Known people not active in the range' });
    const cells = within(within(idle).getAllByRole('row')[1]!).getAllByRole('cell');
    expect(cells[0]!.textContent).toBe('dave@acme.com');
    const header = within(idle)
      .getAllByRole('columnheader')
      .map((h) => h.textContent ?? '');
    const lastActive = header.findIndex((h) => h.startsWith('Last active'));
    expect(cells[lastActive]!.textContent).toBe('Mar 2, 2026');
    const asked = new URL(String(fetchMock.mock.calls.at(-1)![0]), 'http://dashboard.test');
    expect(asked.searchParams.get('who')).toBe('inactive');
    // Nobody in it has figures to sort by: the most recently active first (not by credits, 0 for all).
    expect(asked.searchParams.get('sort')).toBe('lastActiveDay');
    expect(asked.searchParams.get('dir')).toBe('desc');
    const csv = screen.getByRole('link', { name: /Download CSV/ });
    expect(new URL(csv.getAttribute('href')!, 'http://dashboard.test').searchParams.get('who')).toBe('inactive');
    // A name of its own, not the active list's.
    expect(csv.getAttribute('download')).toBe('users-not-active-2026-05-01-2026-05-14.csv');

    // The whole history is stored: nothing is said of it.
    expect(screen.queryByText(/The history before this range is still being read/)).toBeNull();
    fireEvent.click(within(listed).getByRole('button', { name: 'Everyone known (5)' }));
    await screen.findByText('5 of 5 known people');
    expect(screen.getByRole('table', { name: 'Everyone known by the range’s end' }).textContent).toContain(
      'dave@acme.com',
    );
    // Back to the default: the parameter leaves the URL.
    fireEvent.click(within(listed).getByRole('button', { name: 'Active in the range (4)' }));
    await screen.findByText('4 of 4 people active in the range');
    expect(r.params().has('who')).toBe(false);
  });

  it('says the not-active list may miss people while the history before the range is still being read', async () => {
    stubLayout();
    stubUsersServer(PAGES, 0, undefined, [], { storedDays: 40, days: 138 });
    renderWithApp(<UsersPage />, { url: '/users?start=2026-05-01&end=2026-05-14&who=inactive' });
    expect(
      await screen.findByText(
        'The history before this range is still being read (40 of 138 days): people last active in the days still missing are not listed yet.',
      ),
    ).toBeTruthy();
  });

  it('shows the rows the app asked for from the URL before the page’s code loaded, without asking again', async () => {
    stubLayout();
    const fetchMock = stubUsersServer(PAGES, 0, { 'u-bob': 96, 'u-alice': 60.5, 'u-9f2c': 24, 'u-carol': 1234.5 });
    const client = createQueryClient(() => undefined);
    const config = { ...TEST_CONFIG, currency: 'EUR' };
    const search = '?start=2026-05-01&end=2026-05-14&usersSort=spend:asc&delegation=auto-high&q=%20o%20';
    const range = { start: '2026-05-01', end: '2026-05-14' };
    await prefetchUsersPage(client, range, [], new URLSearchParams(search), config);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const asked = new URL(String(fetchMock.mock.calls[0]![0]), 'http://dashboard.test').searchParams;
    expect(Object.fromEntries(asked)).toMatchObject({ sort: 'spend', dir: 'asc', delegation: 'auto-high', q: 'o' });
    // Exactly the address the server preloads with the page (server.test.ts), or the browser would ask twice.
    expect(String(fetchMock.mock.calls[0]![0])).toBe(
      '/api/users?start=2026-05-01&end=2026-05-14&sort=spend&dir=asc&q=o&delegation=auto-high&offset=0&limit=200',
    );
    renderWithApp(<UsersPage />, { url: `/users${search}`, config, client });
    await screen.findByText('2 of 4 people active in the range');
    expect(users()).toEqual(['alice@acme.com', 'carol@other.org']);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('asks for nothing ahead when each reader brings a key (the page walks /users itself)', async () => {
    const fetchMock = stubUsersServer();
    const range = { start: '2026-05-01', end: '2026-05-14' };
    const walking = { ...TEST_CONFIG, keyRequired: true };
    await prefetchUsersPage(
      createQueryClient(() => undefined),
      range,
      [],
      new URLSearchParams(),
      walking,
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows no spend and never asks to sort by it without a price list', async () => {
    stubLayout();
    const fetchMock = stubUsersServer();
    renderWithApp(<UsersPage />, { url: '/users?usersSort=spend:desc' });
    await screen.findByText('4 of 4 people active in the range');
    expect(within(table()).queryByRole('columnheader', { name: /Spend/ })).toBeNull();
    expect(screen.queryByText(/€|\$/)).toBeNull();
    const sorts = fetchMock.mock.calls.map(([u]) =>
      new URL(String(u), 'http://dashboard.test').searchParams.get('sort'),
    );
    expect(sorts).toEqual(['credits']);
  });

  it('says the range is being read from the service, then shows it', async () => {
    stubLayout();
    const fetchMock = stubUsersServer(PAGES, 1);
    renderWithApp(<UsersPage />, { url: '/users' });
    await screen.findByText(/Reading the users of this range from the service: 3 of 14 days stored/);
    await screen.findByText('4 of 4 people active in the range', undefined, { timeout: 3000 });
    expect(users()).toEqual(['bob@acme.com', 'alice@acme.com', 'u-9f2c', 'carol@other.org']);
    expect(fetchMock.mock.calls.length).toBe(2);
  });
});

describe('UsersPage, for teams', () => {
  const CONFIG = { ...TEST_CONFIG, teams: true };
  const TEAMS_URL = '/users?start=2026-05-01&end=2026-05-14&team=Sales&team=Engineering';

  it('asks the server for the members of every selected team, and says whose table it is', async () => {
    stubLayout();
    const fetchMock = stubUsersServer();
    renderWithApp(<UsersPage />, { url: TEAMS_URL, config: CONFIG });
    await screen.findByText('2 of 2 people active in the range');
    expect(users()).toEqual(['bob@acme.com', 'alice@acme.com']);
    const [asked] = fetchMock.mock.calls.map(([u]) => new URL(String(u), 'http://dashboard.test'));
    expect(asked!.searchParams.getAll('team')).toEqual(['Engineering', 'Sales']);
    expect(screen.getByText('Teams:').parentElement!.textContent).toContain('EngineeringSales');
    // The CSV is the same teams' table, and its name says so.
    const link = screen.getByRole('link', { name: 'Download CSV of Users' });
    expect(link.getAttribute('href')).toBe(
      '/api/users.csv?start=2026-05-01&end=2026-05-14&sort=credits&dir=desc&team=Engineering&team=Sales',
    );
    expect(link.getAttribute('download')).toBe('users-2-teams-2026-05-01-2026-05-14.csv');
    // A user's link keeps the teams.
    const bob = within(table()).getByRole('link', { name: 'bob@acme.com' });
    expect(new URLSearchParams(bob.getAttribute('href')!.split('?')[1]).getAll('team')).toEqual([
      'Sales',
      'Engineering',
    ]);
  });

  it('says when no member of the team was active', async () => {
    stubLayout();
    stubUsersServer();
    renderWithApp(<UsersPage />, { url: '/users?team=Research', config: CONFIG });
    await screen.findByText('No member of this team was active in this range.');
  });

  it('says no count the server withholds (privacy mode: 1 to k−1 people), nor a total made with it', async () => {
    stubLayout();
    const everyone = mergeUserRows(PAGES.flat());
    // Four active, and a few not active: their count withheld, as their list is.
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const p = new URL(String(input), 'http://dashboard.test').searchParams;
        const who = p.get('who') ?? 'active';
        const body: UsersTableAnswer = {
          users: who === 'active' ? everyone : [],
          offset: 0,
          total: who === 'active' ? everyone.length : 0,
          ...(who !== 'active' && { withheld: { minGroup: 3, detail: 'These filters leave fewer than 3 people.' } }),
          activeUsers: everyone.length,
          inactiveUsers: null,
          history: { storedDays: 138, days: 138 },
          facets: { delegation: [], tier: [], lang: [] },
          range: { start: p.get('start')!, end: p.get('end')! },
          sort: { column: p.get('sort')!, dir: p.get('dir') as SortDir },
          complete: true,
        };
        return json(body);
      }),
    );
    renderWithApp(<UsersPage />, { url: '/users?start=2026-05-01&end=2026-05-14&team=Sales', config: CONFIG });
    await screen.findByText('4 of 4 people active in the range');
    const listed = screen.getByRole('group', { name: 'People listed' });
    expect(within(listed).getByRole('button', { name: 'Active in the range (4)' })).toBeTruthy();
    expect(within(listed).getByRole('button', { name: 'Everyone known' })).toBeTruthy();
    fireEvent.click(within(listed).getByRole('button', { name: 'Not active' }));
    expect((await screen.findAllByText('These filters leave fewer than 3 people.')).length).toBeGreaterThan(0);
    expect(screen.queryByText(/Everyone known in this team was active/)).toBeNull();
  });

  it('asks for everyone when the server has no teams, whatever the URL says', async () => {
    stubLayout();
    const fetchMock = stubUsersServer();
    renderWithApp(<UsersPage />, { url: '/users?team=Sales', config: TEST_CONFIG });
    await screen.findByText('4 of 4 people active in the range');
    const [asked] = fetchMock.mock.calls.map(([u]) => new URL(String(u), 'http://dashboard.test'));
    expect(asked!.searchParams.has('team')).toBe(false);
  });
});

describe('UsersPage, walking /users in the browser', () => {
  it('walks every page for the URL range', async () => {
    stubLayout();
    const fetchMock = stubUsersService();
    renderWithApp(<UsersPage />, {
      url: '/users?start=2026-05-01&end=2026-05-14',
      config: { ...TEST_CONFIG, keyRequired: true },
    });
    await screen.findByText('4 of 4 people active in the range');
    const asked = fetchMock.mock.calls.map(([u]) => new URL(String(u), 'http://dashboard.test'));
    expect(asked.map((u) => u.searchParams.get('cursor'))).toEqual([null, '1']);
    expect(asked[0]!.searchParams.get('startDate')).toBe('2026-05-01');
    expect(asked[0]!.searchParams.get('endDate')).toBe('2026-05-14');
  });

  it('downloads a CSV of the filtered users with every column, id beside email, in the table order', async () => {
    stubLayout();
    stubUsersService();
    const downloads = captureDownloads();
    renderWithApp(<UsersPage />, { url: '/users?q=acme', config: { ...TEST_CONFIG, keyRequired: true } });
    await screen.findByText('2 of 4 people active in the range');
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV of Users' }));
    expect(downloads.files.map((f) => f.name)).toEqual(['users-2026-05-02-2026-05-31.csv']);
    const lines = (await downloads.text()).trimEnd().split('\r\n');
    expect(lines[0]!.startsWith('user_id,user_email,billable_tokens,tool_calls,sessions,')).toBe(true);
    expect(lines).toHaveLength(3);
    expect(lines[1]!.startsWith('u-bob,bob@acme.com,12000,20,7,')).toBe(true);
    expect(lines.some((l) => l.startsWith('u-carol'))).toBe(false);
  });
});

describe('UsersPage, the seats: who never used it', () => {
  const CONFIG = { ...TEST_CONFIG, teams: true };
  const URL_ = '/users?start=2026-05-01&end=2026-05-14';
  const merged = mergeUserRows(PAGES.flat());
  const idle = (u: MergedUser, over: Partial<MergedUser>): MergedUser => ({
    ...u,
    activeDays: 0,
    firstDay: null,
    lastDay: null,
    credits: 0,
    sessions: 0,
    toolCalls: 0,
    ...over,
  });
  const [base] = mergeUserRows([row({ user_id: 'u-dave', user_email: 'dave@acme.com' })]);
  const dave = idle(base!, { lastActiveDay: '2026-03-02', team: 'Sales' });
  // Named by email alone and never seen: no id yet.
  const erin = idle(base!, { userId: '', email: 'erin@acme.com', lastActiveDay: null, team: 'Sales' });
  const named = [
    ...merged.filter((u) => u.userId === 'u-alice' || u.userId === 'u-bob').map((u) => ({ ...u, team: 'Sales' })),
    dave,
    erin,
  ];
  const LISTS: Record<string, MergedUser[]> = {
    named,
    'named-active': named.filter((u) => u.activeDays > 0),
    'idle-7': [dave],
    'idle-30': [dave],
    never: [erin],
  };

  /** The server with a mapping: the seats' counts on every answer, each list as asked. */
  function stubSeats() {
    const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      const p = new URL(String(input), 'http://dashboard.test').searchParams;
      const who = p.get('who') ?? 'active';
      const users = LISTS[who] ?? (who === 'inactive' ? [dave] : merged);
      const body: UsersTableAnswer = {
        users,
        offset: 0,
        total: users.length,
        activeUsers: merged.length,
        inactiveUsers: 1,
        seats: { named: 4, active: 2, idle7: 1, idle30: 1, never: 1 },
        history: { storedDays: 138, days: 138 },
        facets: { delegation: ['manual'], tier: [], lang: [] },
        range: { start: p.get('start')!, end: p.get('end')! },
        sort: { column: p.get('sort')!, dir: p.get('dir') as SortDir },
        complete: true,
      };
      return json(body);
    });
    vi.stubGlobal('fetch', fetchMock);
    return fetchMock;
  }
  const asked = (f: ReturnType<typeof stubSeats>) =>
    new URL(String(f.mock.calls.at(-1)![0]), 'http://dashboard.test').searchParams;
  const headers = (t: HTMLElement) =>
    within(t)
      .getAllByRole('columnheader')
      .map((h) => (h.textContent ?? '').replace(/[▲▼↕]/g, ''));

  it('counts the people the mapping names, each count opening its list, sorted and exported as that list', async () => {
    stubLayout();
    const fetchMock = stubSeats();
    const r = renderWithApp(<UsersPage />, { url: URL_, config: CONFIG });
    // The file's first render of the page imports its widgets: allow for a loaded machine.
    const seats = await screen.findByRole('region', { name: /Seats/ }, { timeout: 5000 });
    const button = (name: string) => within(seats).getByRole('button', { name });
    for (const name of [
      'Named: 4',
      'Active in the range: 2',
      'Inactive 7 days: 1',
      'Inactive 30 days: 1',
      'Never used: 1',
    ])
      expect(button(name).getAttribute('aria-pressed')).toBe('false');

    // Never used: by name, nobody to open (no day to show), their team, and a CSV named for the list.
    fireEvent.click(button('Never used: 1'));
    await screen.findByText('1 of 1 named people who never used the agent by the range’s end');
    expect(r.params().get('who')).toBe('never');
    expect(button('Never used: 1').getAttribute('aria-pressed')).toBe('true');
    expect([asked(fetchMock).get('who'), asked(fetchMock).get('sort'), asked(fetchMock).get('dir')]).toEqual([
      'never',
      'user',
      'asc',
    ]);
    const never = screen.getByRole('table', { name: 'People the mapping names who never used the agent' });
    expect(headers(never)).toEqual(['User', 'Team']);
    expect(within(never).getByText('erin@acme.com').closest('a')).toBeNull();
    const csv = screen.getByRole('link', { name: 'Download CSV of Users' });
    expect(new URL(csv.getAttribute('href')!, 'http://dashboard.test').searchParams.get('who')).toBe('never');
    expect(csv.getAttribute('download')).toBe('users-never-used-2026-05-01-2026-05-14.csv');

    // Inactive 7 days: by the last active day, newest first, the person's page a link away.
    fireEvent.click(button('Inactive 7 days: 1'));
    await screen.findByText('1 of 1 named people inactive for the 7 days to the range’s end');
    expect([asked(fetchMock).get('who'), asked(fetchMock).get('sort'), asked(fetchMock).get('dir')]).toEqual([
      'idle-7',
      'lastActiveDay',
      'desc',
    ]);
    const week = screen.getByRole('table', { name: 'People the mapping names, inactive 7 days' });
    expect(await within(week).findByRole('link', { name: 'dave@acme.com' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download CSV of Users' }).getAttribute('download')).toBe(
      'users-inactive-7-days-2026-05-01-2026-05-14.csv',
    );
    // Inactive 30 days, of a range of 14: no day in it either, so no figures to show.
    fireEvent.click(button('Inactive 30 days: 1'));
    await screen.findByText('1 of 1 named people inactive for the 30 days to the range’s end');
    const month = screen.getByRole('table', { name: 'People the mapping names, inactive 30 days' });
    expect(headers(month)).toEqual(['User', 'Team', expect.stringMatching(/^Last active/)]);
    // Everyone named, and back to the active people: their own order again, credits first.
    fireEvent.click(button('Named: 4'));
    await screen.findByText('4 of 4 people the mapping names');
    fireEvent.click(
      within(screen.getByRole('group', { name: 'People listed' })).getByRole('button', { name: /^Active/ }),
    );
    await screen.findByText('4 of 4 people active in the range');
    expect([r.params().has('who'), r.params().has('usersSort')]).toEqual([false, false]);
    expect(asked(fetchMock).get('sort')).toBe('credits');
  });

  it('says a count privacy mode withholds as such, and orders the never used by pseudonym there', async () => {
    stubLayout();
    const stubbed = stubSeats();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const body = (await (await stubbed(input)).json()) as UsersTableAnswer;
        return json({ ...body, seats: { ...body.seats!, idle7: null, idle30: null, never: null } });
      }),
    );
    renderWithApp(<UsersPage />, { url: `${URL_}&who=never`, config: { ...CONFIG, privacyMinGroup: 3 } });
    const seats = await screen.findByRole('region', { name: /Seats/ });
    expect(within(seats).getByRole('button', { name: 'Never used: withheld in privacy mode' })).toBeTruthy();
    expect(within(seats).getByRole('button', { name: 'Named: 4' })).toBeTruthy();
    // Not by person (the server refuses it): by the last active day, none, so ties by pseudonym.
    expect([asked(stubbed).get('who'), asked(stubbed).get('sort')]).toEqual(['never', 'lastActiveDay']);
  });

  it('says how many new starters in grace each list of people not using the agent leaves out', async () => {
    stubLayout();
    const stubbed = stubSeats();
    const grace = { days: 14, inactive: 2, seats: { idle7: 1, idle30: 0, never: 3 } };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => json({ ...((await (await stubbed(input)).json()) as object), grace })),
    );
    renderWithApp(<UsersPage />, { url: `${URL_}&who=never`, config: CONFIG });
    await screen.findByText('1 of 1 named people who never used the agent by the range’s end', undefined, {
      timeout: 5000,
    });
    expect(screen.getByText('3 new starters in their first 14 days are not listed')).toBeTruthy();
    // The seats: those the inactive and never used counts leave out, each once (inactive 30 days is within 7).
    const seats = screen.getByRole('region', { name: /Seats/ });
    expect(
      within(seats).getByText('4 new starters in their first 14 days are not counted as inactive or never used'),
    ).toBeTruthy();
    const button = (name: string) => within(seats).getByRole('button', { name });
    fireEvent.click(button('Inactive 7 days: 1'));
    await screen.findByText('1 new starter in their first 14 days is not listed');
    // None left out: nothing said.
    fireEvent.click(button('Inactive 30 days: 1'));
    await screen.findByText('1 of 1 named people inactive for the 30 days to the range’s end');
    expect(screen.queryByText(/ not listed$/)).toBeNull();
    // Not active: those in grace are still known, counted among everyone (4 active, 1 not, 2 in grace).
    fireEvent.click(within(screen.getByRole('group', { name: 'People listed' })).getByRole('button', { name: /^Not/ }));
    await screen.findByText('2 new starters in their first 14 days are not listed');
    expect(
      within(screen.getByRole('group', { name: 'People listed' })).getByRole('button', { name: /^Everyone/ })
        .textContent,
    ).toBe('Everyone known (7)');
    // Nobody else on the active people's list.
    fireEvent.click(
      within(screen.getByRole('group', { name: 'People listed' })).getByRole('button', { name: /^Active/ }),
    );
    await screen.findByText('4 of 4 people active in the range');
    expect(screen.queryByText(/ not listed$/)).toBeNull();
  });

  it('says a list left empty by grace is so, and no count privacy mode withholds', async () => {
    stubLayout();
    const stubbed = stubSeats();
    const grace = { days: 10, inactive: null, seats: { idle7: 0, idle30: 0, never: null } };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const body = (await (await stubbed(input)).json()) as UsersTableAnswer;
        return json({ ...body, users: [], total: 0, seats: { ...body.seats!, never: 0 }, grace });
      }),
    );
    renderWithApp(<UsersPage />, { url: `${URL_}&who=never`, config: { ...CONFIG, privacyMinGroup: 3 } });
    expect(
      await screen.findByText('No one to list but new starters in their first 10 days.', undefined, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByText('New starters in their first 10 days are not listed')).toBeTruthy();
    expect(
      screen.getByText('New starters in their first 10 days are not counted as inactive or never used'),
    ).toBeTruthy();
    // Everyone known is not told when one of its parts is withheld.
    expect(
      within(screen.getByRole('group', { name: 'People listed' })).getByRole('button', { name: /^Everyone/ })
        .textContent,
    ).toBe('Everyone known');
  });

  it('shows the not-active list without the figures that are 0 for everyone in it, nor filters by them', async () => {
    stubLayout();
    const [b] = mergeUserRows([row({ user_id: 'u-dave', user_email: 'dave@acme.com' })]);
    stubUsersServer(PAGES, 0, undefined, [idle(b!, { lastActiveDay: '2026-03-02' })]);
    renderWithApp(<UsersPage />, { url: '/users?start=2026-05-01&end=2026-05-14&who=inactive' });
    await screen.findByText('1 of 1 known people not active in the range', undefined, { timeout: 5000 });
    const t = screen.getByRole('table', { name: 'Known people not active in the range' });
    expect(headers(t)).toEqual(['User', expect.stringMatching(/^Last active/)]);
    expect(screen.queryByRole('combobox', { name: 'Delegation' })).toBeNull();
    expect(screen.queryByText('Columns', { ignore: '[hidden] *' })).toBeNull();
  });
});

describe('UsersPage and a person’s page: the reader’s place', () => {
  it('keeps the list’s search, filters, list, sort and scroll across a person’s page and back', async () => {
    stubLayout();
    const scrolled = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    const served = stubUsersServer();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = new URL(String(input), 'http://dashboard.test');
        if (url.pathname === '/api/users/u-bob') {
          const days = PAGES.flat().filter((r) => r.user_id === 'u-bob');
          return json({
            userId: 'u-bob',
            user: mergeUserRows(days)[0],
            days,
            range: { start: '2026-05-01', end: '2026-05-14' },
            complete: true,
          });
        }
        if (url.pathname === '/api/v1/analytics/tokens')
          return json({ data: [], meta: { org_id: 'o', start_date: '2026-05-01', end_date: '2026-05-14' } });
        return served(input);
      }),
    );
    const LIST =
      '/users?start=2026-05-01&end=2026-05-14&delegation=manual&usersSort=sessions%3Aasc&cols=credits%2Csessions';
    const r = renderWithApp(
      <Routes>
        <Route path="/users" element={<UsersPage />} />
        <Route path="/users/:userId" element={<UserPage />} />
      </Routes>,
      { url: LIST },
    );
    await screen.findByText('1 of 4 people active in the range');
    const box = screen.getByLabelText('Users active in the range, scrollable');
    box.scrollTop = 240;
    vi.spyOn(window, 'scrollY', 'get').mockReturnValue(480);
    const bob = within(table()).getByRole('link', { name: 'bob@acme.com' });
    // The person's address carries the list as it is.
    const carried = new URLSearchParams(bob.getAttribute('href')!.split('?')[1]);
    expect(Object.fromEntries(carried)).toEqual({
      start: '2026-05-01',
      end: '2026-05-14',
      delegation: 'manual',
      usersSort: 'sessions:asc',
      cols: 'credits,sessions',
    });
    fireEvent.click(bob);
    await screen.findByRole('heading', { level: 1, name: 'bob@acme.com' });
    scrolled.mockClear();
    fireEvent.click(screen.getByRole('link', { name: '← All users' }));
    await screen.findByText('1 of 4 people active in the range');
    expect(r.location().pathname).toBe('/users');
    expect(Object.fromEntries(r.params())).toEqual(Object.fromEntries(new URLSearchParams(LIST.split('?')[1])));
    await waitFor(() => expect(screen.getByLabelText('Users active in the range, scrollable').scrollTop).toBe(240));
    expect(scrolled).toHaveBeenCalledWith(0, 480);
    // Given back once: the list opened again later starts at its top.
    expect(sessionStorage.getItem('users-list-place')).toBeNull();
  });
});
