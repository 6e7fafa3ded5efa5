/**
 * The service contract (service-interface.md §2, element shapes from
 * service-facts.md) as zod schemas; every type the app uses is inferred here.
 * Objects accept unknown fields (they are dropped), and nulls are tolerated
 * where the service is known to send them.
 */
// zod/mini: the same validation with a tree-shakable functional API, a small part of classic zod's size.
import * as z from 'zod/mini';

const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a YYYY-MM-DD day'));
const count = z.number();

export const analyticsMetaSchema = z.object({
  org_id: z.string(),
  start_date: day,
  end_date: day,
});

/** §2.1 envelope around a row schema. */
export function envelope<T extends z.ZodMiniType>(row: T) {
  return z.object({ data: z.array(row), meta: analyticsMetaSchema });
}

export const modelTierSchema = z.string(); // `standard` or `thinking`; unknown tiers are shown as given

export const modelUsageSchema = z.object({
  model_id: z.string(),
  model_tier: modelTierSchema,
  billable_tokens: count,
  input_tokens: count,
  output_tokens: count,
});

export const userTokensSchema = z.object({
  user_id: z.string(),
  user_email: z._default(z.optional(z.nullable(z.string())), null),
  billable_tokens: count,
  by_model: z._default(z.optional(z.array(modelUsageSchema)), []),
});

/** §2.2 */
export const tokenDaySchema = z.object({
  date: day,
  billable_tokens: count,
  input_tokens: count,
  output_tokens: count,
  cache_read_tokens: count,
  cache_write_tokens: count,
  by_model: z.array(modelUsageSchema),
  by_user: z.array(userTokensSchema),
});

/** §2.7 and service-facts: `/tokens?group_by=model`. */
export const tokenModelRowSchema = z.object({
  date: day,
  group_key: z.string(),
  billable_tokens: count,
  input_tokens: count,
  output_tokens: count,
});

export const autonomyLevelsSchema = z.object({
  auto_high: count,
  auto_medium: count,
  auto_low: count,
  manual: count,
});

/** §2.3 */
export const toolDaySchema = z.object({
  date: day,
  tool_calls: count,
  by_tool: z.array(z.object({ tool: z.string(), invocations: count })),
  mcp_users_with_mcp: count,
  mcp_by_server: z.array(z.object({ server: z.string(), invocations: count })),
  skills_invocations: count,
  skills_by_name: z.array(z.object({ name: z.string(), count })),
  slash_commands_invocations: count,
  slash_commands_by_name: z.array(z.object({ name: z.string(), count })),
  hooks_invocations: count,
  hooks_by_event: z.array(z.object({ event: z.string(), matcher: z.string(), command: z.string(), count })),
  web_users: count,
  autonomy_ratio_avg: count,
  autonomy_ratio_p50: count,
  autonomy_ratio_p90: count,
  tool_calls_per_session_avg: count,
  user_turns_per_session_avg: count,
  tool_autonomy_level_ratio: autonomyLevelsSchema,
});

export const toolNameRowSchema = z.object({ date: day, group_key: z.string(), tool_calls: count });

/** §2.4; client keys beyond the documented three pass through. */
export const activityDaySchema = z.object({
  date: day,
  daily_active_users: count,
  weekly_active_users: count,
  monthly_active_users: count,
  daily_active_users_by_client: z.record(z.string(), count),
  sessions: count,
  messages: count,
  user_messages: count,
});

export const clientRowSchema = z.object({
  date: day,
  group_key: z.string(),
  daily_active_users: count,
});

/** §2.5 */
export const productivityDaySchema = z.object({
  date: day,
  files_created: count,
  files_edited: count,
  by_extension: z.array(z.object({ extension: z.string(), count })),
  by_language: z.array(z.object({ language: z.string(), count })),
  git_commits: count,
  git_prs_created: count,
});

export const DELEGATION_LEVELS = ['auto-high', 'auto-medium', 'auto-low', 'spec', 'manual'] as const;

/** §2.6 */
export const userRowSchema = z.object({
  user_id: z.string(),
  user_email: z._default(z.optional(z.nullable(z.string())), null),
  date: day,
  tool_calls: count,
  billable_tokens: count,
  primary_model: z.string(),
  primary_model_tier: modelTierSchema,
  files_created: count,
  files_edited: count,
  git_commits: count,
  git_prs_created: count,
  mcp_calls: count,
  skill_calls: count,
  slash_commands: count,
  hooks: count,
  sessions: count,
  messages: count,
  user_messages: count,
  assistant_messages: count,
  autonomy_ratio: count,
  delegation_level: z.string(),
  languages: z._default(z.optional(z.array(z.string())), []),
});

