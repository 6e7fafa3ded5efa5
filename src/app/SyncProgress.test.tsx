// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../test/render';
import { SyncProgress } from './SyncProgress';

function stubSync(body: unknown) {
  const f = vi.fn(async () => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }));
  vi.stubGlobal('fetch', f);
  return f;
}
afterEach(() => vi.unstubAllGlobals());

describe('SyncProgress', () => {
  it('says what the store is filling while the server fills it', async () => {
    stubSync({ store: 'sqlite', running: ['users 2026-05-01…2026-05-31 (page 3)', 'tokens 2026-05-01…2026-05-31'] });
    renderWithApp(<SyncProgress />);
    await waitFor(() =>
      expect(
        screen.getByText(/Filling the store from the service: users 2026-05-01…2026-05-31 \(page 3\) and 1 more/),
      ).toBeTruthy(),
    );
  });
  it('says nothing when nothing is being filled, or when the server keeps no store', async () => {
    const f = stubSync({ store: 'sqlite', running: [] });
    const { unmount } = renderWithApp(<SyncProgress />);
    await waitFor(() => expect(f).toHaveBeenCalled());
    expect(screen.queryByText(/Filling/)).toBeNull();
    unmount();
    stubSync({ store: null });
    renderWithApp(<SyncProgress />);
    expect(screen.queryByText(/Filling/)).toBeNull();
  });
});
