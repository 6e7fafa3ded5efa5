import { Link } from 'react-router-dom';
import type { Column } from '../../components/DataTable';
import { formatDayLong } from '../../lib/dates';
import type { MergedUser } from './merge';

const ratio = (n: number) => n.toFixed(1);

/** Every column of the merged users table; `link` builds the user page address. */
export function userColumns(link: (u: MergedUser) => string): Column<MergedUser>[] {
  return [
    {
      id: 'user',
      header: 'User',
      value: (u) => u.email ?? u.userId,
      render: (u) => (
        <Link to={link(u)} className="text-accent-strong underline">
          {u.email ?? <span className="font-mono text-xs">{u.userId}</span>}
        </Link>
      ),
    },
    { id: 'credits', header: 'Credits', value: (u) => u.credits, numeric: true },
    { id: 'toolCalls', header: 'Tool calls', value: (u) => u.toolCalls, numeric: true },
    { id: 'sessions', header: 'Sessions', value: (u) => u.sessions, numeric: true },
    { id: 'messages', header: 'Messages', value: (u) => u.messages, numeric: true },
    { id: 'userMessages', header: 'User messages', value: (u) => u.userMessages, numeric: true },
    { id: 'assistantMessages', header: 'Assistant messages', value: (u) => u.assistantMessages, numeric: true },
    { id: 'activeDays', header: 'Active days', value: (u) => u.activeDays, numeric: true },
    { id: 'firstDay', header: 'First active', value: (u) => u.firstDay, render: (u) => formatDayLong(u.firstDay) },
    { id: 'lastDay', header: 'Last active', value: (u) => u.lastDay, render: (u) => formatDayLong(u.lastDay) },
    { id: 'autonomy', header: 'Tool calls per turn', value: (u) => u.autonomyRatio, numeric: true, format: ratio },
    { id: 'model', header: 'Main model', value: (u) => u.primaryModel },
    { id: 'tier', header: 'Tier', value: (u) => u.primaryModelTier },
    { id: 'delegation', header: 'Delegation', value: (u) => u.delegationLevel },
    { id: 'languages', header: 'Languages', value: (u) => u.languages.join(', ') },
    { id: 'filesCreated', header: 'Files created', value: (u) => u.filesCreated, numeric: true },
    { id: 'filesEdited', header: 'Files edited', value: (u) => u.filesEdited, numeric: true },
    { id: 'commits', header: 'Commits', value: (u) => u.commits, numeric: true },
    { id: 'prs', header: 'Pull requests', value: (u) => u.prs, numeric: true },
    { id: 'mcpCalls', header: 'Tool-server calls', value: (u) => u.mcpCalls, numeric: true },
    { id: 'skillCalls', header: 'Skills', value: (u) => u.skillCalls, numeric: true },
    { id: 'slashCommands', header: 'Slash commands', value: (u) => u.slashCommands, numeric: true },
    { id: 'hooks', header: 'Hooks', value: (u) => u.hooks, numeric: true },
  ];
}

export const DEFAULT_COLUMNS = [
  'user',
  'credits',
  'toolCalls',
  'sessions',
  'activeDays',
  'autonomy',
  'model',
  'delegation',
  'languages',
];

/** The CSV carries every column, whatever is shown, with the id beside the email. */
export function usersCsv(users: readonly MergedUser[]) {
  const cols = userColumns(() => '').filter((c) => c.id !== 'user');
  return {
    header: ['user_id', 'user_email', ...cols.map((c) => c.id)],
    rows: users.map((u) => [u.userId, u.email, ...cols.map((c) => c.value(u))]),
  };
}
