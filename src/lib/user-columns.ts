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

/**
 * The seats' lists: the people the team mapping names (`named`), those of them active in the range, those with no
 * day of activity in the 7 or the 30 days to its end though they had used the agent before, and those who had never
 * used it by then.
 */
export const SEAT_LISTS = ['named', 'named-active', 'idle-7', 'idle-30', 'never'] as const;
export type SeatList = (typeof SEAT_LISTS)[number];
export const isSeatList = (who: string): who is SeatList => (SEAT_LISTS as readonly string[]).includes(who);

/**
 * Which people a table lists: those active in the range (the default), the known people who were not, or both; or
 * one of the seats' lists.
 */
export const WHO = ['active', 'inactive', 'all', ...SEAT_LISTS] as const;
export type Who = (typeof WHO)[number];

/** What each list's CSV file is named with, after `users` (the active people's: nothing). */
export const WHO_FILE_TAG: Record<Who, string> = {
  active: '',
  inactive: '-not-active',
  all: '-everyone',
  named: '-named',
  'named-active': '-named-active',
  'idle-7': '-inactive-7-days',
  'idle-30': '-inactive-30-days',
  never: '-never-used',
};

/**
 * The lists of people not using the agent, whom new starters in their days of grace (lib/funnel.ts `inGrace`) are
 * kept out of: they are new, not lagging behind.
 */
export const UNUSED_LISTS = ['inactive', 'idle-7', 'idle-30', 'never'] as const satisfies readonly Who[];
export type UnusedList = (typeof UNUSED_LISTS)[number];
export const isUnusedList = (who: string): who is UnusedList => (UNUSED_LISTS as readonly string[]).includes(who);

/** The lists whose people had no day of activity in the range: every figure of theirs is 0. */
export const IDLE_LISTS: readonly Who[] = ['inactive', 'never'];
