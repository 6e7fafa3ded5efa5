/**
 * The one way component tests render: a fresh QueryClient (no retries) per
 * render, the app configuration seeded, a memory router at the given URL, and
 * the current location readable after interactions. Test files that use it
 * run in jsdom (`// @vitest-environment jsdom` at the top of the file).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, type RenderResult } from '@testing-library/react';
import { Suspense, useLayoutEffect } from 'react';
import { MemoryRouter, useLocation, type Location } from 'react-router-dom';
import { afterEach, vi } from 'vitest';
import type { ClientConfig } from '../api/schemas';
import { configQuery } from '../data/config';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

export const TEST_CONFIG: ClientConfig = {
  demo: true,
  keyRequired: false,
  teams: false,
  signIn: false,
  currency: null,
  historyStart: '2026-01-14',
  latestDay: '2026-05-31',
  basePath: '',
  holidays: [],
};

export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    // gcTime: Infinity schedules no garbage-collection timers that could outlive a test.
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
}

function LocationProbe({ onChange }: { onChange: (l: Location) => void }) {
  const location = useLocation();
  useLayoutEffect(() => onChange(location), [location, onChange]);
  return null;
}

export interface RenderOptions {
  /** The router's initial URL, e.g. `/users?q=bob` (default `/`). */
  url?: string;
  /** The app configuration seeded under `['config']`; null leaves the cache empty. */
  config?: ClientConfig | null;
  client?: QueryClient;
}

export interface Rendered extends RenderResult {
  client: QueryClient;
  /** The router's current location (pathname, search, ...). */
  location: () => Location;
  /** The current URL's search parameters. */
  params: () => URLSearchParams;
}

export function renderWithApp(ui: React.ReactNode, opts: RenderOptions = {}): Rendered {
  const client = opts.client ?? createTestQueryClient();
  const config = opts.config === undefined ? TEST_CONFIG : opts.config;
  if (config) client.setQueryData(configQuery.queryKey, config);
  let current: Location | undefined;
  const onChange = (l: Location) => {
    current = l;
  };
  // A wrapper, not a wrapped element: `rerender` keeps the providers and the router's state.
  const Wrapper = ({ children }: { children: React.ReactNode }) => (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[opts.url ?? '/']}>
        <LocationProbe onChange={onChange} />
        <Suspense fallback={<p>Suspended…</p>}>{children}</Suspense>
      </MemoryRouter>
    </QueryClientProvider>
  );
  const result = render(ui, { wrapper: Wrapper });
  const location = () => {
    if (!current) throw new Error('the router has not rendered');
    return current;
  };
  return { ...result, client, location, params: () => new URLSearchParams(location().search) };
}

/** A Blob's text through FileReader (jsdom's Blob has no `text()`). */
export function readBlob(b: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error ?? new Error('the blob could not be read'));
    r.readAsText(b);
  });
}

/**
 * Captures file downloads: the Blob given to `URL.createObjectURL`, the name
 * and address of the anchor clicked (no navigation happens), and the object
 * URLs revoked.
 */
export function captureDownloads() {
  const blobs: Blob[] = [];
  const files: { name: string; href: string }[] = [];
  const revoked: string[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
    if (!(b instanceof Blob)) throw new Error('expected a Blob');
    blobs.push(b);
    return `blob:test/${blobs.length}`;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation((u) => void revoked.push(u));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    files.push({ name: this.download, href: this.getAttribute('href') ?? '' });
  });
  return {
    files,
    revoked,
    count: () => blobs.length,
    /** The n-th downloaded blob (default: the last). */
    blob: (n = blobs.length - 1): Blob => {
      const b = blobs[n];
      if (!b) throw new Error(`no download #${n}`);
      return b;
    },
    /** The text of the n-th downloaded blob (default: the last). */
    text(n = blobs.length - 1): Promise<string> {
      return readBlob(this.blob(n));
    },
  };
}
