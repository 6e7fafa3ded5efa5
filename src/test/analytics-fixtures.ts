/**
 * Day rows of the four analytics endpoints for page tests, as the service answers them for the
 * organization and as the dashboard server answers them for teams (the organization-only fields left
 * out, `meta.org_only` naming them), and a fetch stub that answers both and records what was asked.
 */
import { vi } from 'vitest';
import type { ActivityDay, ProductivityDay, TokenDay, ToolDay } from '../api/schemas';
import { ORG_ONLY_FIELDS, type TeamEndpoint, type TeamFigures, type TeamsAnswer } from '../api/teams';

export const tokenDay = (over: Partial<TokenDay> = {}): TokenDay => ({
  date: '2026-05-10',
  billable_tokens: 1_000,
  input_tokens: 600,
  output_tokens: 400,
  cache_read_tokens: 9_000,
  cache_write_tokens: 800,
  by_model: [
    { model_id: 'sonnet', model_tier: 'standard', billable_tokens: 1_000, input_tokens: 600, output_tokens: 400 },
  ],
  by_user: [{ user_id: 'u-ann', user_email: 'ann@acme.com', billable_tokens: 1_000, by_model: [] }],
  ...over,
});

export const toolDay = (over: Partial<ToolDay> = {}): ToolDay => ({
  date: '2026-05-10',
  tool_calls: 120,
  by_tool: [{ tool: 'Read', invocations: 120 }],
  mcp_users_with_mcp: 3,
  mcp_by_server: [{ server: 'github', invocations: 40 }],
  skills_invocations: 5,
  skills_by_name: [{ name: 'pdf', count: 5 }],
  slash_commands_invocations: 7,
  slash_commands_by_name: [{ name: '/review', count: 7 }],
  hooks_invocations: 2,
  hooks_by_event: [{ event: 'PreToolUse', matcher: 'Bash', command: 'lint.sh', count: 2 }],
  web_users: 4,
  autonomy_ratio_avg: 3,
  autonomy_ratio_p50: 2,
  autonomy_ratio_p90: 6,
  tool_calls_per_session_avg: 12,
  user_turns_per_session_avg: 4,
  tool_autonomy_level_ratio: { auto_high: 0.5, auto_medium: 0.2, auto_low: 0.2, manual: 0.1 },
  ...over,
});

export const activityDay = (over: Partial<ActivityDay> = {}): ActivityDay => ({
  date: '2026-05-10',
  daily_active_users: 8,
  weekly_active_users: 12,
  monthly_active_users: 20,
  daily_active_users_by_client: { 'terminal-ui': 6, web: 3 },
  sessions: 30,
  messages: 200,
  user_messages: 70,
  ...over,
});

export const productivityDay = (over: Partial<ProductivityDay> = {}): ProductivityDay => ({
  date: '2026-05-10',
  files_created: 4,
  files_edited: 11,
  by_extension: [{ extension: '.ts', count: 15 }],
  by_language: [{ language: 'TypeScript', count: 15 }],
  git_commits: 6,
  git_prs_created: 2,
  ...over,
});

type Row = Record<string, unknown> & { date: string };

/** The rows a team's answer carries: the organization-only fields left out, as the server sends them. */
export function teamRows(endpoint: TeamEndpoint, rows: readonly Row[]): Row[] {
  // A team's days also leave out the per-user split (its top users have an endpoint of their own).
  const drop: readonly string[] = [...ORG_ONLY_FIELDS[endpoint], ...(endpoint === 'tokens' ? ['by_user'] : [])];
  return rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !drop.includes(k))) as Row);
}

/** `GET /api/teams`: Engineering (Platform (Infra), Apps), Sales, and 2 people no team names. */
export const TEAMS_ANSWER: TeamsAnswer = {
  source: 'demo',
  name: null,
  loadedAt: null,
  editable: true,
  refused: null,
  teams: [
    {
      path: 'Engineering',
      name: 'Engineering',
      members: 12,
      managers: [],
      children: [
        {
          path: 'Engineering/Platform',
          name: 'Platform',
          members: 7,
          managers: [],
          children: [{ path: 'Engineering/Platform/Infra', name: 'Infra', members: 3, managers: [], children: [] }],
        },
        { path: 'Engineering/Apps', name: 'Apps', members: 5, managers: [], children: [] },
      ],
    },
    { path: 'Sales', name: 'Sales', members: 6, managers: [], children: [] },
  ],
  unassigned: 2,
  users: 20,
  repos: 0,
};

/** A team's (or the organization's) figures as the teams summary and `/api/figures` give them. */
export const teamFigures = (over: Partial<TeamFigures> = {}): TeamFigures => ({
  members: 20,
  active: 15,
  adoption: 0.75,
  credits: 70_000,
  creditsPerActive: 70_000 / 15,
  toolCalls: 900,
  userMessages: 300,
  toolCallsPerTurn: 3,
  sessions: 120,
  commits: 40,
  prs: 10,
  creditsPerCommit: 1_750,
  creditsPerPr: 7_000,
  spend: null,
  spendPerActive: null,
  spendPerCommit: null,
  spendPerPr: null,
  ...over,
});

