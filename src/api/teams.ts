/**
 * The dashboard server's own teams endpoints (not the service's, which knows no teams). They exist
 * when the server keeps a store; every figure is computed there from the stored per-user facts.
 *
 *   GET  /api/teams                      the mapping in force and the team tree (members per team)
 *   GET  /api/teams/mapping              the mapping in force as text, for the edit screen
 *   PUT  /api/teams/mapping              {format, text}: a new mapping, kept in the store
 *                                        (400 naming each bad line; 409 while TEAMS_FILE rules)
 *   DELETE /api/teams/mapping            forget the stored mapping (back to the demo's, or none)
 *   GET  /api/teams/summary?start&end    one row per team (and Unassigned, and the organization)
 *   GET  /api/teams/top-users?start&end[&limit][&team=A…]
 *        the users with the most credits (of the teams named, or of everyone), with their models
 *   GET  /api/teams/analytics/<endpoint>?startDate&endDate[&group_by]&team=A[&team=B]
 *        the service's day rows for the people of the teams named (a team includes its sub-teams;
 *        several teams are their union, each person once). Fields the service gives for the whole
 *        organization only are left out, and `meta.org_only` names them. A team's `/tokens` rows have
 *        no `by_user` (it grows with the team: 13 MB for 2,000 people over 90 days); top-users has it.
 *        `tokens` with no team is the organization's days as the service gave them, without `by_user`
 *        (33 MB for 5,000 people over 90 days): the usage page asks for it when the server keeps a store.
 *
 * The users endpoints (api/users.ts) take `team=` too.
 */
import * as z from 'zod/mini';
import {
  activityDaySchema,
  analyticsMetaSchema,
  productivityDaySchema,
  tokenDaySchema,
  tokenModelRowSchema,
  toolDaySchema,
} from './schemas';

export const TEAMS_PATHS = {
  teams: '/api/teams',
  mapping: '/api/teams/mapping',
  summary: '/api/teams/summary',
  topUsers: '/api/teams/top-users',
  analytics: (endpoint: TeamEndpoint) => `/api/teams/analytics/${endpoint}`,
} as const;

/** Users the mapping does not name: a top-level "team" of their own, never dropped. */
export const UNASSIGNED = 'Unassigned';
/** The `team` value for "everyone in the organization" in the summary's rows. */
export const ORGANIZATION = '';

const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a YYYY-MM-DD day'));
const rangeSchema = z.object({ start: day, end: day });

export interface TeamView {
  /** The full path, the team's identity: `Engineering/Platform`. */
  path: string;
  /** The last part: `Platform`. */
  name: string;
  /** People in the team and its sub-teams (among the users the store knows). */
  members: number;
  managers: string[];
  children: TeamView[];
}
export const teamViewSchema: z.ZodMiniType<TeamView> = z.object({
  path: z.string(),
  name: z.string(),
  members: z.number(),
  managers: z.array(z.string()),
  get children() {
    return z.array(teamViewSchema);
  },
});

export const mappingErrorSchema = z.object({ line: z.nullable(z.number()), message: z.string() });

/** `GET /api/teams`. */
export const teamsAnswerSchema = z.object({
  /** `file` (TEAMS_FILE, read-only here), `store` (uploaded on the edit screen), `demo`, or `none`. */
  source: z.enum(['file', 'store', 'demo', 'none']),
  name: z.nullable(z.string()),
  loadedAt: z.nullable(z.string()),
  /** Whether the edit screen may change the mapping (not while TEAMS_FILE is set). */
  editable: z.boolean(),
  /** The last version refused, with its reasons (line first); the mapping in force did not change. */
  refused: z.nullable(z.object({ at: z.string(), errors: z.array(z.string()) })),
  teams: z.array(teamViewSchema),
  /** Known users no team names. */
  unassigned: z.number(),
  /** Users the store knows. */
  users: z.number(),
  /** The repositories and patterns the mapping gives the teams the reader sees (its `repos` column). */
  repos: z.number(),
  /**
   * Privacy mode, for a reader it applies to: the smallest group shown, and how many teams (Unassigned
   * included, then shown as 0) were folded into their parents for having fewer members.
   */
  privacy: z.optional(z.object({ minGroup: z.number(), folded: z.number() })),
});
export type TeamsAnswer = z.infer<typeof teamsAnswerSchema>;

