/**
 * Dashboards for the app tests: each on a loopback port of its own, over the embedded demo service, answering from a
 * store of its own in memory (or one the test gives), all closed after the file's tests. A port is taken before its
 * app is made, because signing in needs the dashboard's address in the provider's callbacks and in its own settings.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import { createApp, openAppStore } from '../server/app';
import { readServerConfig } from '../server/config';
import { readStoreConfig } from '../server/store/config';
import type { StoreDb } from '../server/store/db';

/** A port listened on: `base` its address; its app is the one `dashboard` starts on it. */
export interface Listening {
  base: string;
  use(app: ReturnType<typeof createApp>): void;
}

/** `defaults`: the environment every dashboard of the file starts with (the demo's day, seed and size). */
export function appHarness(defaults: Record<string, string>) {
  const servers: Server[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    servers.forEach((s) => s.close());
    for (const c of cleanups.splice(0)) await c();
  });

  async function listen(): Promise<Listening> {
    let app: ReturnType<typeof createApp> | undefined;
    const server = createServer((req, res) => app!.handler(req, res, () => res.end('the page')));
    servers.push(server);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
    return {
      base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      use: (a) => void (app = a),
    };
  }

  /** A dashboard with `env` over the defaults (on `at`, else a new port); its address. */
  async function dashboard(env: Record<string, string>, o: { store?: StoreDb; at?: Listening } = {}): Promise<string> {
    const l = o.at ?? (await listen());
    const full = { ...defaults, DATA_DIR: ':memory:', ...env };
    const config = readServerConfig(full);
    const storeConfig = readStoreConfig(full);
    const store = o.store ?? (await openAppStore(config, storeConfig))!;
    const app = createApp(config, { store, storeConfig });
    cleanups.push(async () => {
      await app.close();
      if (!o.store) await store.close();
    });
    l.use(app);
    return l.base;
  }

  /** Runs `c` after the file's tests, in turn with the dashboards' own closing (a database dropped, a provider stopped). */
  const atEnd = (c: () => Promise<void>) => void cleanups.push(c);

  return { listen, dashboard, atEnd };
}
