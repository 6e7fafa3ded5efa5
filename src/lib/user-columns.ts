/**
 * The users table's column ids (in table order) and which people it lists: what a URL may say, read on every
 * page (the users page's link and preload), without the merge and the columns' values (user-merge.ts, which
 * gives each of these columns its value and re-exports these).
 */

const IDS = [
  'user',
  'team',
  'credits',
  'spend',
  'toolCalls',
  'sessions',
  'messages',
  'userMessages',
  'assistantMessages',
  'activeDays',
  'firstDay',
  'lastDay',
  'lastActiveDay',
  'autonomy',
  'model',
  'tier',
  'delegation',
  'languages',
  'filesCreated',
  'filesEdited',
  'commits',
  'prs',
  'mcpCalls',
  'skillCalls',
  'slashCommands',
  'hooks',
] as const;
export type UserColumnId = (typeof IDS)[number];
/** The columns of the users table, in table order (`USER_COLUMN_VALUES` in user-merge.ts has one value each). */
export const USER_COLUMN_IDS: UserColumnId[] = [...IDS];
const KNOWN: ReadonlySet<string> = new Set(IDS);
export const isUserColumn = (id: string): id is UserColumnId => KNOWN.has(id);

/** Which people a table lists: those active in the range (the default), the known people who were not, or both. */
export const WHO = ['active', 'inactive', 'all'] as const;
export type Who = (typeof WHO)[number];
