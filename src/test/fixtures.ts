/** Rows shaped like the service's answers, for tests: one factory, overridden per test. */
import type { UserRow } from '../api/schemas';

/** A `/users` row (§2.7) of one user on one day; every count small and consistent. */
export const userRow = (over: Partial<UserRow> = {}): UserRow => ({
  user_id: 'u1',
  user_email: 'a@x',
  date: '2026-02-01',
  tool_calls: 10,
  billable_tokens: 100,
  primary_model: 'sonnet',
  primary_model_tier: 'standard',
  files_created: 1,
  files_edited: 2,
  git_commits: 1,
  git_prs_created: 0,
  mcp_calls: 0,
  skill_calls: 0,
  slash_commands: 0,
  hooks: 0,
  sessions: 1,
  messages: 6,
  user_messages: 2,
  assistant_messages: 4,
  autonomy_ratio: 5,
  delegation_level: 'auto-high',
  languages: ['Go'],
  ...over,
});
