// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '../../data/me';
import { TEST_CONFIG, createTestQueryClient, renderWithApp } from '../../test/render';
import { json } from './fixtures';
import { RefreshThresholds } from './RefreshThresholds';

const SIGNED_IN = { ...TEST_CONFIG, teams: true, signIn: true };
const ADMIN: Me = { email: 'ada@acme.com', name: null, role: 'admin', teams: [], userId: null, orgView: true };
const REFRESHED = {
  quarter: '2026-Q2',
  p25: 1_000,
  p50: 5_000,
  p75: 20_000,
  people: 140,
  basis: { start: '2026-05-04', end: '2026-05-31' },
  computedAt: '2026-06-01T08:00:00Z',
  refreshed: true,
};

/** The server: answers the refresh (or refuses it with `refuse`), and records each write. */
function stubServer(refuse?: { status: number; detail: string }) {
  const writes: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://dashboard.test');
      writes.push({ method: init?.method ?? 'GET', path: url.pathname, body: JSON.parse(String(init?.body)) });
      return refuse ? json({ title: 'Refused', detail: refuse.detail }, refuse.status) : json(REFRESHED);
    }),
  );
  return writes;
}

function render(me: Me) {
  const client = createTestQueryClient();
  client.setQueryData(['me'], me);
  // An intensity answer of a team's and of a person's, which a refresh makes stale.
  client.setQueryData(['teams', 'intensity', { team: 'Engineering' }], { rows: [] });
  client.setQueryData(['figures', 'intensity', 'usr_1'], { rows: [] });
  return { ...renderWithApp(<RefreshThresholds quarter="2026-Q2" />, { config: SIGNED_IN, client }), client };
}

afterEach(() => vi.unstubAllGlobals());

describe('RefreshThresholds', () => {
  it('asks an admin to confirm, refreshes the quarter, and asks the intensity answers again', async () => {
    const writes = stubServer();
    const { client } = render(ADMIN);
    fireEvent.click(screen.getByRole('button', { name: 'Refresh 2026-Q2’s thresholds' }));
    const confirm = screen.getByRole('group', { name: 'Refresh 2026-Q2’s thresholds' });
    expect(confirm.textContent).toContain('people may move band without changing their use');
    expect(writes).toEqual([]);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Refresh them' }));
    expect((await screen.findByRole('status')).textContent).toBe('Refreshed from May 4, 2026 to May 31, 2026.');
    expect(writes).toEqual([{ method: 'POST', path: '/api/intensity/thresholds', body: { quarter: '2026-Q2' } }]);
    expect(client.getQueryState(['teams', 'intensity', { team: 'Engineering' }])!.isInvalidated).toBe(true);
    expect(client.getQueryState(['figures', 'intensity', 'usr_1'])!.isInvalidated).toBe(true);
  });

  it('keeps the thresholds when the admin changes their mind, and says why the server refused', async () => {
    const writes = stubServer({
      status: 409,
      detail: 'Fewer than 8 people were active in the four whole weeks 2026-Q2’s thresholds are computed from.',
    });
    render(ADMIN);
    fireEvent.click(screen.getByRole('button', { name: 'Refresh 2026-Q2’s thresholds' }));
    fireEvent.click(screen.getByRole('button', { name: 'Keep them' }));
    expect(screen.queryByRole('group')).toBeNull();
    expect(writes).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Refresh 2026-Q2’s thresholds' }));
    fireEvent.click(screen.getByRole('button', { name: 'Refresh them' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Fewer than 8 people were active/);
    expect(writes).toHaveLength(1);
  });

  it('is not offered to a manager or a viewer', async () => {
    for (const role of ['manager', 'viewer'] as const) {
      const { container, unmount } = render({ ...ADMIN, role, teams: ['Engineering'] });
      await waitFor(() => expect(container.textContent).toBe(''));
      unmount();
    }
  });
});
