// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { parse } from 'csv-parse/sync';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { RECONCILED, type Reconciled, type ReconciledDay, type Reconciliation } from '../../api/reconciliation';
import { TEST_CONFIG, captureDownloads, renderWithApp } from '../../test/render';
import ReconciliationPage from './ReconciliationPage';

const CONFIG = { ...TEST_CONFIG, teams: true };
const RANGE = 'start=2026-04-01&end=2026-04-03';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A day whose figures are all `f(m)`'s, with its state. */
function day(d: string, state: Partial<ReconciledDay>, f: (m: Reconciled) => ReconciledDay['figures'][Reconciled]) {
  return {
    day: d,
    synced: true,
    final: true,
    ...state,
    figures: Object.fromEntries(RECONCILED.map((m) => [m, f(m)])) as ReconciledDay['figures'],
  };
}

/** Three days: the first explained by people outside the mapping, the second not synced, the third still open. */
const ANSWER: Reconciliation = {
  range: { start: '2026-04-01', end: '2026-04-03' },
  teams: [],
  mapping: true,
  outside: 'mapping',
  withheld: null,
  days: [
    day('2026-04-01', {}, (m) =>
      m === 'credits'
        ? { service: 1000, dashboard: 900, notSynced: 0, outside: 100, unexplained: 0 }
        : { service: 12, dashboard: 10, notSynced: 0, outside: 2, unexplained: 0 },
    ),
    day('2026-04-02', { synced: false, final: false }, (m) =>
      m === 'credits'
        ? { service: 800, dashboard: 0, notSynced: 800, outside: 0, unexplained: 0 }
        : { service: 9, dashboard: 0, notSynced: 9, outside: 0, unexplained: 0 },
    ),
    day('2026-04-03', { final: false }, () => ({ service: 5, dashboard: 5, notSynced: 0, outside: 0, unexplained: 0 })),
  ],
};

function stubServer(answer: Reconciliation = ANSWER) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://dashboard.test');
    if (url.pathname === '/api/reconciliation') return json(answer);
    if (url.pathname === '/api/marks') return json({ marks: [] });
    return json({ title: 'Not Found', detail: `No ${url.pathname}.` }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const render = (search: string, config = CONFIG) =>
  renderWithApp(
    <Routes>
      <Route path="/reconciliation" element={<ReconciliationPage />} />
    </Routes>,
    { url: `/reconciliation?${search}`, config },
  );

/** The days table's rows once in: each row's cells by their column's label. */
async function tableRows(title: string) {
  const region = await screen.findByRole('region', { name: title }, { timeout: 5000 });
  const table = await within(region).findByRole('table', undefined, { timeout: 5000 });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) =>
      Object.fromEntries(
        [...r.querySelectorAll('td')].map((td) => [
          td.getAttribute('data-label'),
          td.querySelector('[title]')?.getAttribute('title') ?? td.textContent,
        ]),
      ),
    );
}

