import { Link } from 'react-router-dom';
import { sortRows, type Column } from '../../components/DataTable';
import type { SortState } from '../../data/search';
import { formatDayLong } from '../../lib/dates';
import { DEFINITIONS, labelled } from '../../lib/definitions';
import { spendColumn } from '../../components/SpendWidgets';
import { USER_COLUMN_VALUES as V, usersCsvColumns, type MergedUser } from '../../lib/user-merge';

const ratio = (n: number) => n.toFixed(1);

/**
 * Every column of the merged users table; `link` builds the user page address. What a column
 * shows, sorts by and writes to the CSV is `USER_COLUMN_VALUES`, which the server sorts with too.
 * Spend is a column only with the server's price list (`currency`); the last active day only from a server
 * with a store (`known`), which lists the people not active in the range too.
 */
export function userColumns(
  /**
   * A person's page; null when people are pseudonymous to the reader (privacy mode), or for a person without one
   * (never seen: no days to show): no page to open.
   */
  link: ((u: MergedUser) => string | null) | null,
  currency: string | null = null,
  teams = false,
  known = false,
): Column<MergedUser>[] {
  return [
    {
      id: 'user',
      header: 'User',
      value: V.user,
      render: (u) => {
        const to = link?.(u) ?? null;
        return to !== null ? (
          <Link to={to} className="text-accent-strong underline">
            {u.email ?? <span className="font-mono text-xs">{u.userId}</span>}
          </Link>
        ) : (
          <span className={link ? undefined : 'font-mono text-xs'}>{u.email ?? u.userId}</span>
        );
      },
    },
    // The figures a manager reads first sit next to the name, the team after them.
    { id: 'credits', header: 'Credits', value: V.credits, numeric: true },
    ...(currency === null ? [] : [spendColumn(currency, V.spend)]),
    ...(teams ? [teamColumn] : []),
    { id: 'toolCalls', header: 'Tool calls', value: V.toolCalls, numeric: true },
    { id: 'sessions', header: 'Sessions', value: V.sessions, numeric: true },
    { id: 'messages', header: 'Messages', value: V.messages, numeric: true },
    { id: 'userMessages', header: 'User messages', value: V.userMessages, numeric: true },
    { id: 'assistantMessages', header: 'Assistant messages', value: V.assistantMessages, numeric: true },
    { id: 'activeDays', header: 'Active days', value: V.activeDays, numeric: true },
    { id: 'firstDay', header: 'First day in range', value: V.firstDay, render: (u) => dayOrDash(u.firstDay) },
    { id: 'lastDay', header: 'Last day in range', value: V.lastDay, render: (u) => dayOrDash(u.lastDay) },
    ...(known ? [lastActiveColumn] : []),
    {
      id: 'autonomy',
      ...labelled(DEFINITIONS.toolCallsPerTurn),
      value: V.autonomy,
      numeric: true,
      format: ratio,
    },
    { id: 'model', header: 'Main model', value: V.model },
    { id: 'tier', header: 'Tier', value: V.tier },
    { id: 'delegation', header: 'Delegation', value: V.delegation },
    { id: 'languages', header: 'Languages', value: V.languages },
    { id: 'filesCreated', header: 'Files created', value: V.filesCreated, numeric: true },
    { id: 'filesEdited', header: 'Files edited', value: V.filesEdited, numeric: true },
    { id: 'commits', header: 'Commits', value: V.commits, numeric: true },
    { id: 'prs', header: 'Pull requests', value: V.prs, numeric: true },
    { id: 'mcpCalls', header: 'Tool-server calls', value: V.mcpCalls, numeric: true },
    { id: 'skillCalls', header: 'Skills', value: V.skillCalls, numeric: true },
    { id: 'slashCommands', header: 'Slash commands', value: V.slashCommands, numeric: true },
    { id: 'hooks', header: 'Hooks', value: V.hooks, numeric: true },
  ];
}

const dayOrDash = (d: string | null | undefined) => (d ? formatDayLong(d) : '–');

/** The latest day of activity up to the range's end, in the range or before it. */
const lastActiveColumn: Column<MergedUser> = {
  id: 'lastActiveDay',
  ...labelled(DEFINITIONS.lastActiveDay),
  value: V.lastActiveDay,
  render: (u) => dayOrDash(u.lastActiveDay),
};

/** The person's team by the mapping in force, with its managers beneath (a server with a store only). */
const teamColumn: Column<MergedUser> = {
  id: 'team',
  header: 'Team',
  value: V.team,
  render: (u) => (
    <span className="block min-w-32">
      <span className="block">{u.team ?? '–'}</span>
      {u.managers && u.managers.length > 0 && (
        <span className="block text-xs text-fg-muted">Manager {u.managers.join(', ')}</span>
      )}
    </span>
  ),
};

/**
 * The columns of a list of people with no day of activity in the range (not active, never used, inactive for as long
 * as the range or longer): their figures are all 0, so the list shows who they are, their team and when they last
 * used the agent (never used: never).
 */
export const IDLE_COLUMNS: Record<'inactive' | 'never', readonly string[]> = {
  inactive: ['user', 'team', 'lastActiveDay'],
  never: ['user', 'team'],
};

/** Shown until the reader picks columns (spend only where there is a price list). */
export const DEFAULT_COLUMNS = [
  'user',
  'credits',
  'spend',
  'team',
  'toolCalls',
  'sessions',
  'activeDays',
  'lastActiveDay',
  'autonomy',
  'model',
  'delegation',
  'languages',
];

export { DEFAULT_SORT } from './table-query';

/** The CSV of the users the browser merged: every column, whatever is shown, the id beside the email, in the table's order. */
export function usersCsv(users: readonly MergedUser[], sort: SortState) {
  const sorted = sortRows(
    users,
    userColumns(() => ''),
    sort,
  );
  const csv = usersCsvColumns();
  return { header: csv.header, rows: sorted.map(csv.row) };
}
