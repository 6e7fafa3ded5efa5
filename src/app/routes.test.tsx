// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { Component, Suspense, useState } from 'react';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
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

/** Loads the page's code, then draws it. */
async function loadedAndDrawn(page: ReturnType<typeof lazyPage>, arrive: () => void) {
  const loading = page.load();
  arrive();
  await loading;
  render(
    <Frame>
      <page.Component />
    </Frame>,
  );
}

describe('lazyPage', () => {
  // (First: what the app draws first is remembered for the rest of the file.)
  it('draws the page the app opens on in a render after the shell’s, even with its code in', async () => {
    const { page, arrive } = deferredPage();
    await loadedAndDrawn(page, arrive);
    // The shell's render: a loading line in the page's place, never a boundary's placeholder…
    expect(screen.getByText('Loading…')).toBeTruthy();
    expect(screen.queryByText('placeholder')).toBeNull();
    // …then the page, in a render of its own.
    expect(await screen.findByRole('button', { name: 'clicked 0' })).toBeTruthy();
  });

  it('draws a page whose code is already in at once, without a loading line', async () => {
    const { page, arrive, imported } = deferredPage();
    await loadedAndDrawn(page, arrive);
    // Synchronously, on the first render: no placeholder in between.
    expect(screen.getByRole('button', { name: 'clicked 0' })).toBeTruthy();
    expect(screen.queryByText('Loading…')).toBeNull();
    expect(screen.queryByText('placeholder')).toBeNull();
    expect(imported.count).toBe(1);
  });

  it('shows a loading line (never suspending) until the code arrives, and keeps the page and its state when drawn again', async () => {
    const { page, arrive, imported } = deferredPage();
    const { rerender } = render(
      <Frame>
        <page.Component />
      </Frame>,
    );
    // Its own loading line: a boundary's placeholder would be kept for 300 ms once shown.
    expect(screen.getByText('Loading…')).toBeTruthy();
    expect(screen.queryByText('placeholder')).toBeNull();
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

  it('throws a chunk that cannot be fetched to the error boundary', async () => {
    const page = lazyPage(() => Promise.reject(new Error('chunk failed')));
    // React reports what a boundary caught on the console: expected here.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    onTestFinished(() => quiet.mockRestore());
    class Boundary extends Component<{ children: React.ReactNode }, { error?: Error }> {
      state: { error?: Error } = {};
      static getDerivedStateFromError(error: Error) {
        return { error };
      }
      render() {
        return this.state.error ? <p>failed: {this.state.error.message}</p> : this.props.children;
      }
    }
    render(
      <Boundary>
        <page.Component />
      </Boundary>,
    );
    expect(await screen.findByText('failed: chunk failed')).toBeTruthy();
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
