import { describe, expect, it } from 'vitest';
import { buildQuery, createClient } from './client';
import { ApiError } from './errors';
import { readinessResponseSchema, tokensResponseSchema, usersResponseSchema } from './schemas';
import { userRow } from '../test/fixtures';

function fakeFetch(status: number, body: string, headers: Record<string, string> = {}) {
  const calls: { url: string; init?: RequestInit }[] = [];
  const f = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init });
    return new Response(body, { status, headers });
  }) as typeof fetch;
  return { f, calls };
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected the request to fail');
}

const meta = { org_id: 'o', start_date: '2026-02-01', end_date: '2026-02-01' };

describe('buildQuery', () => {
  it('drops empty values and encodes the rest', () => {
    expect(buildQuery({ a: '1', b: undefined, c: null, d: '', e: 'x y&z' })).toBe('?a=1&e=x+y%26z');
    expect(buildQuery({})).toBe('');
  });
});

describe('client', () => {
  it('sends the key and a query string, and parses the body', async () => {
    const { f, calls } = fakeFetch(200, JSON.stringify({ data: [], meta: { ...meta, has_more: false } }));
    const c = createClient({ fetch: f, authorization: () => 'Bearer k' });
    const res = await c.get('/api/v1/analytics/users', usersResponseSchema, { startDate: '2026-02-01', limit: 5 });
    expect(res.meta.has_more).toBe(false);
    expect(calls[0]!.url).toBe('/api/v1/analytics/users?startDate=2026-02-01&limit=5');
    expect((calls[0]!.init!.headers as Record<string, string>).Authorization).toBe('Bearer k');
  });

  it('maps the documented JSON error body', async () => {
    const body = { title: 'Bad Request', detail: "Cannot query today's date", status: 400, requestId: 'req_01H' };
    const { f } = fakeFetch(400, JSON.stringify(body), { 'content-type': 'application/json' });
    const e = await failure(createClient({ fetch: f }).get('/api/v1/analytics/tokens', tokensResponseSchema));
    expect(e).toMatchObject({
      status: 400,
      title: 'Bad Request',
      detail: "Cannot query today's date",
      requestId: 'req_01H',
    });
  });

  it('gives a readable error for an HTML error page', async () => {
    const { f } = fakeFetch(502, '<html><body><h1>502 Bad Gateway</h1></body></html>', { 'x-request-id': 'abc' });
    const e = await failure(createClient({ fetch: f }).get('/api/v1/analytics/tokens', tokensResponseSchema));
    expect(e.status).toBe(502);
    expect(e.title).toBe('Bad Gateway');
    expect(e.detail).toContain('non-JSON');
    expect(e.detail).toContain('502 Bad Gateway');
    expect(e.requestId).toBe('abc');
  });

  it('reads Retry-After on 429', async () => {
    const { f } = fakeFetch(429, '{}', { 'retry-after': '17' });
    const e = await failure(createClient({ fetch: f }).get('/x', tokensResponseSchema));
    expect(e.retryAfter).toBe(17);
    expect(e.title).toBe('Too Many Requests');
  });

  it('names the endpoint and the field when the body does not match the schema', async () => {
    const bad = { data: [{ date: '2026-02-01', billable_tokens: 'lots' }], meta };
    const { f } = fakeFetch(200, JSON.stringify(bad));
    const e = await failure(createClient({ fetch: f }).get('/api/v1/analytics/tokens', tokensResponseSchema));
    expect(e.title).toBe('Unexpected response');
    expect(e.detail).toContain('/api/v1/analytics/tokens');
    expect(e.detail).toContain('data[0].billable_tokens');
  });

  it('reports malformed JSON on success', async () => {
    const { f } = fakeFetch(200, '{"data": [');
    const e = await failure(createClient({ fetch: f }).get('/api/v1/analytics/tokens', tokensResponseSchema));
    expect(e.title).toBe('Malformed response');
  });

  it('turns a network failure into status 0', async () => {
    const f = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    const e = await failure(createClient({ fetch: f }).get('/x', tokensResponseSchema));
    expect(e.status).toBe(0);
    expect(e.detail).toContain('fetch failed');
  });

  it('is tolerant: unknown fields, null emails, skipped criteria, absent optional fields', async () => {
    const users = {
      data: [{ ...userRow({ user_email: null }), brand_new_field: { x: 1 } }],
      meta: { ...meta, has_more: false, extra: true },
    };
    const u = await createClient({ fetch: fakeFetch(200, JSON.stringify(users)).f }).get('/u', usersResponseSchema);
    expect(u.data[0]!.user_email).toBeNull();

    const reports = {
      reports: [
        {
          reportId: 'r1',
          createdAt: 1,
          repoUrl: 'https://x/y',
          apps: { '.': { description: 'd' } },
          report: { lint_config: { numerator: null, denominator: 1, rationale: 'n/a' } },
        },
      ],
      nextStartAfter: 'r1',
    };
    const r = await createClient({ fetch: fakeFetch(200, JSON.stringify(reports)).f }).get(
      '/r',
      readinessResponseSchema,
    );
    expect(r.reports[0]!.report.lint_config!.numerator).toBeNull();
    expect(r.reports[0]!.commitHash).toBeUndefined();
  });
});
