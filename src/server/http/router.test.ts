import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setImmediate as letGo } from 'node:timers/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { ACCESS, setScope, type ViewScope } from '../auth/access';
import { HttpError } from '../core/errors';
import { createLogger } from '../core/log';
import { json } from '../core/response';
import { FillFailed } from '../sync/engine';
import type { Mapping } from '../teams/mapping';
import { checkTeams, queryParser, whole } from './query';
import { createRouter, route } from './router';

const LATEST = '2026-03-31';
const MAPPING = { teams: ['Eng', 'Eng/Platform', 'Sales'] } as unknown as Mapping;
const ctx = { latest: LATEST, mapping: MAPPING };

describe('the one query parser', () => {
  const parse = queryParser({ range: 'optional', teams: true, shape: { limit: whole('limit', 25, 1, 100) } });
  const detail = (q: string) => {
    const r = parse(new URLSearchParams(q), ctx);
    return r.ok ? null : r.detail;
  };

  it('reads the range, the teams (checked, sorted, once each) and the other parameters, with their defaults', () => {
    const r = parse(new URLSearchParams('start=2026-03-01&end=2026-03-10&team=Sales&team=Eng&team=Sales&limit=7'), ctx);
    expect(r).toEqual({
      ok: true,
      value: { range: { start: '2026-03-01', end: '2026-03-10' }, teams: ['Eng', 'Sales'], params: { limit: 7 } },
    });
    const d = parse(new URLSearchParams(''), ctx);
    expect(d).toEqual({
      ok: true,
      value: { range: { start: '2026-03-02', end: LATEST }, teams: [], params: { limit: 25 } },
    });
  });

  it('refuses each bad parameter by name, saying what is accepted', () => {
    expect(detail('colour=red')).toBe('Unknown parameter "colour"; this endpoint takes start, end, limit, team.');
    expect(detail('limit=1&limit=2')).toBe('The parameter "limit" is given more than once.');
    expect(detail('limit=0')).toBe('limit must be a whole number from 1 to 100, got "0".');
    expect(detail('start=2026-03-01')).toBe('Give both start and end (YYYY-MM-DD), or neither for the last 30 days.');
    expect(detail('start=2026-03-05&end=2026-03-01')).toBe('end (2026-03-01) is before start (2026-03-05).');
    expect(detail('start=2026-01-01&end=2026-03-01')).toBe(
      'start (2026-01-01) is before the history starts (2026-01-14).',
    );
    expect(detail('start=2026-03-01&end=2026-04-01')).toBe(
      'end (2026-04-01) is after the latest day with data (2026-03-31).',
    );
    expect(detail('team=Eng/Nope')).toMatch(/^No team is called "Eng\/Nope" in the mapping in force/);
  });

  it('takes the service’s names for a range it requires, and no team where none is declared', () => {
    const p = queryParser({ range: 'required', names: ['startDate', 'endDate'] });
    expect(p(new URLSearchParams('startDate=2026-03-01'), ctx)).toEqual({
      ok: false,
      detail: 'Give startDate and endDate (YYYY-MM-DD).',
    });
    expect(p(new URLSearchParams('startDate=2026-03-01&endDate=2026-03-02&team=Eng'), ctx)).toEqual({
      ok: false,
      detail: 'Unknown parameter "team"; this endpoint takes startDate, endDate.',
    });
  });

  it('knows Unassigned as a team, and refuses an empty selection where one is needed', () => {
    expect(checkTeams(['Unassigned'], null)).toEqual({ ok: true, value: ['Unassigned'] });
    expect(checkTeams([], MAPPING)).toEqual({
      ok: false,
      detail: 'Name at least one team: team=<path> (several allowed).',
    });
  });
});

// A route's parser is a constant of its module, as the routes' are: the handler's query is typed from it.
const thingsQuery = queryParser({ teams: true, shape: { n: z.optional(z.string()) } });

