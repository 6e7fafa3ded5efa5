/**
 * The OpenAPI document of the dashboard's own API: valid OpenAPI 3.1 (checked by a validator made for it), with
 * every route of the table, its query parameters and its path's captures, on a server with its store (every
 * feature's routes) and with sign-in (the bearer token as its security scheme).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw } from '../../test/http';
import { createApp, openAppStore } from '../app';
import { readServerConfig } from '../config';
import { readStoreConfig } from '../store/config';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('GET /api/openapi.json', () => {
  let base: string;
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const env = { DEMO_TODAY: '2026-04-01', DEMO_USERS: '5', DEMO_REPOS: '1', DATA_DIR: dir, SYNC_BACKGROUND: '0' };
    const config = readServerConfig(env);
    const storeConfig = readStoreConfig(env);
    const store = (await openAppStore(config, storeConfig))!;
    app = createApp(config, { store, storeConfig });
    const server = createServer((req, res) => app.handler(req, res, () => res.end()));
    base = await new Promise<string>((ok) =>
      server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
    );
    cleanups.push(async () => {
      server.close();
      await app.close();
      await store.close();
    });
  });

  it('is a valid OpenAPI 3.1 document naming every route of the table', async () => {
    const r = await raw(base, '/api/openapi.json');
    expect(r.status).toBe(200);
    const doc = JSON.parse(r.body) as {
      openapi: string;
      paths: Record<string, Record<string, { parameters: { name: string; in: string }[] }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    const checked = await new Validator().validate(doc);
    expect(checked.errors ?? []).toEqual([]);
    expect(checked.valid).toBe(true);
    expect(app.routes.length).toBeGreaterThan(30);
    for (const route of app.routes) {
      // Every route declares what it answers, and every change what it takes: the document is made from them.
      expect(route.response, `${route.method} ${route.label ?? String(route.path)}: its response`).toBeDefined();
      if (route.method === 'POST' || route.method === 'PUT')
        expect(route.body, `${route.method} ${route.label ?? String(route.path)}: its body`).toBeDefined();
      const path = (route.label ?? String(route.path)).replace(/:(\w+)/g, '{$1}');
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${path}`).toBeDefined();
      // Its query parameters, and each capture of its path.
      expect(op!.parameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(
        route.parameters.map((p) => p.name),
      );
      for (const capture of path.match(/\{\w+\}/g) ?? [])
        expect(op!.parameters.some((p) => p.in === 'path' && `{${p.name}}` === capture)).toBe(true);
    }
    // The users table's query, as its parser takes it: its range, its paging, its teams.
    const users = doc.paths['/api/users']!.get!.parameters.map((p) => p.name);
    expect(users).toEqual(expect.arrayContaining(['start', 'end', 'offset', 'limit', 'sort', 'team']));
  });
});