/** `GET /api/teams/mapping`. */
export const mappingTextSchema = z.object({
  source: z.enum(['file', 'store', 'demo', 'none']),
  format: z.enum(['csv', 'json']),
  /** The mapping in force as text (the file's or the stored upload; the demo's as CSV; '' for none). */
  text: z.string(),
});
export type MappingText = z.infer<typeof mappingTextSchema>;

/** What `PUT /api/teams/mapping` takes: the file's text, its format and (shown to admins) its name. */
export const mappingUploadSchema = z.object({
  format: z.enum(['csv', 'json']),
  text: z.string(),
  name: z.optional(z.string()),
});

/** The body of a refused `PUT /api/teams/mapping` (400): the usual error fields and every problem. */
export const mappingRefusalSchema = z.object({
  title: z.optional(z.string()),
  detail: z.string(),
  status: z.number(),
  errors: z.array(mappingErrorSchema),
});

/** One team's figures over a range (or the previous period of the same length). */
export const teamFiguresSchema = z.object({
  /**
   * People in the team and its sub-teams: the known users the mapping puts there, and the people it
   * names whom the store has not seen yet (each once). The previous period counts today's members.
   */
  members: z.number(),
  /** Members active on at least one day of the range. */
  active: z.number(),
  /** active ÷ members; null for a team with no members. */
  adoption: z.nullable(z.number()),
  credits: z.number(),
  /** credits ÷ active; null when nobody was active. */
  creditsPerActive: z.nullable(z.number()),
  toolCalls: z.number(),
  userMessages: z.number(),
  /** Tool calls per user turn: toolCalls ÷ userMessages; null without user messages. */
  toolCallsPerTurn: z.nullable(z.number()),
  sessions: z.number(),
  commits: z.number(),
  prs: z.number(),
  /** credits ÷ commits, credits ÷ pull requests; null without any. */
  creditsPerCommit: z.nullable(z.number()),
  creditsPerPr: z.nullable(z.number()),
  /**
   * With a price list in force: the range's spend, and per active person, per commit and per pull request (null
   * without any); all null without a price list.
   */
  spend: z.nullable(z.number()),
  spendPerActive: z.nullable(z.number()),
  spendPerCommit: z.nullable(z.number()),
  spendPerPr: z.nullable(z.number()),
});
export type TeamFigures = z.infer<typeof teamFiguresSchema>;

export const teamSummaryRowSchema = z.object({
  /** The team's path; `Unassigned`; or '' for the whole organization. */
  team: z.string(),
  name: z.string(),
  /** 1 for a top-level team (and Unassigned); 0 for the organization. */
  depth: z.number(),
  parent: z.nullable(z.string()),
  /** Whether the team has sub-teams. */
  hasChildren: z.boolean(),
  managers: z.array(z.string()),
  current: teamFiguresSchema,
  /** The same figures over the period of the same length just before; null when it starts before history. */
  previous: z.nullable(teamFiguresSchema),
  /**
   * Each figure's relative change from the previous period (0.25: up a quarter); null for a figure without one
   * (none before, or 0); the whole null without a previous period.
   */
  change: z.nullable(z.record(z.string(), z.nullable(z.number()))),
  /** Daily credits over the range, one number per day from its start. */
  trend: z.array(z.number()),
});
export type TeamSummaryRow = z.infer<typeof teamSummaryRowSchema>;

/** `GET /api/teams/summary`: rows in tree order (the organization first, Unassigned last). */
export const teamsSummarySchema = z.object({
  range: rangeSchema,
  previous: z.nullable(rangeSchema),
  rows: z.array(teamSummaryRowSchema),
});
export type TeamsSummary = z.infer<typeof teamsSummarySchema>;

export type TeamEndpoint = 'tokens' | 'tools' | 'activity' | 'productivity';

/**
 * The fields each endpoint's day row has for the whole organization only: per-user facts do not
 * split them (cache tokens, per tool, per tool server, per client, per language…).
 */
