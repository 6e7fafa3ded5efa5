/**
 * The store's tables, as Kysely sees them. Bodies are kept as the service sent
 * them (JSON text of one day's rows), so an answer served from the store is the
 * service's own answer, whatever fields it carries.
 */
export interface UpstreamTable {
  /** Always 1: the store holds one upstream. */
  id: number;
  /** Which upstream: its base URLs, or the demo's seed and size. */
  identity: string;
  /** The `org_id` of the service's `meta`, once an answer has told it. */
  org_id: string | null;
  created_at: string;
}

/** One endpoint's rows of one day: `endpoint` is the path's last segment, `grouping` the group_by ('' for none). */
export interface DayAnswerTable {
  endpoint: string;
  grouping: string;
  day: string;
  /** A JSON array: the rows of that day, in the service's order. */
  body: string;
  /** 1 once the day is before the refresh window: never asked again. */
  final: number;
  synced_at: string;
}

/** One `/users` row: one user's activity on one day. */
export interface UserDayTable {
  day: string;
  user_id: string;
  user_email: string | null;
  /** The row as the service sent it (JSON). */
  row: string;
}

/** Days whose `/users` walk is complete: only these are served from the store. */
export interface UsersDayTable {
  day: string;
  final: number;
  synced_at: string;
}

/** A `/users` walk under way over a span of days: the cursor after the last page written. */
export interface UsersWalkTable {
  start_day: string;
  end_day: string;
  cursor: string | null;
  pages: number;
  updated_at: string;
}

export interface ReadinessReportTable {
  report_id: string;
  /** Arrival order in the service's own walk, so pages are served in its order. */
  seq: number;
  created_at: string;
  body: string;
}

/** The team mapping uploaded on the edit screen: one row (id 1), the text as given. */
/** A monthly budget, in the price list's currency: a team's path, or '' for the whole organization. */
export interface TeamBudgetTable {
  team: string;
  monthly: number;
  updated_at: string;
}

export interface TeamMappingTable {
  id: number;
  format: string;
  text: string;
  /** What the upload was called (a file name), for the screen. */
  name: string;
  updated_at: string;
}

export interface Schema {
  upstream: UpstreamTable;
  day_answer: DayAnswerTable;
  user_day: UserDayTable;
  users_day: UsersDayTable;
  users_walk: UsersWalkTable;
  readiness_report: ReadinessReportTable;
  team_mapping: TeamMappingTable;
  team_budget: TeamBudgetTable;
  revoked_session: RevokedSessionTable;
  alert_rule: AlertRuleTable;
  alert: AlertTable;
  chart_mark: ChartMarkTable;
  api_token: ApiTokenTable;
  team_goal: TeamGoalTable;
  intensity_threshold: IntensityThresholdTable;
  member_team: MemberTeamTable;
}

/**
 * A member of the team mapping (by its key) in a team from a day on (migration 0016): '' once the mapping names them no
 * more, null for a member named before 0016, whose team was not recorded.
 */
export interface MemberTeamTable {
  member: string;
  from_day: string;
  team: string | null;
}

/** A session signed out of (its cookie's id), kept until the cookie would have expired: seconds since the epoch. */
export interface RevokedSessionTable {
  id: string;
  until: number;
}

/** An alert rule (src/server/alerts): its kind, its scope ('' the organization, else a team's path) and threshold N. */
export interface AlertRuleTable {
  id: string;
  kind: string;
  scope: string;
  threshold: number | null;
  enabled: number;
  created_by: string | null;
  created_at: string;
}

/** An alert a rule opened: open while `resolved_at` is null; `posted` 1 once the webhook took it. */
export interface AlertTable {
  id: string;
  rule_id: string;
  kind: string;
  scope: string;
  /** What it is about within the scope: a person's id (the person-day rule), else ''. */
  key: string;
  summary: string;
  link: string;
  opened_day: string;
  opened_at: string;
  resolved_at: string | null;
  acknowledged_by: string | null;
  acknowledged_at: string | null;
  posted: number;
}

/** A mark on the charts (migration 0008): a UTC day's note for the organization ('') or a team's path. */
export interface ChartMarkTable {
  id: string;
  day: string;
  team: string;
  text: string;
  /** Who wrote it (their email, with sign-in); null without sign-in. */
  author: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * A personal API token (migration 0012): whose it is and until when, never the token itself: `hash` is the
 * SHA-256 of the token (hex), by which a request's token is looked up. Times are ISO instants.
 */
export interface ApiTokenTable {
  id: string;
  hash: string;
  /** The person it acts as (`canonicalEmail`): their role and teams are read at each request. */
  email: string;
  name: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** Who revoked it (the person, or an admin). */
  revoked_by: string | null;
}

/**
 * A team's goal (migration 0013): a share of `kind` to reach by `by_day`, for the organization ('') or a team's path,
 * drawn from `start_week` (the Monday of the last whole week when it was set).
 */
export interface TeamGoalTable {
  id: string;
  team: string;
  kind: string;
  /** The share to reach, 0 to 1. */
  target: number;
  by_day: string;
  start_week: string;
  /** Who set it (their email, with sign-in); null without sign-in. */
  author: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * A calendar quarter's intensity thresholds (migration 0014): the 25th, 50th and 75th percentiles of the active
 * people's credits over the four whole weeks `basis_start`–`basis_end`, over `people` people.
 */
export interface IntensityThresholdTable {
  /** `2026-Q2`. */
  quarter: string;
  p25: number;
  p50: number;
  p75: number;
  people: number;
  basis_start: string;
  basis_end: string;
  /** An ISO instant. */
  computed_at: string;
  /** The admin who refreshed them (their email); null when computed on first need. */
  refreshed_by: string | null;
}
