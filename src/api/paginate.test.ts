import { describe, expect, it } from 'vitest';
import { createClient } from './client';
import { walkReadinessReports, walkUsers } from './paginate';
import { userRow } from '../test/fixtures';

const meta = { org_id: 'o', start_date: '2026-02-01', end_date: '2026-02-02' };
const row = (user_id: string) => userRow({ user_id, user_email: null });

function pagedFetch(pages: Record<string, unknown>) {
  const seen: string[] = [];
  const f = (async (url: string | URL | Request) => {
    const u = new URL(String(url), 'http://x');
    const key = u.searchParams.get('cursor') ?? u.searchParams.get('startAfter') ?? '';
    seen.push(u.search);
    return new Response(JSON.stringify(pages[key]), { status: 200 });
  }) as typeof fetch;
  return { f, seen };
}

describe('walkUsers', () => {
  it('follows next_cursor page by page to the end', async () => {
    const { f, seen } = pagedFetch({
      '': { data: [row('a'), row('b')], meta: { ...meta, has_more: true, next_cursor: 'b' } },
      b: { data: [row('c')], meta: { ...meta, has_more: false } },
    });
    const ids: string[][] = [];
    for await (const p of walkUsers(createClient({ fetch: f }), { startDate: '2026-02-01', endDate: '2026-02-02' })) {
      ids.push(p.data.map((r) => r.user_id));
    }
    expect(ids).toEqual([['a', 'b'], ['c']]);
    expect(seen[0]).toContain('limit=100');
    expect(seen[1]).toContain('cursor=b');
  });

  it('stops at the safety cap', async () => {
    const { f } = pagedFetch({
      '': { data: [row('a')], meta: { ...meta, has_more: true, next_cursor: 'a' } },
      a: { data: [row('b')], meta: { ...meta, has_more: true, next_cursor: 'b' } },
      b: { data: [row('c')], meta: { ...meta, has_more: true, next_cursor: 'c' } },
    });
    const walk = async () => {
      for await (const _ of walkUsers(createClient({ fetch: f }), { startDate: 'x', endDate: 'y' }, { maxPages: 2 }))
        void _;
    };
    await expect(walk()).rejects.toThrow(/Stopped after 2 pages/);
  });

  it('stops when aborted', async () => {
    const ac = new AbortController();
    const { f } = pagedFetch({
      '': { data: [row('a')], meta: { ...meta, has_more: true, next_cursor: 'a' } },
      a: { data: [row('b')], meta: { ...meta, has_more: false } },
    });
    const pages: unknown[] = [];
    const walk = async () => {
      for await (const p of walkUsers(
        createClient({ fetch: f }),
        { startDate: 'x', endDate: 'y' },
        { signal: ac.signal },
      )) {
        pages.push(p);
        ac.abort();
      }
    };
    await expect(walk()).rejects.toMatchObject({ name: 'AbortError' });
    expect(pages).toHaveLength(1);
  });
});

describe('walkReadinessReports', () => {
  const rep = (id: string) => ({ reportId: id, createdAt: 1, repoUrl: 'u', apps: {}, report: {} });
  it('sends the last reportId as startAfter until a short page', async () => {
    const { f, seen } = pagedFetch({
      '': { reports: [rep('r1'), rep('r2')] },
      r2: { reports: [rep('r3')] },
    });
    const ids: string[] = [];
    for await (const p of walkReadinessReports(createClient({ fetch: f }), { limit: 2 }))
      ids.push(...p.map((r) => r.reportId));
    expect(ids).toEqual(['r1', 'r2', 'r3']);
    expect(seen[1]).toContain('startAfter=r2');
  });
});
