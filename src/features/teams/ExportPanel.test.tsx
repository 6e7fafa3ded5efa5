// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TeamsAnswer } from '../../api/teams';
import type { Me } from '../../data/me';
import { TEST_CONFIG, renderWithApp } from '../../test/render';
import { ExportPanel } from './ExportPanel';
import { json } from './fixtures';
import MappingPage from './MappingPage';

const CONFIG = { ...TEST_CONFIG, teams: true };
const panel = () => screen.getByRole('region', { name: 'Bulk export' });
const link = (name: string) => within(panel()).getByRole('link', { name });
const day = (label: string) => within(panel()).getByLabelText(label);

afterEach(() => vi.unstubAllGlobals());

describe('the bulk export on the mapping screen', () => {
  it('downloads the range of the pages, as Parquet or CSV, and the range chosen', () => {
    renderWithApp(<ExportPanel />, { url: '/settings/teams?start=2026-05-01&end=2026-05-20', config: CONFIG });
    expect(link('Download Parquet').getAttribute('href')).toBe(
      '/api/export/person-days?start=2026-05-01&end=2026-05-20&format=parquet',
    );
    expect(link('Download CSV').getAttribute('href')).toBe(
      '/api/export/person-days?start=2026-05-01&end=2026-05-20&format=csv',
    );
    fireEvent.change(day('From'), { target: { value: '2026-01-14' } });
    fireEvent.change(day('To'), { target: { value: '2026-03-31' } });
    expect(link('Download CSV').getAttribute('href')).toBe(
      '/api/export/person-days?start=2026-01-14&end=2026-03-31&format=csv',
    );
  });

  it('offers no download of a range the server would refuse, and says why', () => {
    renderWithApp(<ExportPanel />, { url: '/settings/teams?start=2026-05-01&end=2026-05-20', config: CONFIG });
    fireEvent.change(day('From'), { target: { value: '2026-05-21' } });
    const parquet = within(panel()).getByText('Download Parquet');
    expect(parquet.getAttribute('href')).toBeNull();
    expect(parquet.getAttribute('aria-disabled')).toBe('true');
    expect(within(panel()).getByRole('alert').textContent).toBe('The first day is after the last.');
    fireEvent.change(day('From'), { target: { value: '2026-01-01' } });
    expect(within(panel()).getByRole('alert').textContent).toBe(
      'The days with data run from 2026-01-14 to 2026-05-31.',
    );
  });

  const ANSWER: TeamsAnswer = {
    source: 'store',
    name: 'teams.csv',
    loadedAt: '2026-05-30T09:15:00.000Z',
    editable: true,
    refused: null,
    teams: [],
    unassigned: 3,
    users: 3,
    repos: 0,
  };
  const me = (role: Me['role']): Me => ({
    email: `${role}@acme.example`,
    name: null,
    role,
    teams: role === 'manager' ? ['Engineering'] : [],
    userId: null,
    orgView: true,
  });
  /** The server's answers; resolves once `/api/me` has been answered. */
  function stub(who: Me) {
    let answered: () => void;
    const me = new Promise<void>((ok) => (answered = ok));
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = new URL(String(input), 'http://dashboard.test');
        if (url.pathname === '/api/teams') return json(ANSWER);
        if (url.pathname === '/api/teams/mapping') return json({ source: 'store', format: 'csv', text: '' });
        if (url.pathname === '/api/me') {
          setTimeout(answered, 50);
          return json(who);
        }
        return json({ title: 'Not Found' }, 404);
      }),
    );
    return me;
  }

  it('is on the mapping screen for admins', async () => {
    stub(me('admin'));
    renderWithApp(<MappingPage />, { url: '/settings/teams', config: { ...CONFIG, signIn: true } });
    await waitFor(() => expect(panel()).toBeTruthy());
  });

  it('is not offered to a manager, whom the mapping screen does not serve', async () => {
    const known = stub(me('manager'));
    renderWithApp(<MappingPage />, { url: '/settings/teams', config: { ...CONFIG, signIn: true } });
    await known;
    await screen.findByRole('note');
    expect(screen.queryByRole('region', { name: 'Bulk export' })).toBeNull();
  });
});
