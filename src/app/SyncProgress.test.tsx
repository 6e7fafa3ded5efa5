// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, TEST_CONFIG } from '../test/render';
import { plainTask, SyncProgress } from './SyncProgress';

function stubSync(body: unknown) {
  const f = vi.fn(async () => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }));
  vi.stubGlobal('fetch', f);
  return f;
}
afterEach(() => vi.unstubAllGlobals());

describe('SyncProgress', () => {
  it('says in plain words what the store is loading while the server fills it, and how far it is', async () => {
    stubSync({
      store: 'sqlite',
      running: ['users 2026-05-01…2026-05-31 (page 3)', 'tokens 2026-05-01…2026-05-31'],
      stored: { users: { days: 40 } },
    });
    renderWithApp(<SyncProgress />, { config: { ...TEST_CONFIG, latestDay: '2026-05-31' } });
    // History from Jan 14 to May 31: 138 days.
    await waitFor(() =>
      expect(
        screen.getByText(
          'Loading each person’s daily activity for May 1 – May 31 (page 3) from the service (and 1 more) · 40 of 138 days of people’s activity stored so far…',
        ),
      ).toBeTruthy(),
    );
  });

  it.each([
    ['tokens by model 2026-05-01…2026-05-31', 'credits and tokens for May 1 – May 31'],
    ['users 2026-09-15', 'each person’s daily activity for Sep 15'],
    ['productivity 2026-02-01…2026-02-01', 'files, commits and pull requests for Feb 1'],
    ['readiness reports', 'readiness reports'],
  ])('names the task %j as %j', (label, plain) => expect(plainTask(label)).toBe(plain));
  it('says nothing when nothing is being filled, or when the server keeps no store', async () => {
    const f = stubSync({ store: 'sqlite', running: [] });
    const { unmount } = renderWithApp(<SyncProgress />);
    await waitFor(() => expect(f).toHaveBeenCalled());
    expect(screen.queryByText(/Loading/)).toBeNull();
    unmount();
    stubSync({ store: null });
    renderWithApp(<SyncProgress />);
    expect(screen.queryByText(/Loading/)).toBeNull();
  });
});