export const ORG_ONLY_FIELDS = {
  tokens: ['cache_read_tokens', 'cache_write_tokens'],
  tools: [
    'by_tool',
    'mcp_by_server',
    'skills_by_name',
    'slash_commands_by_name',
    'hooks_by_event',
    'web_users',
    'tool_autonomy_level_ratio',
  ],
  activity: ['daily_active_users_by_client'],
  productivity: ['by_extension', 'by_language'],
} as const satisfies Record<TeamEndpoint, readonly string[]>;

/** The groupings a team's answer has; the others (per tool name, per client) are organization-only. */
export const TEAM_GROUPINGS = { tokens: ['', 'model'], tools: [''], activity: [''], productivity: [''] } as const;

const teamMetaSchema = z.extend(analyticsMetaSchema, {
  /** The teams asked for, as given. */
  teams: z.array(z.string()),
  /** People of these teams active in the range (each once). */
  members: z.number(),
  /** The fields left out of each row: given for the organization only. */
  org_only: z.array(z.string()),
});

/**
 * In a team's answer the organization-only fields are absent. The browser fills them with an empty
 * value only so one row type serves both answers; a page shows a note in place of any widget that
 * reads them while a team is selected, never those values.
 */
const absent = {
  zero: z._default(z.optional(z.number()), 0),
  list: <T extends z.ZodMiniType>(t: T) => z._default(z.optional(z.array(t)), []),
};
const teamTokenDaySchema = z.extend(tokenDaySchema, {
  cache_read_tokens: absent.zero,
  cache_write_tokens: absent.zero,
  by_user: absent.list(tokenDaySchema.def.shape.by_user.def.element),
});
const teamToolDaySchema = z.extend(toolDaySchema, {
  by_tool: absent.list(toolDaySchema.def.shape.by_tool.def.element),
  mcp_by_server: absent.list(toolDaySchema.def.shape.mcp_by_server.def.element),
  skills_by_name: absent.list(toolDaySchema.def.shape.skills_by_name.def.element),
  slash_commands_by_name: absent.list(toolDaySchema.def.shape.slash_commands_by_name.def.element),
  hooks_by_event: absent.list(toolDaySchema.def.shape.hooks_by_event.def.element),
  web_users: absent.zero,
  tool_autonomy_level_ratio: z._default(z.optional(toolDaySchema.def.shape.tool_autonomy_level_ratio), {
    auto_high: 0,
    auto_medium: 0,
    auto_low: 0,
    manual: 0,
  }),
});
const teamActivityDaySchema = z.extend(activityDaySchema, {
  daily_active_users_by_client: z._default(z.optional(activityDaySchema.def.shape.daily_active_users_by_client), {}),
});
const teamProductivityDaySchema = z.extend(productivityDaySchema, {
  by_extension: absent.list(productivityDaySchema.def.shape.by_extension.def.element),
  by_language: absent.list(productivityDaySchema.def.shape.by_language.def.element),
});

const teamEnvelope = <T extends z.ZodMiniType>(row: T) => z.object({ data: z.array(row), meta: teamMetaSchema });

/** The answer's schema per endpoint and grouping, as `ANALYTICS_SCHEMAS` for the service's. */
export const TEAM_ANALYTICS_SCHEMAS = {
  tokens: { '': teamEnvelope(teamTokenDaySchema), model: teamEnvelope(tokenModelRowSchema) },
  tools: { '': teamEnvelope(teamToolDaySchema) },
  activity: { '': teamEnvelope(teamActivityDaySchema) },
  productivity: { '': teamEnvelope(teamProductivityDaySchema) },
} as const;

/** `GET /api/teams/top-users`: the users with the most credits in the range, largest first. */
export const topUsersSchema = z.object({
  range: rangeSchema,
  teams: z.array(z.string()),
  limit: z.number(),
  /** Credits of the whole selection (the shares' denominator). */
  total: z.number(),
  users: z.array(
    z.object({
      userId: z.string(),
      email: z.nullable(z.string()),
      credits: z.number(),
      share: z.number(),
      /** Credits per model, largest first. */
      models: z.array(z.object({ model: z.string(), credits: z.number() })),
    }),
  ),
});
export type TopUsers = z.infer<typeof topUsersSchema>;