describe('ReconciliationPage', () => {
  it('sets each day of the service beside the dashboard’s, the difference in its parts, and says how it is counted', async () => {
    const fetchMock = stubServer();
    render(RANGE);
    expect(await screen.findByRole('heading', { level: 1, name: 'Reconciliation' })).toBeTruthy();
    const rows = await tableRows('Credits, each day');
    expect(
      screen.getByText(
        /the service’s figure is its own total for the whole organization each day \(billable_tokens of \/tokens\)/,
      ),
    ).toBeTruthy();
    expect(screen.getByText(/the sum over the people of the mapping’s teams, each person once/)).toBeTruthy();
    const status = within(screen.getByRole('status', { name: 'What the days say' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(status).toEqual([
      'Every difference in this range is explained: nothing is left unexplained.',
      '1 day is not yet synced: Apr 2.',
      '1 day may still change at the service: Apr 3.',
    ]);
    expect(rows).toEqual([
      {
        'Day (UTC)': 'Apr 1, 2026',
        State: 'Synced',
        Service: '1,000',
        Dashboard: '900',
        Difference: '100',
        'Not yet synced': '0',
        'Outside the mapping': '100',
        Unexplained: '0',
      },
      expect.objectContaining({ State: 'Not yet synced', Difference: '800', 'Not yet synced': '800' }),
      expect.objectContaining({ State: 'Synced, may still change', Difference: '0' }),
    ]);
    // The range's sums of the figure.
    const sums = within(screen.getByRole('region', { name: 'Over the range' }));
    expect(sums.getByText('Service').nextElementSibling!.textContent).toBe('1,805');
    expect(sums.getByText('Outside the mapping').nextElementSibling!.textContent).toBe('100');
    expect(sums.getByText('Not yet synced').nextElementSibling!.textContent).toBe('800');
    const asked = fetchMock.mock.calls.map(([u]) => new URL(String(u), 'http://dashboard.test'));
    expect(asked.find((u) => u.pathname === '/api/reconciliation')!.search).toBe('?start=2026-04-01&end=2026-04-03');
  });

  it('switches the figure through the URL, each with its own source at the service', async () => {
    stubServer();
    const { params } = render(RANGE);
    await tableRows('Credits, each day');
    fireEvent.click(within(screen.getByRole('group', { name: 'Figure' })).getByRole('button', { name: 'Sessions' }));
    const rows = await tableRows('Sessions, each day');
    expect(rows[0]).toMatchObject({ Service: '12', Dashboard: '10', 'Outside the mapping': '2' });
    expect(params().get('figure')).toBe('sessions');
    expect(screen.getByText(/\(sessions of \/activity\)/)).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Over the range' })).getByText('Sessions')).toBeTruthy();
    // Active people summed over days are person-days, and said so.
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Figure' })).getByRole('button', { name: 'Active people' }),
    );
    expect(await screen.findByText(/summed over the days \(person-days\)/)).toBeTruthy();
  });

  it('downloads the table as shown, and every figure of every day', async () => {
    stubServer();
    render(RANGE);
    await tableRows('Credits, each day');
    const downloads = captureDownloads();
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV of Credits, each day' }));
    await waitFor(() => expect(downloads.count()).toBe(1));
    expect(downloads.files[0]!.name).toBe('reconciliation-credits-2026-04-01-2026-04-03.csv');
    const table = parse(await downloads.text(), { columns: true }) as Record<string, string>[];
    expect(table[0]).toEqual({
      day: '2026-04-01',
      state: 'Synced',
      service: '1000',
      dashboard: '900',
      difference: '100',
      not_synced: '0',
      outside: '100',
      unexplained: '0',
    });
    fireEvent.click(screen.getByRole('button', { name: 'CSV of every figure' }));
    await waitFor(() => expect(downloads.count()).toBe(2));
    expect(downloads.files[1]!.name).toBe('reconciliation-2026-04-01-2026-04-03.csv');
    const all = parse(await downloads.text(), { columns: true }) as Record<string, string>[];
    expect(all).toHaveLength(3 * RECONCILED.length);
    expect(all.filter((r) => r.date === '2026-04-02').map((r) => [r.figure, r.state, r.not_synced])).toEqual(
      RECONCILED.map((m) => [m, 'not synced', m === 'credits' ? '800' : '9']),
    );
    expect(Object.keys(all[0]!)).toContain('outside_mapping');
  });

  it('says which days a difference is left unexplained on', async () => {
    const days = ANSWER.days.map((d, i) =>
      i === 0
        ? {
            ...d,
            figures: {
              ...d.figures,
              commits: { service: 12, dashboard: 10, notSynced: 0, outside: 1, unexplained: 1 },
            },
          }
        : d,
    );
    stubServer({ ...ANSWER, days });
    render(RANGE);
    expect(
      await screen.findByText('1 day of the range has a difference the parts do not explain: Apr 1.', undefined, {
        timeout: 5000,
      }),
    ).toBeTruthy();
  });

  it('gives a manager their teams’ share, and in privacy mode how many of their people are withheld, unnamed', async () => {
    const fetchMock = stubServer({
      ...ANSWER,
      teams: ['Sales'],
      outside: 'teams',
      withheld: { minGroup: 5, groups: 1, people: 3 },
    });
    render(`${RANGE}&team=Sales`);
    expect(await screen.findByText(/the sum over the people of Sales \(sub-teams included\)/)).toBeTruthy();
    expect(
      screen.getByText(
        'Privacy mode: 3 people of your teams are in 1 group of fewer than 5; their figures are counted in “Outside these teams”, never on their own.',
      ),
    ).toBeTruthy();
    const rows = await tableRows('Credits, each day');
    expect(rows[0]).toMatchObject({ 'Outside these teams': '100' });
    const asked = fetchMock.mock.calls.map(([u]) => new URL(String(u), 'http://dashboard.test'));
    expect(asked.find((u) => u.pathname === '/api/reconciliation')!.searchParams.getAll('team')).toEqual(['Sales']);
  });

  it('says why there is nothing to reconcile on a server without a store, and asks nothing', async () => {
    const fetchMock = stubServer();
    render(RANGE, TEST_CONFIG);
    expect(await screen.findByText(/The reconciliation needs the dashboard server to keep/)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