/** The figures `/api/figures` gives the usage page: this period's and the one before (each measure asked, by id). */
export interface HeadlineFigures {
  current: TeamFigures;
  before: TeamFigures | null;
}

export const HEADLINE: HeadlineFigures = {
  current: teamFigures(),
  before: teamFigures({ active: 12, adoption: 0.6, credits: 56_000, prs: 8, creditsPerPr: 7_000 }),
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export interface DashboardStub {
  /** Every URL asked for, in order (path and query). */
  urls: string[];
  /** The URLs asked for whose path is `path`. */
  asked: (path: string) => URL[];
}

/**
 * Stubs `fetch` as the dashboard server: the service's analytics for the organization (`org`), the
 * team endpoint for teams (`team`: the same kind of rows, the organization-only fields left out), and
 * `/api/teams`. A grouping the team endpoint lacks is answered 400, as the server does.
 */
export function stubDashboard(
  org: Partial<Record<TeamEndpoint, Row[]>>,
  team: Partial<Record<TeamEndpoint, Row[]>> = org,
  teams: TeamsAnswer = TEAMS_ANSWER,
  headline: HeadlineFigures = HEADLINE,
): DashboardStub {
  const urls: string[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://dashboard.test');
    urls.push(`${url.pathname}${url.search}`);
    const p = url.searchParams;
    const service = /^\/api\/v1\/analytics\/(tokens|tools|activity|productivity)$/.exec(url.pathname);
    if (service) {
      const endpoint = service[1] as TeamEndpoint;
      const meta = { org_id: 'org-1', start_date: p.get('startDate'), end_date: p.get('endDate') };
      return json({ data: p.get('group_by') ? [] : (org[endpoint] ?? []), meta });
    }
    const teamed = /^\/api\/teams\/analytics\/(tokens|tools|activity|productivity)$/.exec(url.pathname);
    if (teamed) {
      const endpoint = teamed[1] as TeamEndpoint;
      const group = p.get('group_by') ?? '';
      if (group && !(endpoint === 'tokens' && group === 'model')) {
        return json({ title: 'Bad Request', detail: `group_by=${group} is not split by team`, status: 400 }, 400);
      }
      const meta = {
        org_id: 'org-1',
        start_date: p.get('startDate'),
        end_date: p.get('endDate'),
        teams: p.getAll('team'),
        members: 4,
        org_only: ORG_ONLY_FIELDS[endpoint],
      };
      // No team: the organization's days, without the per-user split (the usage page with a store).
      const everyone = p.getAll('team').length === 0;
      const rows = everyone
        ? (org[endpoint] ?? []).map(({ by_user: _, ...r }) => r as Row)
        : teamRows(endpoint, team[endpoint] ?? []);
      return json({ data: group ? [] : rows, meta: everyone ? { ...meta, org_only: [] } : meta });
    }
    if (url.pathname === '/api/teams') return json(teams);
    if (url.pathname === '/api/figures') {
      // The measures asked, by total, as the figures runner answers them.
      const measures = p.getAll('measure');
      const pick = (f: TeamFigures | null) =>
        f && Object.fromEntries(measures.map((m) => [m, (f as Record<string, number | null>)[m] ?? null]));
      return json({
        measures,
        by: p.get('by') ?? 'total',
        range: { start: p.get('start'), end: p.get('end') },
        previous: headline.before && { start: '2026-04-01', end: '2026-04-30' },
        teams: p.getAll('team'),
        user: null,
        rows: [{ key: '', current: pick(headline.current), previous: pick(headline.before), change: null }],
      });
    }
    if (url.pathname === '/api/teams/top-users') {
      // The team's users by credits, from the team rows' per-user split, as the server sums them.
      const credits = new Map<string, { email: string | null; credits: number }>();
      const source = p.getAll('team').length ? team : org;
      for (const d of (source.tokens ?? []) as {
        by_user?: { user_id: string; user_email: string | null; billable_tokens: number }[];
      }[])
        for (const u of d.by_user ?? []) {
          const c = credits.get(u.user_id) ?? { email: u.user_email, credits: 0 };
          c.credits += u.billable_tokens;
          credits.set(u.user_id, c);
        }
      const total = [...credits.values()].reduce((a, c) => a + c.credits, 0);
      const users = [...credits.entries()]
        .sort((a, b) => b[1].credits - a[1].credits)
        .map(([userId, c]) => ({
          userId,
          email: c.email,
          credits: c.credits,
          share: total ? c.credits / total : 0,
          models: [],
        }));
      return json({
        range: { start: p.get('start'), end: p.get('end') },
        teams: p.getAll('team'),
        limit: 25,
        total,
        users,
      });
    }
    if (url.pathname === '/api/sync') return json({ title: 'Not Found' }, 404);
    return json({ title: 'Not Found', detail: `${url.pathname} is not stubbed` }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    urls,
    asked: (path) => urls.map((u) => new URL(u, 'http://dashboard.test')).filter((u) => u.pathname === path),
  };
}
