/**
 * A NUL (U+0000) in what a reader sends, on both store engines: PostgreSQL's text cannot hold one, so an id, a
 * cursor or a parameter with one is refused 400 before any route reaches the store, and a JSON body's NUL is
 * refused or cleaned by the route that reads it; never a 500.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { raw } from '../test/http';
import { STORE_ENGINES } from '../test/stores';
import { createApp } from './app';
import { readServerConfig } from './config';
import { createLogger } from './core/log';
import { readStoreConfig } from './store/config';

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

const ENV = { DEMO_TODAY: '2026-04-01', DEMO_SEED: 'nul', DEMO_USERS: '20', DATA_DIR: ':memory:' };

describe.each(STORE_ENGINES)('a NUL from the reader ($name)', ({ available, open }) => {
  it.skipIf(!available)('is a 400 naming it in a path or a query, and never a 500 in a body', async () => {
    const opened = await open();
    const errors: string[] = [];
    try {
      const app = createApp(readServerConfig(ENV), {
        store: opened.store,
        storeConfig: readStoreConfig(ENV),
        logger: createLogger((l) => {
          if (JSON.parse(l).level === 'error') errors.push(l);
        }),
      });
      const server = createServer((req, res) => app.handler(req, res, () => res.end('the page')));
      servers.push(server);
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const send = (method: string, path: string, body?: unknown) =>
        raw(base, path, {
          method,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });

      const users = JSON.parse(
        (await send('GET', '/api/v1/analytics/users?startDate=2026-03-01&endDate=2026-03-02&limit=2')).body,
      ) as { data: { user_id: string }[] };
      const id = users.data[0]!.user_id;
      const mark = await send('POST', '/api/marks', { day: '2026-03-02', team: '', text: 'A mark' });
      expect(mark.status, mark.body).toBe(201);
      const markId = (JSON.parse(mark.body) as { id: string }).id;
      const rule = await send('POST', '/api/alert-rules', { kind: 'no-data', scope: '', threshold: 3 });
      expect(rule.status, rule.body).toBe(201);
      const ruleId = (JSON.parse(rule.body) as { id: string }).id;

      const refused: [string, string][] = [
        ['GET', `/api/users/${id}%00?start=2026-03-01&end=2026-03-02`],
        ['GET', '/api/users/%00'],
        ['PUT', `/api/marks/${markId}%00`],
        ['DELETE', `/api/marks/${markId}%00`],
        ['POST', `/api/alerts/${ruleId}%00/ack`],
        ['PUT', `/api/alert-rules/${ruleId}%00`],
        ['DELETE', `/api/alert-rules/${ruleId}%00`],
        ['GET', `/api/v1/analytics/users?startDate=2026-03-01&endDate=2026-03-02&cursor=${id}%00`],
        ['GET', '/api/users?start=2026-03-01&end=2026-03-02&q=%00'],
        ['GET', '/api/marks?start=2026-03-01&end=2026-03-02&team=%00'],
        ['GET', '/api/v1/analytics/tokens%00?startDate=2026-03-01&endDate=2026-03-02'],
      ];
      for (const [method, path] of refused) {
        const r = await send(method, path, method === 'PUT' ? { kind: 'no-data', scope: '', threshold: 3 } : undefined);
        expect(r.status, `${method} ${path}: ${r.body}`).toBe(400);
        expect(JSON.parse(r.body).detail).toMatch(/NUL/);
      }

      // In a JSON body: refused by the routes' checks, or cleaned out of a mark's words.
      const bodies: [string, string, unknown, number][] = [
        ['POST', '/api/marks', { day: '2026-03-02', team: '\u0000', text: 'x' }, 400],
        ['POST', '/api/marks', { day: '2026-03-02\u0000', team: '', text: 'x' }, 400],
        ['POST', '/api/alert-rules', { kind: 'no-data', scope: 'Eng\u0000' }, 400],
        ['PUT', '/api/teams/mapping', { format: 'csv', text: 'email,team\nann@acme.com,Da\u0000ta\n' }, 400],
        ['PUT', '/api/teams/mapping', { format: 'json', text: '{"people": [], "x": "\u0000"}' }, 400],
      ];
      for (const [method, path, body, status] of bodies) {
        const r = await send(method, path, body);
        expect(r.status, `${method} ${path} ${JSON.stringify(body)}: ${r.body}`).toBe(status);
      }
      const cleaned = await send('PUT', `/api/marks/${markId}`, { day: '2026-03-02', team: '', text: 'A\u0000mark' });
      expect(cleaned.status, cleaned.body).toBe(200);
      expect(JSON.parse(cleaned.body)).toMatchObject({ text: 'A mark' });
      expect(errors).toEqual([]);
    } finally {
      await opened.drop();
    }
  });
});
