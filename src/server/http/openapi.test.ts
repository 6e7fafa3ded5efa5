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
import { request, signedIn, signInEnv, startProvider } from '../../test/oidc';
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

describe('GET /api/openapi.json with sign-in', () => {
  let base: string;
  beforeAll(async () => {
    // The server listens first: sign-in's settings name its address.
    const at: { app?: ReturnType<typeof createApp> } = {};
    const server = createServer((req, res) => at.app!.handler(req, res, () => res.end()));
    base = await new Promise<string>((ok) =>
      server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
    );
    const provider = await startProvider(`${base}/auth/callback`);
    const env = {
      DEMO_TODAY: '2026-04-01',
      DEMO_USERS: '5',
      DEMO_REPOS: '1',
      DATA_DIR: ':memory:',
      SYNC_BACKGROUND: '0',
      ...signInEnv(provider.issuer, base),
    };
    const config = readServerConfig(env);
    const storeConfig = readStoreConfig(env);
    const store = (await openAppStore(config, storeConfig))!;
    const app = (at.app = createApp(config, { store, storeConfig }));
    cleanups.push(async () => {
      server.close();
      await provider.close();
      await app.close();
      await store.close();
    });
  }, 60_000);

  it('names the personal API token as the bearer scheme of what it may read, a session as that of the rest', async () => {
    const jar = await signedIn(base, 'admin@acme.example');
    const made = await request(jar, new URL(`${base}/api/api-tokens`), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'openapi', days: 1 }),
    });
    expect(made.res.status, made.body).toBe(201);
    const { token } = JSON.parse(made.body) as { token: string };
    const bearer = { authorization: `Bearer ${token}` };
    // Without credentials: a 401, as every operation of the document says.
    expect((await fetch(`${base}/api/openapi.json`)).status).toBe(401);
    const res = await fetch(`${base}/api/openapi.json`, { headers: bearer });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      security: Record<string, string[]>[];
      components: { securitySchemes: Record<string, Record<string, string>> };
      paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown }>>;
    };
    const checked = await new Validator().validate(doc);
    expect(checked.errors ?? []).toEqual([]);
    expect(doc.security).toContainEqual({ bearer: [] });
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops))
        expect(Object.keys(op.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['401', '403']));
    // A change, and the tokens' own routes, take a session: a token is refused them, and the document says so.
    for (const [method, path] of [
      ['post', '/api/goals'],
      ['delete', '/api/marks/{id}'],
      ['get', '/api/api-tokens'],
      ['post', '/api/api-tokens'],
    ] as const)
      expect(doc.paths[path]?.[method]?.security, `${method} ${path}`).toEqual([{ session: [] }]);
    expect(doc.paths['/api/users']?.get?.security).toBeUndefined();
    const change = await fetch(`${base}/api/goals`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ team: '', kind: 'weekly-active', target: 0.5, by: '2026-06-30' }),
    });
    expect(change.status).toBe(403);
    // What the README shows: an operation of the document asked with the token as its bearer.
    expect(doc.paths['/api/figures']?.get).toBeDefined();
    const figures = await fetch(`${base}/api/figures?measure=credits&by=week`, { headers: bearer });
    expect(figures.status, await figures.clone().text()).toBe(200);
  });
});
