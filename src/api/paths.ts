/** The documented GET paths (service-interface.md §4). */
export const ANALYTICS_PREFIX = '/api/v1/analytics';

export const PATHS = {
  tokens: `${ANALYTICS_PREFIX}/tokens`,
  tools: `${ANALYTICS_PREFIX}/tools`,
  activity: `${ANALYTICS_PREFIX}/activity`,
  productivity: `${ANALYTICS_PREFIX}/productivity`,
  users: `${ANALYTICS_PREFIX}/users`,
  readiness: '/api/organization/maturity-level-reports',
} as const;

export const ANALYTICS_PATHS: readonly string[] = [
  PATHS.tokens,
  PATHS.tools,
  PATHS.activity,
  PATHS.productivity,
  PATHS.users,
];

export const DOCUMENTED_PATHS: readonly string[] = [...ANALYTICS_PATHS, PATHS.readiness];

/** The `group_by` value each analytics endpoint accepts (§4.1). */
export const GROUP_BY: Readonly<Record<string, string | undefined>> = {
  [PATHS.tokens]: 'model',
  [PATHS.tools]: 'tool_name',
  [PATHS.activity]: 'client',
};
