// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { TEAMS_ANSWER } from '../../test/analytics-fixtures';
import type { MonthSpend } from '../../api/spend';
import { month, teamSpendRow } from '../../test/spend-fixtures';
import { TEST_CONFIG, createTestQueryClient, renderWithApp } from '../../test/render';
import BudgetsPage from './BudgetsPage';
import { json } from './fixtures';

const PRICED = { ...TEST_CONFIG, teams: true, currency: 'EUR' };

/** How many times the teams' spend was asked for. */
let spendAsked = 0;

/** The server: the tree, the budgets in force, and a PUT answered by `put`. */
function stubServer(
  put: (body: { budgets: { team: string; monthly: number }[] }) => Response,
  inForce = [{ team: '', monthly: 5000 }],
  months: Record<string, Partial<MonthSpend>> = {},
) {
  let budgets = inForce;
  spendAsked = 0;
  const calls: { method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://dashboard.test');
      if (url.pathname === '/api/teams') return json(TEAMS_ANSWER);
      if (url.pathname === '/api/spend/teams') {
        // Each team's month; a budget's state as the server gives it for the budgets in force.
        const state = (team: string) => {
          const b = budgets.find((x) => x.team === team);
          return b
            ? {
                budget: b.monthly,
                state: b.monthly < 2800 ? ('over' as const) : ('at-risk' as const),
                crossing: '2026-05-20',
                crossingForecast: b.monthly > 2800,
              }
            : null;
        };
        spendAsked++;
        return json({
          currency: 'EUR',
          range: { start: '2026-05-01', end: '2026-05-28' },
          method: '',
          rows: ['', 'Engineering', 'Sales'].map((t) =>
            teamSpendRow(t, { month: month({ budget: state(t), ...months[t] }) }),
          ),
        });
      }
      if (url.pathname === '/api/spend/budgets') {
        if (init?.method === 'PUT') {
          const body = JSON.parse(String(init.body)) as { budgets: { team: string; monthly: number }[] };
          calls.push({ method: 'PUT', body });
          const r = put(body);
          if (r.ok) budgets = body.budgets;
          return r;
        }
        return json({ currency: 'EUR', budgets });
      }
      return json({ title: 'Not Found', detail: `No ${url.pathname}.` }, 404);
    }),
  );
  return calls;
}

const box = (name: string) => screen.getByRole('spinbutton', { name: `Monthly budget of ${name}` });
const row = (name: string) => screen.getByRole('rowheader', { name: new RegExp(`^${name}`) }).closest('tr')!;