describe('the route table', () => {
  const logs: string[] = [];
  /** A CSV route whose answer is the pieces `make` gives. */
  const streamed = (path: string, what: string, make: () => AsyncGenerator<string>) =>
    route({
      method: 'GET',
      path,
      access: ACCESS.everyone,
      what,
      handle: async () => ({ status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' }, pieces: make() }),
    });
  /** How far the endless answer got, and whether its making was stopped. */
  const endless = { made: 0, stopped: false };
  const router = createRouter(
    [
      route({
        method: 'GET',
        path: '/api/things',
        query: thingsQuery,
        access: ACCESS.teamsSummary,
        what: 'the things',
        handle: async ({ query }) => {
          if (query.params.n === 'refuse') throw new HttpError(409, 'Not now.');
          if (query.params.n === 'fail') throw new Error('the internal reason');
          if (query.params.n === 'fill')
            throw new FillFailed({ status: 503, headers: { 'content-type': 'application/json' }, body: '{"x":1}' });
          return { ...json(200, { teams: query.teams, pad: 'x'.repeat(2000) }), etag: 'W/"v1"' };
        },
      }),
      route({
        method: 'PUT',
        path: '/api/things',
        access: ACCESS.mapping,
        what: 'the things',
        handle: async () => json(200, { saved: true }),
      }),
      route({
        method: 'GET',
        path: /^\/api\/things\/([^/]+)\.csv$/,
        label: '/api/things/:name.csv',
        access: ACCESS.everyone,
        what: 'the things',
        handle: async ({ match }) => ({
          status: 200,
          headers: { 'content-type': 'text/csv; charset=utf-8' },
          pieces: (function* () {
            yield 'id\n';
            for (let i = 0; i < 3; i++) yield `${match[0]}-${i}\n`;
          })(),
        }),
      }),
      streamed('/api/broken.csv', 'the broken table', async function* () {
        yield 'id\n';
        await new Promise((ok) => setTimeout(ok, 50));
        throw new Error('the engine fell over');
      }),
      streamed('/api/endless.csv', 'the endless table', async function* () {
        try {
          for (endless.made = 0; ; endless.made++) {
            await letGo();
            yield `${'x'.repeat(10_000)}\n`;
          }
        } finally {
          endless.stopped = true;
        }
      }),
    ],
    { logger: createLogger((l) => void logs.push(l)), context: () => ctx },
  );
  const server = createServer((req, res) => void router.handle(req, res));
  const listening = new Promise<string>((ok) =>
    server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
  afterAll(() => new Promise<void>((ok) => server.close(() => ok())));
  /** fetch decodes gzip itself, and says it did in the headers. */
  const get = async (path: string, headers: Record<string, string> = {}, method = 'GET') => {
    const r = await fetch(`${await listening}${path}`, { headers, method });
    return { status: r.status, headers: Object.fromEntries(r.headers), body: await r.text() };
  };

  it('knows its paths and the rule of the route a request reaches', () => {
    expect(router.owns('/api/things')).toBe(true);
    expect(router.owns('/api/things/a.csv')).toBe(true);
    expect(router.owns('/api/other')).toBe(false);
    expect(router.ruleFor('HEAD', '/api/things')).toBe(ACCESS.teamsSummary);
    expect(router.ruleFor('PUT', '/api/things')).toBe(ACCESS.mapping);
    expect(router.ruleFor('DELETE', '/api/things')).toBeUndefined();
  });

  it('answers with the query parsed, gzip when accepted, and 304 while the reader’s copy is current', async () => {
    const r = await get('/api/things?team=Eng/Platform', { 'accept-encoding': 'gzip' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(r.headers['cache-control']).toBe('private, no-cache');
    expect(JSON.parse(r.body).teams).toEqual(['Eng/Platform']);
    const again = await get('/api/things?team=Eng/Platform', { 'if-none-match': 'W/"v1"' });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
  });

  it('stops making a streamed answer when its reader goes away', async () => {
    for (const encoding of ['gzip', 'identity']) {
      Object.assign(endless, { made: 0, stopped: false });
      const abort = new AbortController();
      const r = await fetch(`${await listening}/api/endless.csv`, {
        headers: { 'accept-encoding': encoding },
        signal: abort.signal,
      });
      await r.body!.getReader().read();
      abort.abort();
      await vi.waitFor(() => expect(endless.stopped).toBe(true));
      const made = endless.made;
      await new Promise((ok) => setTimeout(ok, 50));
      expect(endless.made).toBe(made);
    }
    // No fault: the reader left.
    expect(logs.some((l) => l.includes('the endless table'))).toBe(false);
  });

  it('cuts a streamed answer short when its making fails midway, and logs why', async () => {
    // Its status and first piece were sent: the reader sees the connection end before the answer does.
    const r = await fetch(`${await listening}/api/broken.csv`);
    expect(r.status).toBe(200);
    await expect(r.text()).rejects.toThrow(TypeError);
    await vi.waitFor(() =>
      expect(
        logs.some((l) => l.includes('failed to compute the broken table') && l.includes('the engine fell over')),
      ).toBe(true),
    );
  });

  it('says 404, 405 with the methods allowed, and 400 naming the parameter, in the error body', async () => {
    const none = await get('/api/things/a/b.csv');
    expect(none.status).toBe(404);
    const method = await get('/api/things', {}, 'DELETE');
    expect(method.status).toBe(405);
    expect(method.headers.allow).toBe('GET, HEAD, PUT');
    const bad = await get('/api/things?m=1');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({
      status: 400,
      detail: 'Unknown parameter "m"; this endpoint takes n, team.',
    });
  });

  it('answers a refusal as it says, the service’s own failure as the service gave it, a fault with its request id', async () => {
    const refused = await get('/api/things?n=refuse');
    expect([refused.status, JSON.parse(refused.body).detail]).toEqual([409, 'Not now.']);
    const fill = await get('/api/things?n=fill');
    expect([fill.status, fill.body]).toEqual([503, '{"x":1}']);
    const fault = await get('/api/things?n=fail');
    expect(fault.status).toBe(500);
    expect(fault.body).not.toMatch(/internal reason/);
    const { requestId } = JSON.parse(fault.body) as { requestId: string };
    expect(logs.some((l) => l.includes(requestId) && l.includes('the internal reason'))).toBe(true);
  });

  it('reads the context once a wrapper has waited (the mapping read at start), and matches the path the gate decides on', async () => {
    let mapping: Mapping | null = null;
    let loaded!: () => void;
    const ready = new Promise<void>((ok) => (loaded = ok));
    const teams = route({
      method: 'GET',
      path: '/api/teams-of',
      query: queryParser({ teams: true }),
      access: ACCESS.everyone,
      what: 'the teams',
      handle: async ({ query }) => json(200, query.teams),
    });
    const waiting = { ...teams, run: async (...a: Parameters<typeof teams.run>) => (await ready, teams.run(...a)) };
    const r = createRouter([waiting], {
      logger: createLogger(() => undefined),
      context: () => ({ latest: LATEST, mapping }),
    });
    const s = createServer((req, res) => void r.handle(req, res));
    const base = await new Promise<string>((ok) =>
      s.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)),
    );
    try {
      const answer = fetch(`${base}/api/teams-of?team=Sales`);
      mapping = MAPPING;
      loaded();
      expect(await (await answer).json()).toEqual(['Sales']);
      // `/api/teams-of/..` is `/api/` to the gate (no rule): the router must not answer it as a route either.
      expect(r.owns(new URL(`${base}/api/teams-of/x/..`).pathname)).toBe(false);
      expect((await get('/api/things/%2e%2e')).status).toBe(404);
    } finally {
      await new Promise<void>((ok) => s.close(() => ok()));
    }
  });

  it('streams a body piece by piece, and HEAD sends none', async () => {
    const csv = await get('/api/things/a.csv');
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body).toBe('id\na-0\na-1\na-2\n');
    const zipped = await get('/api/things/b.csv', { 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.body).toBe('id\nb-0\nb-1\nb-2\n');
    const head = await get('/api/things/a.csv', {}, 'HEAD');
    expect([head.status, head.body]).toEqual([200, '']);
  });
});

describe('kept answers (a route’s memo)', () => {
  let version = 'v1';
  let computed = 0;
  /** What the handler does while it computes (a fill storing a day changes the version). */
  let during = () => undefined as void;
  const router = createRouter(
    [
      route({
        method: 'GET',
        path: '/api/kept',
        query: thingsQuery,
        access: ACCESS.everyone,
        what: 'the kept',
        memo: true,
        handle: async ({ query }) => {
          computed++;
          during();
          if (query.params.n === 'refuse') throw new HttpError(409, 'Not now.');
          return json(200, { n: query.params.n ?? null, computed });
        },
      }),
      route({ method: 'PUT', path: '/api/kept', access: ACCESS.mapping, what: 'x', handle: async () => json(200, {}) }),
    ],
    { logger: createLogger(() => undefined), context: () => ctx, version: async () => version },
  );
  const server = createServer((req, res) => void router.handle(req, res));
  const listening = new Promise<string>((ok) =>
    server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
  afterAll(() => new Promise<void>((ok) => server.close(() => ok())));
  const ask = async (path: string, method = 'GET') => {
    const r = await fetch(`${await listening}${path}`, { method });
    return { status: r.status, body: await r.text() };
  };

  it('answers again from what it kept while the version holds, per query, and computes anew after a change', async () => {
    const first = await ask('/api/kept?n=a');
    expect(JSON.parse(first.body)).toEqual({ n: 'a', computed: 1 });
    expect(await ask('/api/kept?n=a')).toEqual(first);
    expect(JSON.parse((await ask('/api/kept?n=b')).body)).toEqual({ n: 'b', computed: 2 });
    version = 'v2';
    expect(JSON.parse((await ask('/api/kept?n=a')).body)).toEqual({ n: 'a', computed: 3 });
    // A change made through the table (a mapping or budgets saved) makes what was kept stale too.
    expect((await ask('/api/kept', 'PUT')).status).toBe(200);
    expect(JSON.parse((await ask('/api/kept?n=a')).body)).toEqual({ n: 'a', computed: 4 });
    expect(JSON.parse((await ask('/api/kept?n=a')).body)).toEqual({ n: 'a', computed: 4 });
  });

  it('keeps neither a refusal nor an answer computed while the data changed', async () => {
    computed = 0;
    expect((await ask('/api/kept?n=refuse')).status).toBe(409);
    expect((await ask('/api/kept?n=refuse')).status).toBe(409);
    expect(computed).toBe(2);
    during = () => void (version = `${version}+`);
    expect(JSON.parse((await ask('/api/kept?n=c')).body)).toEqual({ n: 'c', computed: 3 });
    during = () => undefined;
    expect(JSON.parse((await ask('/api/kept?n=c')).body)).toEqual({ n: 'c', computed: 4 });
    expect(JSON.parse((await ask('/api/kept?n=c')).body)).toEqual({ n: 'c', computed: 4 });
  });
});

describe('PSEUDONYMIZE=1 on streamed answers', () => {
  const bytes = (pseudonymized: boolean) =>
    route({
      method: 'GET',
      path: pseudonymized ? '/api/written.bin' : '/api/raw.bin',
      access: ACCESS.everyone,
      what: 'the file',
      handle: async () => ({
        status: 200,
        headers: { 'content-type': 'application/octet-stream' },
        pieces: [Buffer.from('ann@acme.example\n')],
        ...(pseudonymized && { pseudonymized: true }),
      }),
    });
  const text = route({
    method: 'GET',
    path: '/api/people.csv',
    access: ACCESS.everyone,
    what: 'the people',
    handle: async () => ({ status: 200, headers: { 'content-type': 'text/csv' }, pieces: ['ann@acme.example\n'] }),
  });
  const logs: string[] = [];
  const router = createRouter([bytes(true), bytes(false), text], {
    logger: createLogger((l) => void logs.push(l)),
    context: () => ctx,
  });
  const scope = { pseudonymize: (t: string) => t.replaceAll('ann@acme.example', 'person-1@pseudonym.invalid') };
  const server = createServer((req, res) => {
    setScope(req, scope as unknown as ViewScope);
    void router.handle(req, res);
  });
  const listening = new Promise<string>((ok) =>
    server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
  afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

  it('rewrites text pieces, passes bytes the route rewrote itself, and sends no bytes it could not rewrite', async () => {
    const base = await listening;
    expect(await (await fetch(`${base}/api/people.csv`)).text()).toBe('person-1@pseudonym.invalid\n');
    // The route's own bytes, as it wrote them.
    expect(await (await fetch(`${base}/api/written.bin`)).text()).toBe('ann@acme.example\n');
    // Bytes nobody rewrote are a fault: the answer is cut short before them.
    await expect(fetch(`${base}/api/raw.bin`).then((r) => r.text())).rejects.toThrow(TypeError);
    await vi.waitFor(() =>
      expect(logs.some((l) => l.includes('a streamed answer of bytes is not pseudonymized'))).toBe(true),
    );
  });
});
