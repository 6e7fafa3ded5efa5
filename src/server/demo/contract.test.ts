/**
 * Contract tests of the demo service against service-interface.md: every
 * status and error body, pagination, grouping, and the reconciliation of the
 * numbers across endpoints.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  activityByClientResponseSchema,
  activityResponseSchema,
  productivityResponseSchema,
  readinessResponseSchema,
  tokensByModelResponseSchema,
  tokensResponseSchema,
  toolsByNameResponseSchema,
  toolsResponseSchema,
  usersResponseSchema,
  type UserRow,
} from '../../api/schemas';
import { addDays, eachDay } from '../../lib/dates';
import { DEFAULT_KEYS } from './auth';
import { createDemoService, type DemoService } from './service';

const TODAY = '2026-06-01';
const YESTERDAY = '2026-05-31';
const config = { seed: 'acme', users: 150, repos: 25, reportsPerRepo: 20, today: TODAY, keys: DEFAULT_KEYS };
let demo: DemoService;
beforeAll(() => {
  demo = createDemoService(config);
});

function get(url: string, key: string | null = 'demo-owner', method = 'GET') {
  const r = demo.handle({ method, url, headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { ...r, json: r.body ? JSON.parse(r.body) : undefined };
}
const A = '/api/v1/analytics';
const R = '/api/organization/maturity-level-reports';
const range = (s: string, e: string) => `startDate=${s}&endDate=${e}`;

function expectError(r: ReturnType<typeof get>, status: number, detail?: RegExp) {
  expect(r.status).toBe(status);
  expect(r.json).toEqual({
    title: expect.any(String),
    detail: expect.any(String),
    status,
    requestId: expect.stringMatching(/^req_[0-9A-Z]{26}$/),
  });
  if (detail) expect(r.json.detail).toMatch(detail);
}

async function allUsers(s: string, e: string, limit: number): Promise<{ rows: UserRow[]; pages: string[][] }> {
  const rows: UserRow[] = [];
  const pages: string[][] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 1000; i++) {
    const r = get(`${A}/users?${range(s, e)}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(r.status).toBe(200);
    const page = usersResponseSchema.parse(r.json);
    rows.push(...page.data);
    pages.push([...new Set(page.data.map((x) => x.user_id))]);
    if (!page.meta.has_more) return { rows, pages };
    expect(page.meta.next_cursor).toBe(page.data.at(-1)!.user_id);
    cursor = page.meta.next_cursor!;
  }
  throw new Error('pagination did not end');
}

describe('authentication and roles', () => {
  const url = `${A}/tokens?${range('2026-05-01', '2026-05-02')}`;
  it('401 without a key or with an unknown key', () => {
    expectError(get(url, null), 401);
    expectError(get(url, 'nope'), 401);
    expectError(get(R, null), 401);
  });
  it('403 for members on analytics; readiness for any valid key', () => {
    expectError(get(url, 'demo-member'), 403, /Manager or Owner/);
    expect(get(url, 'demo-manager').status).toBe(200);
    expect(get(url, 'demo-owner').status).toBe(200);
    expect(get(`${R}?limit=1`, 'demo-member').status).toBe(200);
  });
  it('gives every error a fresh request id', () => {
    expect(get(url, null).json.requestId).not.toBe(get(url, null).json.requestId);
  });
  it('is read-only and answers unknown paths with 404', () => {
    expectError(get(url, 'demo-owner', 'POST'), 405);
    expectError(get(`${A}/secrets`), 404);
  });
});

describe('date rules', () => {
  const paths = ['tokens', 'tools', 'activity', 'productivity', 'users'];
  it.each(paths)('%s: 400 for missing, malformed and impossible dates', (p) => {
    expectError(get(`${A}/${p}?endDate=2026-05-01`), 400, /startDate/);
    expectError(get(`${A}/${p}?${range('2026/05/01', '2026-05-02')}`), 400, /YYYY-MM-DD/);
    expectError(get(`${A}/${p}?${range('2026-02-30', '2026-03-02')}`), 400, /YYYY-MM-DD/);
    expectError(get(`${A}/${p}?${range('2026-05-02', '2026-05-01')}`), 400, /before/);
  });
  it.each(paths)("%s: 400 for today's date or later, with the service's detail", (p) => {
    expectError(
      get(`${A}/${p}?${range(YESTERDAY, TODAY)}`),
      400,
      /Cannot query today's date - analytics data has a 24-hour lag/,
    );
    expectError(get(`${A}/${p}?${range('2026-07-01', '2026-07-02')}`), 400, /today/);
    expect(get(`${A}/${p}?${range(YESTERDAY, YESTERDAY)}`).status).toBe(200);
  });
  it('days before history start simply have no data', () => {
    const before = activityResponseSchema.parse(get(`${A}/activity?${range('2025-12-01', '2026-01-13')}`).json);
    expect(before.data).toEqual([]);
    expect(before.meta).toMatchObject({ start_date: '2025-12-01', end_date: '2026-01-13' });
    const across = activityResponseSchema.parse(get(`${A}/activity?${range('2026-01-10', '2026-01-16')}`).json);
    expect(across.data.map((d) => d.date)).toEqual(['2026-01-14', '2026-01-15', '2026-01-16']);
  });
});

describe('group_by', () => {
  it('accepts the one documented value per endpoint', () => {
    const q = range('2026-05-01', '2026-05-03');
    expect(tokensByModelResponseSchema.parse(get(`${A}/tokens?${q}&group_by=model`).json).data.length).toBeGreaterThan(
      0,
    );
    expect(toolsByNameResponseSchema.parse(get(`${A}/tools?${q}&group_by=tool_name`).json).data.length).toBeGreaterThan(
      0,
    );
    expect(
      activityByClientResponseSchema.parse(get(`${A}/activity?${q}&group_by=client`).json).data.length,
    ).toBeGreaterThan(0);
  });
  it.each([
    ['tokens', 'user'],
    ['tools', 'model'],
    ['activity', 'tool_name'],
    ['productivity', 'language'],
    ['users', 'model'],
  ])('%s?group_by=%s → 400', (p, g) => {
    expectError(get(`${A}/${p}?${range('2026-05-01', '2026-05-03')}&group_by=${g}`), 400, /group_by/);
  });
});

describe('/users pagination', () => {
  it.each(['0', '101', 'abc', '1.5', '-3', ''])('limit=%s → 400', (l) => {
    expectError(get(`${A}/users?${range('2026-05-01', '2026-05-03')}&limit=${l}`), 400, /limit/);
  });
  it('an unknown cursor → 400', () => {
    expectError(get(`${A}/users?${range('2026-05-01', '2026-05-03')}&cursor=usr_nobody`), 400, /cursor/);
  });
  it('defaults to 20 users a page, each with one row per active day', () => {
    const page = usersResponseSchema.parse(get(`${A}/users?${range('2026-05-01', '2026-05-14')}`).json);
    expect(new Set(page.data.map((r) => r.user_id)).size).toBe(20);
    expect(page.meta.has_more).toBe(true);
    const keys = page.data.map((r) => `${r.user_id}|${r.date}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
  it('returns every user exactly once and loses no row, for limits 1, 7, 20 and 100', async () => {
    const s = '2026-04-01';
    const e = '2026-05-15';
    const reference = await allUsers(s, e, 100);
    const refKeys = reference.rows.map((r) => `${r.user_id}|${r.date}`).sort();
    for (const limit of [1, 7, 20, 100]) {
      const { rows, pages } = await allUsers(s, e, limit);
      const users = pages.flat();
      expect(new Set(users).size).toBe(users.length); // no user on two pages
      expect(pages.every((p) => p.length <= limit)).toBe(true);
      expect(rows.map((r) => `${r.user_id}|${r.date}`).sort()).toEqual(refKeys);
    }
  });
});

describe('readiness', () => {
  it.each(['0', '-1', 'abc', '2.5'])('limit=%s → 400', (l) => expectError(get(`${R}?limit=${l}`), 400, /limit/));
  it('an unknown startAfter → 400', () => expectError(get(`${R}?startAfter=nope`), 400, /startAfter/));
  it('pages through every report exactly once, newest first, for several limits', () => {
    const all = readinessResponseSchema.parse(get(`${R}?limit=100000`).json).reports;
    expect(all.length).toBeGreaterThan(100);
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.createdAt).toBeGreaterThanOrEqual(all[i]!.createdAt);
    for (const limit of [1, 7, 50]) {
      const ids: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = readinessResponseSchema.parse(
          get(`${R}?limit=${limit}${after ? `&startAfter=${after}` : ''}`).json,
        ).reports;
        ids.push(...page.map((r) => r.reportId));
        if (page.length < limit) break;
        after = page.at(-1)!.reportId;
      }
      expect(ids).toEqual(all.map((r) => r.reportId));
    }
  });
  it('filters by repoId and has realistic variety', () => {
    const all = readinessResponseSchema.parse(get(`${R}?limit=100000`).json).reports;
    const one = readinessResponseSchema.parse(
      get(
        `${R}?limit=1000&repoId=${encodeURIComponent(
          'acme/' +
            all[0]!.repoUrl
              .split('/')
              .at(-1)!
              .replace(/\.git$/, '')
              .toLowerCase(),
        )}`,
      ).json,
    ).reports;
    expect(one.length).toBeGreaterThan(0);
    expect(readinessResponseSchema.parse(get(`${R}?repoId=unknown/repo`).json).reports).toEqual([]);
    const values = all.flatMap((r) => Object.values(r.report));
    expect(values.some((c) => c.numerator === null)).toBe(true);
    expect(values.some((c) => c.denominator > 1)).toBe(true);
    expect(all.some((r) => 'agents_md_freshness' in r.report || 'ai_review_bot' in r.report)).toBe(true);
    expect(all.some((r) => r.commitHash === undefined)).toBe(true);
    expect(all.some((r) => r.repoUrl.startsWith('git@'))).toBe(true);
  });
});

describe('reconciliation over a long range', () => {
  const s = '2026-02-01';
  const e = YESTERDAY;
  const q = range(s, e);
  let tokens: ReturnType<typeof tokensResponseSchema.parse>;
  let tools: ReturnType<typeof toolsResponseSchema.parse>;
  let activity: ReturnType<typeof activityResponseSchema.parse>;
  let productivity: ReturnType<typeof productivityResponseSchema.parse>;
  let rows: UserRow[];
  const byDay = <T extends { date: string }>(xs: T[]) => new Map(xs.map((x) => [x.date, x]));
  const sum = <T>(xs: readonly T[], f: (x: T) => number) => xs.reduce((a, x) => a + f(x), 0);
  beforeAll(async () => {
    tokens = tokensResponseSchema.parse(get(`${A}/tokens?${q}`).json);
    tools = toolsResponseSchema.parse(get(`${A}/tools?${q}`).json);
    activity = activityResponseSchema.parse(get(`${A}/activity?${q}`).json);
    productivity = productivityResponseSchema.parse(get(`${A}/productivity?${q}`).json);
    rows = (await allUsers(addDays(s, -29), e, 100)).rows;
  });

  it('has one row per day of the range', () => {
    const days = eachDay(s, e);
    for (const r of [tokens, tools, activity, productivity]) expect(r.data.map((d) => d.date)).toEqual(days);
  });

  it('credits: by_user and by_model sum to the day; grouped rows too; /users agrees', () => {
    const grouped = tokensByModelResponseSchema.parse(get(`${A}/tokens?${q}&group_by=model`).json).data;
    for (const d of tokens.data) {
      expect(sum(d.by_user, (u) => u.billable_tokens)).toBe(d.billable_tokens);
      expect(sum(d.by_model, (m) => m.billable_tokens)).toBe(d.billable_tokens);
      expect(sum(d.by_model, (m) => m.input_tokens)).toBe(d.input_tokens);
      expect(sum(d.by_model, (m) => m.output_tokens)).toBe(d.output_tokens);
      for (const u of d.by_user) expect(sum(u.by_model, (m) => m.billable_tokens)).toBe(u.billable_tokens);
      const g = grouped.filter((x) => x.date === d.date);
      expect(sum(g, (x) => x.billable_tokens)).toBe(d.billable_tokens);
      expect(sum(g, (x) => x.input_tokens)).toBe(d.input_tokens);
      const ur = rows.filter((r) => r.date === d.date);
      expect(sum(ur, (r) => r.billable_tokens)).toBe(d.billable_tokens);
      expect(new Set(d.by_user.map((u) => u.user_id))).toEqual(new Set(ur.map((r) => r.user_id)));
    }
  });

  it('tools: breakdowns and grouped rows sum to the day; /users agrees', () => {
    const grouped = toolsByNameResponseSchema.parse(get(`${A}/tools?${q}&group_by=tool_name`).json).data;
    const act = byDay(activity.data);
    for (const d of tools.data) {
      expect(sum(d.by_tool, (t) => t.invocations)).toBe(d.tool_calls);
      expect(
        sum(
          grouped.filter((g) => g.date === d.date),
          (g) => g.tool_calls,
        ),
      ).toBe(d.tool_calls);
      expect(sum(d.skills_by_name, (x) => x.count)).toBe(d.skills_invocations);
      expect(sum(d.slash_commands_by_name, (x) => x.count)).toBe(d.slash_commands_invocations);
      expect(sum(d.hooks_by_event, (x) => x.count)).toBe(d.hooks_invocations);
      const ur = rows.filter((r) => r.date === d.date);
      expect(sum(ur, (r) => r.tool_calls)).toBe(d.tool_calls);
      expect(sum(ur, (r) => r.mcp_calls)).toBe(sum(d.mcp_by_server, (m) => m.invocations));
      expect(ur.filter((r) => r.mcp_calls > 0).length).toBe(d.mcp_users_with_mcp);
      expect(sum(ur, (r) => r.skill_calls)).toBe(d.skills_invocations);
      expect(sum(ur, (r) => r.slash_commands)).toBe(d.slash_commands_invocations);
      expect(sum(ur, (r) => r.hooks)).toBe(d.hooks_invocations);
      expect(d.web_users).toBe(act.get(d.date)!.daily_active_users_by_client.web);
      const lv = d.tool_autonomy_level_ratio;
      if (d.tool_calls > 0) expect(lv.auto_high + lv.auto_medium + lv.auto_low + lv.manual).toBeCloseTo(1, 3);
      expect(d.autonomy_ratio_p50).toBeLessThanOrEqual(d.autonomy_ratio_p90);
    }
  });

  it('activity: DAU is distinct users of the day; WAU/MAU over trailing 7/30 days; clients count once each', () => {
    const grouped = activityByClientResponseSchema.parse(get(`${A}/activity?${q}&group_by=client`).json).data;
    const usersOn = new Map<string, Set<string>>();
    for (const r of rows) {
      if (!usersOn.has(r.date)) usersOn.set(r.date, new Set());
      usersOn.get(r.date)!.add(r.user_id);
    }
    const distinct = (from: string, to: string) => {
      const set = new Set<string>();
      for (const day of eachDay(from, to)) for (const u of usersOn.get(day) ?? []) set.add(u);
      return set.size;
    };
    for (const d of activity.data) {
      const ur = rows.filter((r) => r.date === d.date);
      expect(d.daily_active_users).toBe(new Set(ur.map((r) => r.user_id)).size);
      expect(d.weekly_active_users).toBe(distinct(addDays(d.date, -6), d.date));
      expect(d.monthly_active_users).toBe(distinct(addDays(d.date, -29), d.date));
      expect(d.sessions).toBe(sum(ur, (r) => r.sessions));
      expect(d.messages).toBe(sum(ur, (r) => r.messages));
      expect(d.user_messages).toBe(sum(ur, (r) => r.user_messages));
      const clients = Object.values(d.daily_active_users_by_client);
      expect(sum(clients, (x) => x)).toBeGreaterThanOrEqual(d.daily_active_users);
      for (const c of clients) expect(c).toBeLessThanOrEqual(d.daily_active_users);
      const g = grouped.filter((x) => x.date === d.date);
      expect(Object.fromEntries(g.map((x) => [x.group_key, x.daily_active_users]))).toEqual(
        Object.fromEntries(Object.entries(d.daily_active_users_by_client).filter(([, v]) => v > 0)),
      );
    }
    for (const r of rows) expect(r.messages).toBe(r.user_messages + r.assistant_messages);
  });

  it('productivity: languages and extensions both sum to files touched; /users agrees', () => {
    for (const d of productivity.data) {
      const touched = d.files_created + d.files_edited;
      expect(sum(d.by_language, (x) => x.count)).toBe(touched);
      expect(sum(d.by_extension, (x) => x.count)).toBe(touched);
      const ur = rows.filter((r) => r.date === d.date);
      expect(sum(ur, (r) => r.files_created)).toBe(d.files_created);
      expect(sum(ur, (r) => r.files_edited)).toBe(d.files_edited);
      expect(sum(ur, (r) => r.git_commits)).toBe(d.git_commits);
      expect(sum(ur, (r) => r.git_prs_created)).toBe(d.git_prs_created);
    }
  });

  it('shows the documented quirks: case-duplicate servers and a rare tool-name artifact', () => {
    const servers = new Set(tools.data.flatMap((d) => d.mcp_by_server.map((m) => m.server)));
    expect(servers.has('axiom') && servers.has('Axiom')).toBe(true);
    const names = tools.data.flatMap((d) => d.by_tool.map((t) => t.tool));
    const artifacts = names.filter((n) => !/^[A-Za-z]+$/.test(n));
    expect(artifacts.length).toBeGreaterThan(0);
    expect(artifacts.length / names.length).toBeLessThan(0.01);
  });

  it('has some users without an email', () => {
    expect(rows.some((r) => r.user_email === null)).toBe(true);
  });
});

describe('determinism', () => {
  it('the same seed gives the same bytes; another seed other data', () => {
    const url = `${A}/tokens?${range('2026-03-01', '2026-03-10')}`;
    const again = createDemoService(config).handle({
      method: 'GET',
      url,
      headers: { authorization: 'Bearer demo-owner' },
    });
    expect(again.body).toBe(get(url).body);
    const other = createDemoService({ ...config, seed: 'globex' }).handle({
      method: 'GET',
      url,
      headers: { authorization: 'Bearer demo-owner' },
    });
    expect(other.body).not.toBe(get(url).body);
  });
});