describe('BudgetsPage', () => {
  it('lists the organization and every team with its budget, saves the budgets filled in, and says it saved', async () => {
    const calls = stubServer((b) => json({ currency: 'EUR', budgets: b.budgets }));
    renderWithApp(<BudgetsPage />, { url: '/settings/budgets', config: PRICED });
    await waitFor(() => expect((box('the whole organization') as HTMLInputElement).value).toBe('5000'));
    expect(box('Engineering/Platform/Infra')).toBeTruthy();
    expect(box('Unassigned')).toBeTruthy();
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('');
    fireEvent.change(box('Sales'), { target: { value: '1200.5' } });
    fireEvent.change(box('the whole organization'), { target: { value: '' } });
    expect(status.textContent).toBe('Unsaved changes.');
    const button = screen.getByRole('button', { name: 'Save budgets' });
    button.focus();
    fireEvent.click(button);
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Saved: 1 budget in force.'));
    expect(calls).toEqual([{ method: 'PUT', body: { budgets: [{ team: 'Sales', monthly: 1200.5 }] } }]);
    // The spend asked again (the new budget's state) and the budgets' refetch settled: still saved, the
    // form kept (the same boxes, the focus on its button), the boxes holding what was saved.
    await waitFor(() => expect(spendAsked).toBe(2));
    await waitFor(() => expect(within(row('Sales')).getAllByText('Over budget')).toHaveLength(2));
    expect(screen.getByRole('status').textContent).toBe('Saved: 1 budget in force.');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Save budgets' }));
    expect((box('Sales') as HTMLInputElement).value).toBe('1200.5');
    expect((box('the whole organization') as HTMLInputElement).value).toBe('');
    // Another edit: no longer "Saved".
    fireEvent.change(box('Sales'), { target: { value: '1300' } });
    expect(screen.getByRole('status').textContent).toBe('Unsaved changes.');
  });

  it('shows each budget line’s month to date, forecast range and budget state beside its box', async () => {
    stubServer(() => json({}));
    renderWithApp(<BudgetsPage />, { url: '/settings/budgets', config: PRICED });
    await waitFor(() => expect(within(row('Whole organization')).getAllByText('At risk')).toHaveLength(2));
    const org = row('Whole organization');
    // The wide screen's cells (and the phone's lines under the name, hidden by CSS on a wide screen).
    const cells = within(org).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toEqual([
      '€2,800',
      '€3,070 – €3,160most likely €3,100',
      'At riskpasses May 20',
      '',
    ]);
    expect(within(org).getByText('€2,800 to date · forecast €3,070 – €3,160')).toBeTruthy();
    expect(within(org).getAllByText('At risk')[0]!.getAttribute('title')).toBe(
      'Budget €5,000 a month: the forecast passes it on May 20, 2026.',
    );
    // A team without a budget says so; the month is named above the table.
    expect(within(row('Sales')).getAllByText('No budget')).toHaveLength(2);
    expect(screen.getByText(/^May 2026: spent from May 1 to May 28, the forecast to May 31/)).toBeTruthy();
  });

  it('writes each money column in one format: whole units beside whole units, never beside cents', async () => {
    const client = createTestQueryClient();
    client.setQueryData(['me'], {
      email: 'm@acme.example',
      name: null,
      role: 'manager',
      teams: [],
      userId: null,
      orgView: true,
    });
    // Sales spent €76.13 so far, forecast €79.50 – €99.99, and has a budget of €80.50.
    stubServer(
      () => json({}),
      [
        { team: '', monthly: 5000 },
        { team: 'Sales', monthly: 80.5 },
      ],
      { Sales: { monthToDate: 76.13, forecast: { low: 79.5, mid: 88.25, high: 99.99 } } },
    );
    renderWithApp(<BudgetsPage />, { url: '/settings/budgets', config: { ...PRICED, signIn: true }, client });
    await waitFor(() => expect(within(row('Sales')).getAllByText('Over budget')).toHaveLength(2));
    const cells = (name: string) =>
      within(row(name))
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells('Whole organization')).toEqual([
      '€2,800',
      '€3,070 – €3,160most likely €3,100',
      'At riskpasses May 20',
      '€5,000',
    ]);
    expect(cells('Sales')).toEqual(['€76', '€80 – €100most likely €88', 'Over budgetpassed May 20', '€81']);
    expect(within(row('Sales')).getByText('€76 to date · forecast €80 – €100')).toBeTruthy();
  });

  it('keeps a negative amount from being sent, and shows the server’s refusal', async () => {
    const calls = stubServer(() =>
      json({ title: 'Bad Request', status: 400, detail: 'The budgets were refused; budget 1: no team.' }, 400),
    );
    renderWithApp(<BudgetsPage />, { url: '/settings/budgets', config: PRICED });
    await waitFor(() => expect((box('Sales') as HTMLInputElement).value).toBe(''));
    fireEvent.change(box('Sales'), { target: { value: '-3' } });
    expect(screen.getByRole('alert').textContent).toBe('The budget of Sales must be an amount above zero, or empty.');
    expect((screen.getByRole('button', { name: 'Save budgets' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(box('Sales'), { target: { value: '10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save budgets' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The budgets were refused; budget 1: no team.');
    expect(calls).toHaveLength(1);
  });

  it('is read-only for a signed-in manager, and says that budgets need a price list', async () => {
    stubServer(() => json({}));
    const client = createTestQueryClient();
    client.setQueryData(['me'], {
      email: 'm@acme.example',
      name: null,
      role: 'manager',
      teams: ['Sales'],
      userId: null,
      orgView: true,
    });
    const r = renderWithApp(<BudgetsPage />, {
      url: '/settings/budgets',
      config: { ...PRICED, signIn: true },
      client,
    });
    expect(await screen.findByText('Only the dashboard’s admins (ADMIN_EMAILS) can change the budgets.')).toBeTruthy();
    // Only the budgets set, each with its amount and its month, and no box to change them.
    await waitFor(() => expect(within(row('Whole organization')).getAllByText('At risk')).toHaveLength(2));
    expect(within(row('Whole organization')).getAllByRole('cell').at(-1)!.textContent).toBe('€5,000');
    expect(screen.getAllByRole('rowheader').map((h) => h.firstChild!.textContent)).toEqual(['Whole organization']);
    expect(screen.queryByRole('spinbutton')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save budgets' })).toBeNull();
    r.unmount();
    renderWithApp(<BudgetsPage />, { url: '/settings/budgets', config: { ...PRICED, currency: null } });
    expect(screen.getByText(/they need the price list/)).toBeTruthy();
  });
});
