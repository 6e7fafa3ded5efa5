// @vitest-environment jsdom
/**
 * Writes of URL state made in quick succession. React Router renders each navigation inside a transition, so
 * a second write made before the first one's render commits (a sort clicked while a new range still renders,
 * two patches in one handler) must still build on the first: these call two setters in one tick, before any
 * render, and expect the URL to hold both changes.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { configQuery } from './config';
import { createTestQueryClient, renderWithApp, TEST_CONFIG } from '../test/render';
import { useRange, useSearch, useSearchParam, useSortParam } from './search';

type Setters = {
  setRange: ReturnType<typeof useRange>['setRange'];
  setSort: ReturnType<typeof useSortParam>[1];
  patch: ReturnType<typeof useSearch>[1];
  setQ: ReturnType<typeof useSearchParam<'q'>>[1];
  back: () => void;
};

function Setters({ onReady }: { onReady: (s: Setters) => void }) {
  const { setRange } = useRange();
  const [, setSort] = useSortParam('tools', { column: 'credits', dir: 'desc' });
  const [, patch] = useSearch();
  const [, setQ] = useSearchParam('q');
  const navigate = useNavigate();
  const back = () => void navigate(-1);
  useLayoutEffect(() => {
    onReady({ setRange, setSort, patch, setQ, back });
  });
  return null;
}

function setup(url: string) {
  let s: Setters | undefined;
  const app = renderWithApp(<Setters onReady={(x) => (s = x)} />, { url });
  return { ...app, s: () => s! };
}

describe('URL writes in quick succession', () => {
  it('a sort clicked while a new range is still rendering keeps the range', () => {
    const { s, params, location } = setup('/tools?interval=week');
    act(() => {
      s().setRange({ start: '2026-05-25', end: '2026-05-31' });
      s().setSort({ column: 'name', dir: 'asc' });
    });
    expect(location().pathname).toBe('/tools');
    expect(params().toString()).toBe('interval=week&start=2026-05-25&end=2026-05-31&toolsSort=name%3Aasc');
  });

  it('two patches back to back both land, and the default sort still leaves the URL', () => {
    const { s, params } = setup('/tools?toolsSort=name:asc');
    act(() => {
      s().patch({ interval: 'week' });
      s().patch({ servers: 'split' });
      s().setSort({ column: 'credits', dir: 'desc' });
    });
    expect(params().toString()).toBe('interval=week&servers=split');
  });

  it('keeps push and replace: a choice adds a history entry, typing and sorting replace it', () => {
    const { s, params } = setup('/tools');
    act(() => {
      s().patch({ interval: 'week' }); // push
      s().setQ('ann'); // replace
      s().setSort({ column: 'name', dir: 'asc' }); // replace
    });
    expect(params().toString()).toBe('interval=week&q=ann&toolsSort=name%3Aasc');
    act(() => s().back());
    expect(params().toString()).toBe('');
  });

  it('under a base path, writes stay below it', () => {
    const client = createTestQueryClient();
    client.setQueryData(configQuery.queryKey, TEST_CONFIG);
    let s: Setters | undefined;
    function Where() {
      const l = useLocation();
      return <output>{l.pathname + l.search}</output>;
    }
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter basename="/dash" initialEntries={['/dash/tools?q=x']}>
          <Setters onReady={(x) => (s = x)} />
          <Where />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    act(() => {
      s!.patch({ interval: 'week' });
      s!.setSort({ column: 'name', dir: 'asc' });
    });
    expect(screen.getByRole('status').textContent).toBe('/tools?q=x&interval=week&toolsSort=name%3Aasc');
  });
});
