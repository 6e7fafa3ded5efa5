// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { PAGES, lazyPage, loadPageAt } from './routes';

function Counter() {
  const [n, setN] = useState(0);
  return (
    <button type="button" onClick={() => setN(n + 1)}>
      clicked {n}
    </button>
  );
}

/** A page module that arrives when `arrive` is called, and how many times it was imported. */
function deferredPage() {
  let arrive!: () => void;
  const imported = { count: 0 };
  const ready = new Promise<{ default: React.ComponentType }>((resolve) => {
    arrive = () => resolve({ default: Counter });
  });
  const page = lazyPage(() => {
    imported.count++;
    return ready;
  });
  return { page, arrive, imported };
}

function Frame({ children }: { children: React.ReactNode }) {
  return <Suspense fallback={<p>placeholder</p>}>{children}</Suspense>;
}

afterEach(cleanup);

describe('lazyPage', () => {
  it('draws a page whose code is already in without its placeholder', async () => {
    const { page, arrive, imported } = deferredPage();
    const loading = page.load();
    arrive();
    await loading;
    render(
      <Frame>
        <page.Component />
      </Frame>,
    );
    // Synchronously, on the first render: no placeholder in between.
    expect(screen.getByRole('button', { name: 'clicked 0' })).toBeTruthy();
    expect(screen.queryByText('placeholder')).toBeNull();
    expect(imported.count).toBe(1);
  });

  it('shows the placeholder until the code arrives, and keeps the page (and its state) when drawn again', async () => {
    const { page, arrive, imported } = deferredPage();
    const { rerender } = render(
      <Frame>
        <page.Component />
      </Frame>,
    );
    expect(screen.getByText('placeholder')).toBeTruthy();
    await act(async () => arrive());
    const button = await screen.findByRole('button', { name: 'clicked 0' });
    act(() => button.click());
    expect(screen.getByRole('button', { name: 'clicked 1' })).toBeTruthy();
    // The module is in now: a parent's re-render must not swap the lazy wrapper for the module's component.
    rerender(
      <Frame>
        <page.Component />
      </Frame>,
    );
    expect(screen.getByRole('button', { name: 'clicked 1' })).toBeTruthy();
    // Loading again (a hovered link) imports nothing more.
    await page.load();
    expect(imported.count).toBe(1);
  });

  it('imports again after a failed load (a chunk that could not be fetched)', async () => {
    let attempts = 0;
    const page = lazyPage(() => {
      attempts++;
      return attempts === 1 ? Promise.reject(new Error('chunk failed')) : Promise.resolve({ default: Counter });
    });
    await expect(page.load()).rejects.toThrow('chunk failed');
    await expect(page.load()).resolves.toEqual({ default: Counter });
    expect(attempts).toBe(2);
  });
});

describe('loadPageAt', () => {
  const entry = (path: string) => PAGES.find((p) => p.path === path)!;

  it("loads the code of the route's page, parameters and splats included", async () => {
    for (const [at, route] of [
      ['/users/u-1', '/users/:userId'],
      ['/teams/Engineering/Platform', '/teams/*'],
      ['/tools', '/tools'],
    ] as const) {
      expect(entry(route).loaded!()).toBe(false);
      await loadPageAt(at);
      expect(entry(route).loaded!()).toBe(true);
    }
    // Its neighbours are left alone.
    expect(entry('/readiness/:repo').loaded!()).toBe(false);
    expect(entry('/settings/budgets').loaded!()).toBe(false);
  });

  it('settles at once for the landing page and for an unknown path', async () => {
    await expect(loadPageAt('/')).resolves.toBeUndefined();
    await expect(loadPageAt('/nowhere')).resolves.toBeUndefined();
  });
});
