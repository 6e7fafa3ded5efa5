/**
 * The MCP server's tools. Each answers through one of the dashboard's own routes, asked in-process as the caller
 * (endpoint.ts): the gate, the access rules, privacy mode, RESTRICT_ORG_VIEW, PSEUDONYMIZE, the routes' query
 * parsers and their kept answers are the pages' own, so a tool's answer is the same numbers a page shows for the
 * same question, and a question a page would refuse is refused with the route's status and `detail` (a tool error).
 * The input schemas here describe the parameters to an assistant; the routes' parsers judge them.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/mini';
import { CRITERIA_BY_ID } from '../../api/criteria';
import { FIGURE_GROUPINGS, FIGURES_PATH, MEASURE_IDS } from '../../api/figures';
import { GOALS_PATH } from '../../api/goals';
import { READINESS_PATH, READINESS_STALE_DAYS } from '../../api/readiness';
import { RECONCILIATION_PATH } from '../../api/reconciliation';
import { readinessReportSchema, type ClientConfig } from '../../api/schemas';
import { AGENT_ONLY_CAVEAT } from '../../lib/definitions';
import { MEASURES, type Measure } from '../../lib/measures';
import {
  fixesForSet,
  isStale,
  levelSpread,
  nextLevelPlan,
  reportAgeDays,
  scoreReport,
  TARGET_LEVEL,
} from '../../lib/readiness';
import { repoKey } from '../../lib/repos';
import { USER_COLUMN_IDS, WHO } from '../../lib/user-merge';

/** A route's answer, as an in-process request got it. */
export interface Asked {
  status: number;
  body: string;
  /** Seconds to wait before asking again (a 202 of a range still being filled). */
  retryAfter?: number;
}

export type Ask = (path: string) => Promise<Asked>;

/** How long a tool waits, at most, for a range the store is still filling (the route's 202s). */
const FILL_WAIT_MS = 60_000;

/** A parameter's schema with what it means to an assistant (its JSON Schema's description). */
const described = <T extends z.ZodMiniType>(schema: T, description: string): T => schema.check(z.describe(description));

const day = (what: string) =>
  described(
    z.optional(z.string()),
    `${what} (YYYY-MM-DD, a UTC day). Give both start and end, or neither for the last 30 days to the latest day with data.`,
  );
const teams = described(
  z.optional(z.array(z.string())),
  'Teams by full path (Engineering/Platform), each with its sub-teams; several: their union. "Unassigned" is the people no team names. Call the teams tool for the paths.',
);

/** The query string of a tool's parameters: each given one under the route's name, lists repeated. */
function queryOf(params: Record<string, string | number | readonly string[] | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v as readonly string[]) q.append(k, x);
    else q.append(k, String(v));
  }
  const s = q.toString();
  return s === '' ? '' : `?${s}`;
}

const text = (data: unknown): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(data) }] });

/** A refusal or a failure of the route, as it said it (its status and `detail`). */
const refused = (a: Asked): CallToolResult => ({ isError: true, content: [{ type: 'text', text: a.body }] });

/**
 * A route's JSON answer; a range the store is still filling (202) asked again as the route says, for a while; an
 * error answer as it is.
 */
async function read(ask: Ask, path: string): Promise<{ ok: true; data: unknown } | { ok: false; answer: Asked }> {
  const until = Date.now() + FILL_WAIT_MS;
  let a = await ask(path);
  while (a.status === 202 && Date.now() < until) {
    await new Promise((ok) => setTimeout(ok, Math.min(5, a.retryAfter ?? 1) * 1000));
    a = await ask(path);
  }
  if (a.status >= 400) return { ok: false, answer: a };
  return { ok: true, data: JSON.parse(a.body) as unknown };
}

/** A tool that passes a route's answer on as it is. */
const relay = async (ask: Ask, path: string): Promise<CallToolResult> => {
  const r = await read(ask, path);
  return r.ok ? text(r.data) : refused(r.answer);
};

const UNITS: Record<Measure['unit'], string> = {
  people: 'people (a count of distinct people)',
  credits: 'standard credits',
  count: 'a count',
  money: 'money, in the price list’s currency',
  share: 'a share from 0 to 1',
  ratio: 'a ratio',
  days: 'days (a median)',
};
const SOURCES = {
  users: 'the service’s per-person daily rows (/users)',
  tokens: 'the service’s daily credits split per person (/tokens)',
  spend: 'credits priced by the price list for each day, model and tier',
} as const;

