import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubDashboard, tokenDay, toolDay } from '../test/analytics-fixtures';
import { analyticsQuery } from './analytics';

const RANGE = { start: '2026-05-01', end: '2026-05-31' } as const;
const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('analyticsQuery', () => {
  it("without teams, asks the service's endpoint for the organization", async () => {
    const stub = stubDashboard({ tools: [toolDay()] });
    const r = await client().fetchQuery(analyticsQuery('tools', RANGE));
    expect(stub.urls).toEqual(['/api/v1/analytics/tools?startDate=2026-05-01&endDate=2026-05-31']);
    expect(r.data[0]?.by_tool).toEqual([{ tool: 'Read', invocations: 120 }]);
  });

  it("with teams, asks the server's team endpoint with one team= per team, in one spelling", async () => {
    const stub = stubDashboard({ tools: [toolDay({ tool_calls: 999 })] }, { tools: [toolDay({ tool_calls: 42 })] });
    const q = analyticsQuery('tools', RANGE, '', ['Sales/EMEA', 'Engineering', 'Sales/EMEA']);
    expect(q.queryKey[1].teams).toEqual(['Engineering', 'Sales/EMEA']);
    const r = await client().fetchQuery(q);
    const [url] = stub.asked('/api/teams/analytics/tools');
    expect(stub.urls).toHaveLength(1);
    expect(url?.searchParams.get('startDate')).toBe('2026-05-01');
    expect(url?.searchParams.get('endDate')).toBe('2026-05-31');
    expect(url?.searchParams.getAll('team')).toEqual(['Engineering', 'Sales/EMEA']);
    expect(url?.searchParams.has('group_by')).toBe(false);
    // The team's figures; the organization-only fields it lacks are empty, never the organization's.
    expect(r.data[0]?.tool_calls).toBe(42);
    expect(r.data[0]?.by_tool).toEqual([]);
    expect(r.data[0]?.web_users).toBe(0);
  });

  it('keeps the organization and each selection of teams apart in the cache', () => {
    const org = analyticsQuery('tokens', RANGE).queryKey;
    const team = analyticsQuery('tokens', RANGE, '', ['Sales']).queryKey;
    expect(JSON.stringify(org)).not.toBe(JSON.stringify(team));
    expect(analyticsQuery('tokens', RANGE, '', ['B', 'A']).queryKey).toEqual(
      analyticsQuery('tokens', RANGE, '', ['A', 'B']).queryKey,
    );
  });

  it("asks a team's tokens per model with group_by=model", async () => {
    const stub = stubDashboard({ tokens: [tokenDay()] });
    await client().fetchQuery(analyticsQuery('tokens', RANGE, 'model', ['Sales']));
    const [url] = stub.asked('/api/teams/analytics/tokens');
    expect(url?.searchParams.get('group_by')).toBe('model');
    expect(url?.searchParams.getAll('team')).toEqual(['Sales']);
  });

  it('never asks for a grouping given for the whole organization only on behalf of a team', async () => {
    const stub = stubDashboard({});
    await expect(client().fetchQuery(analyticsQuery('tools', RANGE, 'tool_name', ['Sales']))).rejects.toThrow(
      /whole organization only/,
    );
    expect(stub.urls).toEqual([]);
  });
});
