/**
 * The teams endpoints of the dashboard's server (their shapes: src/api/teams.ts): the mapping in
 * force and its tree, the mapping's text and its edit (kept in the store; read-only while TEAMS_FILE
 * rules), each team's figures for the teams page, and the service's day rows for the people of
 * chosen teams. Every figure is computed by the analytics engine (src/server/analytics/teams.ts), off the
 * event loop.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import {
  activityResponseSchema,
  productivityResponseSchema,
  tokensByModelResponseSchema,
  tokensResponseSchema,
  toolsResponseSchema,
} from '../../api/schemas';
import {
  ORG_ONLY_FIELDS,
  teamsAnswerSchema,
  teamsSummarySchema,
  topUsersSchema,
  type TeamView,
  TEAM_GROUPINGS,
  type TeamEndpoint,
  type TeamFigures,
  type TeamSummaryRow,
} from '../../api/teams';
import { addDays, HISTORY_START, maxDay, previousPeriod, type DayRange } from '../../lib/dates';
import { ACCESS, type ViewScope } from '../auth/access';
import { HttpError } from '../core/errors';
import { canonicalEmail } from '../core/text';
import type { Logger } from '../core/log';
import { json } from '../core/response';
import { queryParser, quote, text, whole } from '../http/query';
import { route, type Route } from '../http/router';
import type { StoreDb } from '../store/db';
import { storedOrgId } from '../store/queries';
import type { Mapping } from './mapping';
import type { TeamAnalytics } from '../analytics/teams';
import type { PriceList } from '../spend/prices';
import type { FiguresRunner, FigureRow } from '../analytics/figures';
import { createMappingRoutes } from './mapping-routes';
import type { EditableMappingSource, MappingSource, MappingState } from './source';
import { depthOf, foldSmall, nameOf, parentOf, teamTree, UNASSIGNED, withAncestors, type TeamNode } from './tree';

export interface TeamsRoutesOptions {
  store: StoreDb;
  source: MappingSource;
  /** Set when the mapping may be edited here (no TEAMS_FILE). */
  editable?: EditableMappingSource;
  /** The team figures (the analytics engine's). */
  figures: Promise<TeamAnalytics>;
  /** The figures runner (analytics/figures.ts). */
  runner: Promise<FiguresRunner>;
  /** The price list in force (spend figures beside the others), or none. */
  prices?: () => PriceList | null;
  /** Fills a range's days from the service first, as the store's own answers do: `/users` or `/tokens` ones. */
  fill: (r: DayRange, from: 'users' | 'tokens') => Promise<void>;
  /** Sign-in decides who edits (admins); without it, only the dashboard's own machine may. */
  signIn?: boolean;
  logger?: Logger;
  /**
   * What readers' pages read for a mapping beside its members, made before a save or a removal is answered: the
   * admin's next page, and the managers' after it, find it made. It never rejects: the save is done whatever it does.
   */
  changed?: () => Promise<void>;
}

/** The measures of a row of the teams summary, asked of the runner (lib/measures.ts). */
const SUMMARY_MEASURES = [
  'members',
  'active',
  'adoption',
  'credits',
  'creditsPerActive',
  'toolCalls',
  'userMessages',
  'toolCallsPerTurn',
  'sessions',
  'commits',
  'prs',
  'creditsPerCommit',
  'creditsPerPr',
] as const;
/** With a price list in force, spend and its ratios too. */
const SPEND_MEASURES = ['spend', 'spendPerActive', 'spendPerCommit', 'spendPerPr'] as const;
type SummaryMeasure = (typeof SUMMARY_MEASURES)[number] | (typeof SPEND_MEASURES)[number];

/** A row's figures as the summary carries them (counts and sums are never missing: 0). */
function figures(v: Partial<Record<SummaryMeasure, number | null>>): TeamFigures {
  const n = (m: SummaryMeasure) => v[m] ?? 0;
  return {
    members: n('members'),
    active: n('active'),
    adoption: v.adoption ?? null,
    credits: n('credits'),
    creditsPerActive: v.creditsPerActive ?? null,
    toolCalls: n('toolCalls'),
    userMessages: n('userMessages'),
    toolCallsPerTurn: v.toolCallsPerTurn ?? null,
    sessions: n('sessions'),
    commits: n('commits'),
    prs: n('prs'),
    creditsPerCommit: v.creditsPerCommit ?? null,
    creditsPerPr: v.creditsPerPr ?? null,
    spend: v.spend ?? null,
    spendPerActive: v.spendPerActive ?? null,
    spendPerCommit: v.spendPerCommit ?? null,
    spendPerPr: v.spendPerPr ?? null,
  };
}