/** How a measure is computed, in a sentence (lib/measures.ts's declaration). */
function formulaOf(m: Measure): string {
  const c = m.combine;
  if ('sum' in c) return `Sum of ${c.sum} over the people and days of the range, from ${SOURCES[c.source]}.`;
  if ('people' in c)
    return c.people === 'active'
      ? 'Distinct people with at least one day of activity in the range.'
      : 'People the team mapping puts in the scope (teams with their sub-teams), whether active or not.';
  if ('intensity' in c)
    return c.intensity === 'active' || c.intensity === 'credits'
      ? `The ${c.intensity === 'active' ? 'people active' : 'credits'} in the four whole ISO weeks to the range’s end.`
      : `People whose credits over the four whole ISO weeks to the range’s end put them in the ${c.intensity} band by the quarter’s frozen thresholds; none for a group of fewer than 8 active people. Use, not merit.`;
  if ('funnel' in c || 'funnelDays' in c)
    return `From access to a first pull request (lib/funnel.ts): ${m.definition.meaning}`;
  const [a, b] = c.ratio;
  return `${a} ÷ ${b}: a ratio of the sums over the whole range and group (not an average of days or people); none when ${b} is 0.`;
}

export function registerTools(server: McpServer, ask: Ask) {
  server.registerTool(
    'list_figures',
    {
      title: 'The figures and their definitions',
      description:
        'Lists every measure the figures tool takes: its id, label, what it counts, how it is computed, its unit, which way a change is good news (better: up or down; none when more use is neither), and whether this server can give it (spend needs a price list). Call it before figures.',
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () => {
      const r = await read(ask, '/api/config');
      if (!r.ok) return refused(r.answer);
      const config = r.data as ClientConfig;
      const measures = (Object.entries(MEASURES) as [string, Measure][]).map(([id, m]) => {
        const spend = 'sum' in m.combine ? m.combine.source === 'spend' : m.unit === 'money';
        return {
          id,
          label: m.definition.label,
          meaning: m.definition.meaning,
          formula: formulaOf(m),
          unit: m.unit === 'money' && config.currency ? `${UNITS.money} (${config.currency})` : UNITS[m.unit],
          better: m.definition.better ?? null,
          available: config.teams && (!spend || config.currency !== null),
        };
      });
      return text({
        measures,
        currency: config.currency,
        notes: [
          AGENT_ONLY_CAVEAT,
          'The previous period is as long as the range and just before it (the calendar month or quarter before, for a whole month or quarter); change is (now − before) ÷ before.',
          'Teams are the team mapping’s; a team’s figures include its sub-teams’.',
          ...(config.privacyMinGroup
            ? [
                `Privacy mode (PRIVACY_MIN_GROUP=${config.privacyMinGroup}): people are named by pseudonym, and no figure is given about fewer than ${config.privacyMinGroup} people.`,
              ]
            : []),
        ],
      });
    },
  );

  server.registerTool(
    'figures',
    {
      title: 'Figures for a scope, a range and a grouping',
      description:
        'Gives measures (see list_figures) for everyone, some teams (teams) or one person (user), over a range, as one total or grouped by day, ISO week (key: its Monday), team or person, with the previous period and each relative change (0.25: up a quarter). Rows: key ("" for the total, the team path, the day, or the person’s id or pseudonym), current, previous, change. The same numbers as the dashboard’s pages.',
      inputSchema: {
        measures: described(z.array(z.enum(MEASURE_IDS)), 'The measures, by id (list_figures); at least one.'),
        by: described(
          z.optional(z.enum(FIGURE_GROUPINGS)),
          'total (one row, the default), day, week, team (each team of the scope, with its sub-teams) or person (each person with a day in the range, the first measure’s largest first).',
        ),
        start: day('The range’s first day'),
        end: day('The range’s last day'),
        teams,
        user: described(
          z.optional(z.string()),
          'One person’s id (as the users tool gives it): their figures, by total, day or week.',
        ),
        compare: described(
          z.optional(z.enum(['previous', 'none'])),
          'previous (the default): the previous period and each change beside; none: the range alone.',
        ),
        top: described(z.optional(z.number()), 'With by=person: only the first N people (1 to 1000).'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (a) =>
      relay(
        ask,
        FIGURES_PATH +
          queryOf({
            measure: a.measures,
            by: a.by,
            start: a.start,
            end: a.end,
            team: a.teams,
            user: a.user,
            compare: a.compare,
            top: a.top,
          }),
      ),
  );

  server.registerTool(
    'teams',
    {
      title: 'The teams',
      description:
        'The team tree the reader may see: each team’s path, name, members (people the mapping puts in it and its sub-teams, seen or not) and sub-teams; the people in no team (unassigned), everyone known (users), and the repositories the mapping names. A manager sees their teams; in privacy mode a team of too few people is folded into its parent.',
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () => relay(ask, '/api/teams'),
  );

  server.registerTool(
    'users',
    {
      title: 'The users table',
      description:
        'A page of the users table: one row per person with their figures over the range (credits, tool calls, sessions, messages, commits, pull requests, active days, model, delegation level, languages, spend with a price list, team), sorted, filtered and paged; with the total of rows, active and inactive people, and with a team mapping the seats’ counts. Managers see their people (by pseudonym in privacy mode); other viewers are refused.',
      inputSchema: {
        start: day('The range’s first day'),
        end: day('The range’s last day'),
        teams,
        sort: described(
          z.optional(z.enum(USER_COLUMN_IDS as [string, ...string[]])),
          'The column to sort by (credits by default).',
        ),
        dir: described(z.optional(z.enum(['asc', 'desc'])), 'The order (desc by default).'),
        q: described(z.optional(z.string()), 'A search of the email or id.'),
        who: described(
          z.optional(z.enum(WHO as unknown as [string, ...string[]])),
          'active (people with a day in the range, the default), inactive (known people without one) or all; with a team mapping, a seats list: named (the people it names), named-active, idle-7 and idle-30 (named, used the agent before, no day in the 7 or 30 days to the range’s end) or never (named, never used it by then).',
        ),
        delegation: described(z.optional(z.string()), 'Only this delegation level.'),
        tier: described(z.optional(z.string()), 'Only this model tier.'),
        lang: described(z.optional(z.string()), 'Only people who used this language.'),
        offset: described(z.optional(z.number()), 'The first row (0 by default).'),
        limit: described(z.optional(z.number()), 'Rows at most (100 by default, 1000 at most).'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (a) =>
      relay(
        ask,
        '/api/users' +
          queryOf({
            start: a.start,
            end: a.end,
            team: a.teams,
            sort: a.sort,
            dir: a.dir,
            q: a.q,
            who: a.who,
            delegation: a.delegation,
            tier: a.tier,
            lang: a.lang,
            offset: a.offset,
            limit: a.limit,
          }),
      ),
  );

  server.registerTool(
    'readiness',
    {
      title: 'Repositories’ readiness',
      description: `The readiness of the organization’s repositories (or of some teams’, or of one repository): each repository’s latest level from 1 to 5 (by its criteria’s pass rate: 20, 40, 60, 80 %), how they spread over the levels against the target level ${TARGET_LEVEL}, and what to fix next: for a set, the criteria whose fix brings the most repositories below level ${TARGET_LEVEL} up to it (as many: the lowest level first); for one repository, the fewest criteria that take it to its next level, the lowest levels first. Each repository says how old its latest report is (ageDays, in UTC days to the day after the latest day with data) and whether it is stale: older than staleAfter days (${READINESS_STALE_DAYS}, or fewer where a stale-report alert rule covering it says so), as the pages mark it; a stale report's level may no longer hold.`,
      inputSchema: {
        teams,
        repo: described(
          z.optional(z.string()),
          'One repository: its URL or key (github.com/owner/name), or owner/name.',
        ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (a) => {
      const r = await read(ask, READINESS_PATH + queryOf({ team: a.teams }));
      if (!r.ok) return refused(r.answer);
      // A report's age is counted to the latest day with data, as the pages and the alerts count it.
      const c = await read(ask, '/api/config');
      if (!c.ok) return refused(c.answer);
      const { latestDay } = c.data as ClientConfig;
      const answer = r.data as {
        repos: { key: string; team: string | null; staleAfter?: number }[];
        reports: unknown[];
      };
      const latest = new Map<string, z.infer<typeof readinessReportSchema>>();
      for (const body of answer.reports) {
        const report = readinessReportSchema.safeParse(body);
        if (report.success) latest.set(repoKey(report.data.repoUrl), report.data);
      }
      const teamOf = new Map(answer.repos.map((x) => [x.key, x.team]));
      const staleAfterOf = new Map(answer.repos.map((x) => [x.key, x.staleAfter ?? READINESS_STALE_DAYS]));
      const levelOf = (id: string) => CRITERIA_BY_ID.get(id)?.level;
      const criterion = (id: string) => {
        const c = CRITERIA_BY_ID.get(id);
        return { id, name: c?.name ?? id, level: c?.level ?? null, pillar: c?.pillar ?? 'Other' };
      };
      const view = (key: string) => {
        const report = latest.get(key)!;
        const s = scoreReport(report, levelOf);
        const ageDays = reportAgeDays(report.createdAt, latestDay);
        const staleAfter = staleAfterOf.get(key) ?? READINESS_STALE_DAYS;
        return {
          key,
          team: teamOf.get(key) ?? null,
          level: s.level,
          passRate: s.passRate,
          reportedAt: new Date(report.createdAt).toISOString(),
          ageDays,
          staleAfter,
          stale: isStale(ageDays, staleAfter),
        };
      };
      if (a.repo !== undefined) {
        const asked = a.repo.trim();
        // A URL or a key names its host; owner/name is matched at the end of a key.
        const wanted = /^https?:\/\//.test(asked) || asked.split('/')[0]!.includes('.') ? repoKey(asked) : asked;
        const key = [...latest.keys()].find(
          (k) => k.toLowerCase() === wanted.toLowerCase() || k.toLowerCase().endsWith(`/${wanted.toLowerCase()}`),
        );
        if (key === undefined)
          return {
            isError: true,
            content: [
              {
                type: 'text',
                text: `No readiness report of ${JSON.stringify(asked)} among the ${latest.size} repositories you may see${a.teams?.length ? ' in those teams' : ''}.`,
              },
            ],
          };
        const plan = nextLevelPlan(latest.get(key)!, levelOf);
        return text({
          ...view(key),
          next: plan && {
            reaches: plan.reaches,
            passRateAfter: plan.passRateAfter,
            fix: plan.steps.map((s) => ({ ...criterion(s.id), numerator: s.numerator, denominator: s.denominator })),
          },
        });
      }
      const repos = [...latest.keys()].sort().map(view);
      const spread = levelSpread(repos.map((x) => x.level));
      const fixes = fixesForSet(
        [...latest].map(([key, report]) => ({ key, report })),
        levelOf,
      );
      return text({
        repositories: repos.length,
        target: TARGET_LEVEL,
        levels: { counts: spread.counts, atTarget: spread.atTarget, met: spread.met },
        stale: repos.filter((x) => x.stale).length,
        fixes: fixes.slice(0, 20).map((f) => ({
          ...criterion(f.id),
          repositories: f.helps.length,
          liftedAlone: f.lifts.length,
        })),
        repos,
      });
    },
  );

  server.registerTool(
    'alerts',
    {
      title: 'Open alerts',
      description:
        'The open alerts the reader may see (a budget spent or at risk, a drop of active people, a person’s unusual day…): each with its kind, scope (a team path, or "" for the organization), when it opened and a summary.',
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () => {
      const r = await read(ask, '/api/alerts');
      return r.ok ? text({ open: (r.data as { open: unknown[] }).open }) : refused(r.answer);
    },
  );

  server.registerTool(
    'marks',
    {
      title: 'Marks on the charts',
      description:
        'Dated notes people put on the dashboard’s charts (a launch, an outage, a training) and the price list’s changes: with a range, those of its days (and of the teams given, with the organization’s); without one, all.',
      inputSchema: { start: day('The range’s first day'), end: day('The range’s last day'), teams },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (a) =>
      a.start === undefined && a.end === undefined && !a.teams?.length
        ? relay(ask, '/api/marks/all')
        : relay(ask, '/api/marks' + queryOf({ start: a.start, end: a.end, team: a.teams })),
  );

  server.registerTool(
    'goals',
    {
      title: 'Teams’ goals and whether they are on course',
      description:
        'The goals set for teams (team "" is the organization’s) the reader may see: a share to reach by a date (kind weekly-active: of the members active each week; moderate-or-above: of the active people at Moderate intensity or above over four whole weeks), each with its progress per whole ISO week against a straight line to the goal, the projection of the recent weeks, and its status (on-course, off-course, met, missed, unknown). progress is null when it cannot be shown (reason says why). Answers "is team X on course for its goal".',
      inputSchema: { teams },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (a) => relay(ask, GOALS_PATH + queryOf({ team: a.teams })),
  );

  server.registerTool(
    'reconciliation',
    {
      title: 'The dashboard’s figures beside the service’s own',
      description:
        'Per day of a range, the service’s own organization totals (credits, active people, sessions, commits, pull requests) beside the dashboard’s sum over the people it shows, and the difference in parts that add up exactly: service = dashboard + notSynced (a day whose per-person rows are not in yet) + outside (people outside the mapping or the teams asked, and in privacy mode groups too small to show) + unexplained. Use it when a figure does not match the service’s console.',
      inputSchema: { start: day('The range’s first day'), end: day('The range’s last day'), teams },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (a) => relay(ask, RECONCILIATION_PATH + queryOf({ start: a.start, end: a.end, team: a.teams })),
  );
}