export const usersResponseSchema = z.object({
  data: z.array(userRowSchema),
  meta: z.extend(analyticsMetaSchema, {
    has_more: z.boolean(),
    next_cursor: z.optional(z.nullable(z.string())),
  }),
});

export const tokensResponseSchema = envelope(tokenDaySchema);
export const tokensByModelResponseSchema = envelope(tokenModelRowSchema);
export const toolsResponseSchema = envelope(toolDaySchema);
export const toolsByNameResponseSchema = envelope(toolNameRowSchema);
export const activityResponseSchema = envelope(activityDaySchema);
export const activityByClientResponseSchema = envelope(clientRowSchema);
export const productivityResponseSchema = envelope(productivityDaySchema);

/** §2.8 */
export const criterionResultSchema = z.object({
  numerator: z.nullable(count),
  denominator: count.check(z.minimum(1)),
  rationale: z._default(z.optional(z.string()), ''),
});

export const readinessReportSchema = z.object({
  reportId: z.string(),
  createdAt: count,
  repoUrl: z.string(),
  apps: z.record(z.string(), z.object({ description: z._default(z.optional(z.string()), '') })),
  report: z.record(z.string(), criterionResultSchema),
  commitHash: z.optional(z.string()),
  branch: z.optional(z.string()),
  hasLocalChanges: z.optional(z.boolean()),
  hasNonRemoteCommits: z.optional(z.boolean()),
  modelUsed: z.optional(z.object({ id: z.optional(z.string()), reasoningEffort: z.optional(z.string()) })),
  agentVersion: z.optional(z.string()),
});

export const readinessResponseSchema = z.object({
  reports: z.array(readinessReportSchema),
  nextStartAfter: z.optional(z.nullable(z.string())),
});

/** §7: the error body. */
export const errorBodySchema = z.object({
  title: z.optional(z.string()),
  detail: z.optional(z.string()),
  status: z.optional(z.number()),
  requestId: z.optional(z.string()),
});

export type TokenDay = z.infer<typeof tokenDaySchema>;
export type TokenModelRow = z.infer<typeof tokenModelRowSchema>;
export type ToolDay = z.infer<typeof toolDaySchema>;
export type ActivityDay = z.infer<typeof activityDaySchema>;
export type ProductivityDay = z.infer<typeof productivityDaySchema>;
export type UserRow = z.infer<typeof userRowSchema>;
export type UsersResponse = z.infer<typeof usersResponseSchema>;
export type CriterionResult = z.infer<typeof criterionResultSchema>;
export type ReadinessReport = z.infer<typeof readinessReportSchema>;

/** The dashboard server's `/api/config` answer. */
export const clientConfigSchema = z.object({
  demo: z.boolean(),
  keyRequired: z.boolean(),
  /** Whether the server keeps a store, and with it teams (selector, teams pages, the mapping screen). */
  teams: z.boolean(),
  /** Whether readers sign in (OpenID Connect): the header then shows who is signed in, and Sign out. */
  signIn: z.boolean(),
  /** The price list's currency when the server has one (and a store): spend beside credits; null: credits only. */
  currency: z.nullable(z.string()),
  historyStart: day,
  latestDay: day,
  /**
   * The path the dashboard is served under (BASE_PATH): '' at the root, else like `/dashboard`. The router's
   * basename, and the prefix of every address of the server's the app asks for or links to.
   */
  basePath: z.string(),
  /** The organization's holidays (HOLIDAYS, HOLIDAYS_FILE), UTC days: hidden with the weekends on daily charts. */
  holidays: z.array(day),
  /**
   * Privacy mode (PRIVACY_MIN_GROUP), when on: groups under this many people are not shown to managers and
   * people are pseudonymous to them (src/server/auth/privacy.ts); the shell says so.
   */
  privacyMinGroup: z.optional(z.number()),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;

/** The dashboard server's `/api/sync` answer, as far as the SPA reads it. */
export const syncStatusSchema = z.object({
  store: z.nullable(z.string()),
  running: z.optional(z.array(z.string())),
  /** The store's days of each kind (only the people's days are read here). */
  stored: z.optional(z.object({ users: z.optional(z.object({ days: z.number() })) })),
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;

/**
 * The answer's schema per day-based endpoint and `group_by` ('' = not grouped): the groupings the
 * pages ask for. The SPA's query factory and the server's sync both read it.
 */
export const ANALYTICS_SCHEMAS = {
  tokens: { '': tokensResponseSchema, model: tokensByModelResponseSchema },
  tools: { '': toolsResponseSchema, tool_name: toolsByNameResponseSchema },
  activity: { '': activityResponseSchema, client: activityByClientResponseSchema },
  productivity: { '': productivityResponseSchema },
} as const;