const topUsersQuery = queryParser({ range: 'optional', teams: true, shape: { limit: whole('limit', 25, 1, 100) } });
/** The service's own names for a team's usage answers: the range is required, as the service requires it. */
const analyticsQuery = queryParser({
  range: 'required',
  names: ['startDate', 'endDate'],
  teams: true,
  shape: { group_by: text('group_by', 40) },
});

export function createTeamsRoutes(opts: TeamsRoutesOptions) {
  const { store, source, editable, fill } = opts;
  /** The engine, once the range's days are filled (and copied: each figure catches the copy up first). */
  const engine = async (r: DayRange, from: 'users' | 'tokens') => {
    await fill(r, from);
    return opts.figures;
  };

  /** Everyone the store has seen (as the analytics copy holds them), with their latest email given. */
  const allUsers = async () => (await opts.figures).knownPeople(source.current().mapping);

  /** Each team's members with its sub-teams' (Unassigned's too), as the runner counts them, and the people known. */
  async function members(mapping: Mapping | null) {
    const [people, rolled] = await Promise.all([allUsers(), opts.runner.then((r) => r.memberCounts(mapping))]);
    return { people, rolled };
  }

  /** Each decision's key, a text that changes with the teams shown. */
  const keys = new WeakMap<ReadonlySet<string>, string>();
  /**
   * The teams privacy mode shows for k (the runner's decision, teams/tree.ts `shownTeams`), decided once from the
   * whole tree and its members, whoever asks: each route shows these and no other, and a key that changes with them.
   */
  async function shownFor(k: number) {
    const teams = await (await opts.runner).shown(source.current().mapping, k);
    let key = keys.get(teams);
    if (key === undefined) {
      key = createHash('sha256')
        .update([...teams].sort().join('\n'))
        .digest('base64url')
        .slice(0, 16);
      keys.set(teams, key);
    }
    return { teams, key };
  }

  /** The tree as the reader may see it (`scope`: with sign-in, managers' emails of their own teams only). */
  async function teamsBody(state: MappingState = source.current(), scope?: ViewScope) {
    const mapping = state.mapping;
    const details = (team: string) => !scope || scope.seesTeamDetails(team);
    const { people: users, rolled: counts } = await members(mapping);
    // Privacy mode: managers are people too (no emails), and teams under k members are folded into their parents.
    const privacy = scope?.privacy;
    const view = (n: TeamNode): TeamView => ({
      path: n.path,
      name: n.name,
      members: counts.get(n.path) ?? 0,
      managers: details(n.path) && !privacy ? [...(mapping?.managers.get(n.path) ?? [])].sort() : [],
      children: n.children.map(view),
    });
    // RESTRICT_ORG_VIEW: a manager's tree is their teams (the outermost as roots), counting their people only.
    const restricted = scope !== undefined && !scope.orgView;
    const theirs = (ns: TeamNode[]): TeamNode[] => ns.flatMap((n) => (details(n.path) ? [n] : theirs(n.children)));
    const tree = mapping ? teamTree(mapping.teams) : [];
    const viewed = (restricted ? theirs(tree) : tree).map(view);
    const decision = privacy && (await shownFor(privacy.minGroup)).teams;
    const folded = decision ? foldSmall(viewed, decision) : { teams: viewed, folded: 0 };
    const shown = folded.teams;
    const unassigned = restricted ? 0 : (counts.get(UNASSIGNED) ?? 0);
    const smallUnassigned = decision !== undefined && unassigned > 0 && !decision.has(UNASSIGNED);
    // A refused file's messages quote its lines (people's emails): for admins.
    return {
      source: state.source,
      name: state.name,
      loadedAt: state.loadedAt,
      editable: editable !== undefined,
      refused: state.refused && {
        at: state.refused.at,
        errors: !scope || scope.admin ? state.refused.errors.map((e) => e.message) : [],
      },
      teams: shown,
      unassigned: smallUnassigned ? 0 : unassigned,
      // Counted before anything is folded: exact. A manager kept to their teams counts the people of the roots shown
      // only (a hidden one's people would be the difference).
      users: restricted ? (decision ? shown : viewed).reduce((n, t) => n + t.members, 0) : users.length,
      ...(privacy && {
        privacy: { minGroup: privacy.minGroup, folded: folded.folded + (smallUnassigned ? 1 : 0) },
      }),
      repos: (mapping?.repos ?? []).filter((c) => !restricted || details(c.team)).length,
    };
  }

  /**
   * `GET /api/teams/summary?start&end[&team…]`; `team=`: only those teams' rows (sub-teams included), beside the
   * organization's. Every figure is the runner's: a team's rolled up with its sub-teams', the previous period and
   * the change beside; in privacy mode the teams it does not show are no rows (their people stay counted in their
   * parents' and the organization's, which are exact).
   */
  async function summary(range: DayRange, only: readonly string[], scope?: ViewScope) {
    const runner = await opts.runner;
    const prev = previousPeriod(range);
    await fill({ start: prev?.start ?? range.start, end: range.end }, 'users');
    const mapping = source.current().mapping;
    const privacy = scope?.privacy && { minGroup: scope.privacy.minGroup, name: scope.privacy.name };
    const list = opts.prices?.() ?? null;
    if (list) await fill({ start: prev?.start ?? range.start, end: range.end }, 'tokens');
    const measures: readonly SummaryMeasure[] = list ? [...SUMMARY_MEASURES, ...SPEND_MEASURES] : SUMMARY_MEASURES;
    const question = { mapping, measures, range, compare: true, line: 'credits' as const, prices: list };
    const [teams, org] = await Promise.all([
      runner.ask({
        ...question,
        by: 'team',
        scope: { people: only.length > 0 ? only : null, ...(privacy && { privacy }) },
      }),
      // RESTRICT_ORG_VIEW: a manager's teams page has their teams' rows only.
      scope && !scope.orgView ? null : runner.ask({ ...question, by: 'total', scope: { people: null } }),
    ]);
    const children = new Set(
      withAncestors([...(mapping?.teams ?? []), UNASSIGNED])
        .map(parentOf)
        .filter((t) => t !== null),
    );
    const row = (r: FigureRow<SummaryMeasure>, team: string): TeamSummaryRow => ({
      team,
      name: team === '' ? 'Organization' : nameOf(team),
      depth: team === '' ? 0 : depthOf(team),
      parent: team === '' ? null : parentOf(team),
      hasChildren: team === '' || children.has(team),
      managers:
        team !== '' && (!scope || (scope.seesTeamDetails(team) && !scope.privacy))
          ? [...(mapping?.managers.get(team) ?? [])].sort()
          : [],
      current: figures(r.current),
      previous: r.previous && figures(r.previous),
      change: r.change,
      trend: r.line ?? [],
    });
    // Unassigned last, after the teams in tree order.
    const listed = teams.rows.filter((r) => r.key !== UNASSIGNED);
    const unassigned = teams.rows.filter(
      (r) => r.key === UNASSIGNED && (only.length === 0 || only.includes(UNASSIGNED)),
    );
    const rows: TeamSummaryRow[] = [
      ...(org ? org.rows.map((r) => row(r, '')) : []),
      ...listed.map((r) => row(r, r.key)),
      ...unassigned.map((r) => row(r, r.key)),
    ];
    return { range, previous: prev, rows };
  }

  /** `GET /api/teams/top-users?start&end[&limit][&team…]`: the selection's (or everyone's) top users by credits. */
  async function topUsersOf(range: DayRange, teams: string[], limit: number, name?: (userId: string) => string) {
    const t = await engine(range, 'tokens');
    const selected = teams.length > 0 ? teams : null;
    return { range, teams, limit, ...(await t.topUsers(source.current().mapping, selected, range, limit, name)) };
  }

  /**
   * `GET /api/teams/analytics/tokens` with no team: the organization's days as the service gave them,
   * without the per-user split (33 MB for 5,000 people over 90 days; the top users come from top-users).
   */
  async function organizationTokens(range: DayRange) {
    const t = await engine(range, 'tokens');
    const data = await t.organizationTokenDays(range);
    return answerOf(data, range, [], await t.activeIn(null, null, range), []);
  }

  /** A usage answer in the service's envelope, with what the dashboard adds to its meta (the teams, their members). */
  async function answerOf(data: unknown[], range: DayRange, teams: string[], members: number, orgOnly: string[]) {
    const org_id = (await storedOrgId(store.db)) ?? '';
    return { data, meta: { org_id, start_date: range.start, end_date: range.end, teams, members, org_only: orgOnly } };
  }

  /** `GET /api/teams/analytics/<endpoint>`. */
  async function analytics(endpoint: TeamEndpoint, range: DayRange, teams: string[], groupBy: string) {
    if (!(TEAM_GROUPINGS[endpoint] as readonly string[]).includes(groupBy)) {
      const allowed = TEAM_GROUPINGS[endpoint].filter((g) => g !== '');
      throw new HttpError(
        400,
        `${endpoint} grouped by ${quote(groupBy)} is given by the service for the whole organization only, not per team` +
          (allowed.length ? `; a team's ${endpoint} can be grouped by ${allowed.join(', ')}.` : '.'),
      );
    }
    const mapping = source.current().mapping;
    if (teams.length === 0 && endpoint === 'tokens' && groupBy === '') return organizationTokens(range);
    // The parser checked the teams named; the service's per-team answers need one at least.
    if (teams.length === 0) throw new HttpError(400, 'Name at least one team: team=<path> (several allowed).');
    // Weekly and monthly active users look back 6 and 29 days before each day.
    const first = endpoint === 'activity' ? maxDay(HISTORY_START, addDays(range.start, -29)) : range.start;
    const t = await engine({ start: first, end: range.end }, endpoint === 'tokens' ? 'tokens' : 'users');
    const data =
      endpoint === 'tokens'
        ? groupBy === 'model'
          ? (await t.tokenDays(mapping, teams, range)).flatMap((d) =>
              d.by_model.map((m) => ({
                date: d.date,
                group_key: m.model_id,
                billable_tokens: m.billable_tokens,
                input_tokens: m.input_tokens,
                output_tokens: m.output_tokens,
              })),
            )
          : await t.tokenDays(mapping, teams, range)
        : endpoint === 'tools'
          ? await t.toolDays(mapping, teams, range)
          : endpoint === 'activity'
            ? await t.activityDays(mapping, teams, range)
            : await t.productivityDays(mapping, teams, range);
    const members = await t.activeIn(mapping, teams, range);
    return answerOf(data, range, teams, members, groupBy ? [] : [...ORG_ONLY_FIELDS[endpoint]]);
  }

  const routes: Route[] = [
    ...createMappingRoutes({ ...opts, answer: (state) => teamsBody(state) }),
    route({
      method: 'GET',
      path: '/api/teams',
      access: ACCESS.teamTree,
      what: 'the teams',
      response: teamsAnswerSchema,
      handle: async ({ scope }) => json(200, await teamsBody(undefined, scope)),
    }),
    route({
      method: 'GET',
      path: '/api/teams/summary',
      memo: true,
      query: queryParser({ range: 'optional', teams: true }),
      access: ACCESS.teamsSummary,
      what: 'the team figures',
      response: teamsSummarySchema,
      handle: async ({ query, scope }) => json(200, await summary(query.range, query.teams, scope)),
    }),
    route({
      method: 'GET',
      path: '/api/teams/top-users',
      memo: true,
      query: topUsersQuery,
      access: ACCESS.peopleRows,
      what: 'the top users',
      response: topUsersSchema,
      handle: async ({ query: q, scope }) => {
        const lens = scope?.privacy;
        const top = await topUsersOf(q.range, q.teams, q.params.limit, lens?.name);
        return json(200, lens ? { ...top, users: top.users.map((u) => lens.person(u)) } : top);
      },
    }),
    route({
      method: 'GET',
      path: /^\/api\/teams\/analytics\/(tokens|tools|activity|productivity)$/,
      label: '/api/teams/analytics/:endpoint',
      memo: true,
      query: analyticsQuery,
      access: ACCESS.teamAnalytics,
      what: 'the team figures',
      // The service's shapes, as the service would answer the endpoint for the organization (by day, or grouped).
      response: z.union([
        tokensResponseSchema,
        tokensByModelResponseSchema,
        toolsResponseSchema,
        activityResponseSchema,
        productivityResponseSchema,
      ]),
      handle: async ({ query: q, match }) =>
        json(200, await analytics(match[0] as TeamEndpoint, q.range, q.teams, q.params.group_by)),
    }),
  ];

  /** The user id the store knows for an email (a signed-in reader's own page), or null; compared as sign-in does. */
  async function userIdOf(email: string): Promise<string | null> {
    const e = canonicalEmail(email);
    return (await allUsers()).find((u) => u.email !== null && canonicalEmail(u.email) === e)?.userId ?? null;
  }

  /** A team's members, sub-teams included (Unassigned: the known people no team names), as the tree counts them. */
  const membersOf = async (team: string) => (await members(source.current().mapping)).rolled.get(team) ?? 0;

  return {
    routes,
    userIdOf,
    membersOf,
    /** Privacy mode: the teams shown for k, and a key that changes with them. */
    shownTeams: async (k: number) => {
      const { teams, key } = await shownFor(k);
      return { teams: teams as ReadonlySet<string>, key };
    },
    /** Privacy mode: whether a team is shown for k (one not shown is refused when asked for alone). */
    teamShown: async (team: string, k: number) => (await shownFor(k)).teams.has(team),
    /** Reads who the store has seen and counts the teams' members ahead of a reader (after each sync step). */
    warm: async () => void (await members(source.current().mapping)),
    /** The organization's summary of a range (the default one, before a restarted server says it is ready). */
    summaryAhead: async (range: DayRange) => void (await summary(range, [])),
  };
}
