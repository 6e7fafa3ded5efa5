/**
 * A dashboard on a loopback port over the store `env` names, as main.ts makes it (without starting its sync): for the
 * tests that stop a server and start another on the same store.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, openAppStore } from '../server/app';
import { readServerConfig } from '../server/config';
import type { Logger } from '../server/core/log';
import { readStoreConfig } from '../server/store/config';

export async function startApp(env: Record<string, string>, logger?: Logger) {
  const config = readServerConfig(env);
  const storeConfig = readStoreConfig(env);
  const store = (await openAppStore(config, storeConfig))!;
  const app = createApp(config, { store, storeConfig, logger });
  const server = createServer((req, res) => app.handler(req, res, () => res.end()));
  const base = await new Promise<string>((ok) =>
    server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
  const stop = async () => {
    server.close();
    await app.close();
    await store.close();
  };
  return { app, store, base, stop };
}
