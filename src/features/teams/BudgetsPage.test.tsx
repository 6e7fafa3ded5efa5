// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { TEAMS_ANSWER } from '../../test/analytics-fixtures';
import { TEST_CONFIG, createTestQueryClient, renderWithApp } from '../../test/render';
import BudgetsPage from './BudgetsPage';
import { json } from './fixtures';

const PRICED = { ...TEST_CONFIG, teams: true, currency: 'EUR' };

/** The server: the tree, the budgets in force, and a PUT answered by `put`. */
function stubServer(put: (body: { budgets: { team: string; monthly: number }[] }) => Response) {
  let budgets = [{ team: '', monthly: 5000 }];
  const calls: { method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://dashboard.test');
      if (url.pathname === '/api/teams') return json(TEAMS_ANSWER);
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

describe('BudgetsPage', () => {
  it('lists the organization and every team with its budget, and saves the budgets filled in', async () => {
    const calls = stubServer((b) => json({ currency: 'EUR', budgets: b.budgets }));
    renderWithApp(<BudgetsPage />, { url: '/settings/budgets', config: PRICED });
    await waitFor(() => expect((box('the whole organization') as HTMLInputElement).value).toBe('5000'));
    expect(box('Engineering/Platform/Infra')).toBeTruthy();
    fireEvent.change(box('Sales'), { target: { value: '1200.5' } });
    fireEvent.change(box('the whole organization'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save budgets' }));
    expect(await screen.findByText('Saved: 1 budget in force.')).toBeTruthy();
    expect(calls).toEqual([{ method: 'PUT', body: { budgets: [{ team: 'Sales', monthly: 1200.5 }] } }]);
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
    expect(screen.getByText('Whole organization: €5,000 a month')).toBeTruthy();
    expect(screen.queryByRole('spinbutton')).toBeNull();
    r.unmount();
    renderWithApp(<BudgetsPage />, { url: '/settings/budgets', config: { ...PRICED, currency: null } });
    expect(screen.getByText(/they need the price list/)).toBeTruthy();
  });
});
