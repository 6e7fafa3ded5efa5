import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { analyticsQuery } from '../../data/analytics';
import { useAppConfig } from '../../data/config';
import { userDaysQuery, type UserDays } from './queries';
import { useCallback } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../api/errors';
import type { TokenDay, UserRow } from '../../api/schemas';
import { useLinkTo, useRange } from '../../data/search';
import { BreakdownWidget, TableWidget } from '../../components/TableWidget';
import type { Column } from '../../components/DataTable';
import { definedAs, KpiGrid } from '../../components/KpiGrid';
import { PageHeader } from '../../components/Page';
import { seriesColor } from '../../components/TimeSeriesChart';
import { IntervalSwitch, TimeSeriesWidget } from '../../components/TimeSeriesWidget';
import { formatDayLong } from '../../lib/dates';
import { DEFINITIONS } from '../../lib/definitions';
import { formatPercent } from '../../lib/format';
import { MonthSpendWidget, spendKpi, useSpend } from '../../components/SpendWidgets';
import { PersonBudgets } from './PersonBudgets';
import { PersonIntensity } from './PersonIntensity';
import { withList } from './place';
import { userCredits, userDailyPoints } from './user-shaping';

const ROW_COLUMNS: Column<UserRow>[] = [
  { id: 'date', header: 'Day (UTC)', value: (r) => r.date, render: (r) => formatDayLong(r.date) },
  { id: 'billable_tokens', header: 'Credits', value: (r) => r.billable_tokens, numeric: true },
  { id: 'tool_calls', header: 'Tool calls', value: (r) => r.tool_calls, numeric: true },
  { id: 'sessions', header: 'Sessions', value: (r) => r.sessions, numeric: true },
  { id: 'messages', header: 'Messages', value: (r) => r.messages, numeric: true },
  { id: 'user_messages', header: 'User messages', value: (r) => r.user_messages, numeric: true },
  { id: 'assistant_messages', header: 'Assistant messages', value: (r) => r.assistant_messages, numeric: true },
  {
    id: 'autonomy_ratio',
    header: DEFINITIONS.toolCallsPerTurn.label,
    value: (r) => r.autonomy_ratio,
    numeric: true,
    format: (n) => n.toFixed(2),
  },
  { id: 'files_created', header: 'Files created', value: (r) => r.files_created, numeric: true },
  { id: 'files_edited', header: 'Files edited', value: (r) => r.files_edited, numeric: true },
  { id: 'git_commits', header: 'Commits', value: (r) => r.git_commits, numeric: true },
  { id: 'git_prs_created', header: 'Pull requests', value: (r) => r.git_prs_created, numeric: true },
  { id: 'mcp_calls', header: 'Tool-server calls', value: (r) => r.mcp_calls, numeric: true },
  { id: 'skill_calls', header: 'Skills', value: (r) => r.skill_calls, numeric: true },
  { id: 'slash_commands', header: 'Slash commands', value: (r) => r.slash_commands, numeric: true },
  { id: 'hooks', header: 'Hooks', value: (r) => r.hooks, numeric: true },
  { id: 'primary_model', header: 'Main model', value: (r) => r.primary_model },
  { id: 'primary_model_tier', header: 'Tier', value: (r) => r.primary_model_tier },
  { id: 'delegation_level', header: 'Delegation', value: (r) => r.delegation_level },
  { id: 'languages', header: 'Languages', value: (r) => r.languages.join(', ') },
];

/** A person's charts show the organization's marks (a team's are its managers'). */
const ORG_MARKS: readonly string[] = [];

const selectDays = (d: UserDays) => d.days;
const selectUser = (d: UserDays) => d.user;

export default function UserPage() {
  const { userId = '' } = useParams();
  const { range } = useRange();
  const linkTo = useLinkTo();
  const [params] = useSearchParams();
  // The list the reader came from, as they left it (its search, filters, list and sort travel in this address).
  const back = (
    <p className="text-sm">
      <Link to={withList(linkTo('/users'), params)} className="text-accent-strong underline">
        ← All users
      </Link>
    </p>
  );
  // From the server's store when it keeps one (one request); otherwise a walk of every user's pages.
  const { keyRequired, historyStart, teams } = useAppConfig();
  const options = { ...userDaysQuery(userId, range, !keyRequired), placeholderData: keepPreviousData };
  const source = useQuery(options);
  const rows = useQuery({ ...options, select: selectDays });
  const merged = useQuery({ ...options, select: selectUser });
  const daily = useQuery({ ...options, select: (d: UserDays) => userDailyPoints(range, d.days) });
  const progress = source.data && !source.data.complete ? source.data.progress : undefined;
  // While the server fills the range, the widgets wait rather than show an empty range.
  const waiting = { data: undefined, status: 'pending' as const };
  const rowsSource = progress ? waiting : rows;
  const dailySource = progress ? waiting : daily;
  const selectCredits = useCallback((r: { data: TokenDay[] }) => userCredits(userId, r.data), [userId]);
  const credits = useQuery({
    ...analyticsQuery('tokens', range),
    placeholderData: keepPreviousData,
    select: selectCredits,
  });
  const models = useQuery({
    ...analyticsQuery('tokens', range),
    placeholderData: keepPreviousData,
    select: (r) => selectCredits(r).models,
  });
  const spend = useSpend(range, [], { user: userId, enabled: !keyRequired });
  const u = merged.data;
  const name = u?.email ?? (rows.data?.length === 0 ? userId : (u?.userId ?? userId));
  const file = (n: string) => `${n}-${userId}-${range.start}-${range.end}`;

  // No such person, or one the reader may not see: a sentence, not a page of empty cards.
  const refused = source.error instanceof ApiError && source.error.status === 403 ? source.error : undefined;
  if (source.data?.unknown || (refused && !source.data))
    return (
      <div className="flex flex-col gap-4">
        {back}
        <PageHeader title={userId} />
        <div role="status" className="rounded bg-warning-surface p-3 text-sm text-warning-fg">
          {refused ? (
            <>
              <p className="font-medium">This person’s page is not shown to you.</p>
              <p>{refused.detail}</p>
            </>
          ) : (
            <>
              <p className="font-medium">No such person in this organization.</p>
              <p>
                No one with the id <code className="select-all">{userId}</code> has a day of activity in the history the
                dashboard keeps (since {formatDayLong(historyStart)}). The link may be mistyped, or they have not used
                the agent yet: the users page lists the people the team mapping names who never used it.
              </p>
            </>
          )}
        </div>
      </div>
    );

  return (
    <div className="flex flex-col gap-4">
      {back}
      <PageHeader title={name}>
        <IntervalSwitch />
      </PageHeader>
      {u && (
        <p className="text-sm text-fg-muted">
          User id <code className="select-all">{u.userId}</code>
          {u.team !== undefined && (
            <>
              {' '}
              · team <strong>{u.team}</strong>
              {u.managers && u.managers.length > 0 && <> (manager {u.managers.join(', ')})</>}
            </>
          )}{' '}
          · delegation <strong>{u.delegationLevel}</strong> · main model <strong>{u.primaryModel}</strong> (
          {u.primaryModelTier}) · languages <strong>{u.languages.join(', ') || '–'}</strong>
          {u.firstDay && u.lastDay && (
            <>
              {' '}
              · active {formatDayLong(u.firstDay)} – {formatDayLong(u.lastDay)}
            </>
          )}
        </p>
      )}
      {source.data?.complete && !source.data.unknown && rows.data?.length === 0 && !rows.isFetching && (
        <p role="status" className="rounded bg-warning-surface p-3 text-sm text-warning-fg">
          This user had no activity from {formatDayLong(range.start)} to {formatDayLong(range.end)}.
        </p>
      )}
      {rows.isFetching && !rows.data && (
        <p role="status" className="text-sm text-fg-muted">
          {keyRequired ? 'Reading the per-user pages for this range…' : "Reading this user's days…"}
        </p>
      )}
      {progress && (
        <p role="status" className="text-sm text-fg-muted">
          <span aria-hidden="true" className="mr-1.5 inline-block size-1.5 animate-pulse rounded-full bg-accent" />
          Reading the users of this range from the service: {progress.storedDays} of {progress.days} days stored…
        </p>
      )}
      <KpiGrid
        items={[
          { ...definedAs(DEFINITIONS.standardCredits), value: u?.credits },
          ...(spend.currency !== null
            ? [{ ...spendKpi(spend.currency, spend.query.data), definition: DEFINITIONS.spend }]
            : []),
          { ...definedAs(DEFINITIONS.creditShare), value: credits.data?.share, format: formatPercent },
          { ...definedAs(DEFINITIONS.toolCalls), value: u?.toolCalls },
          { ...definedAs(DEFINITIONS.sessions), value: u?.sessions },
          { ...definedAs(DEFINITIONS.activeDays), value: u?.activeDays },
          {
            label: DEFINITIONS.toolCallsPerTurn.label,
            value: u?.autonomyRatio,
            format: (n) => n.toFixed(1),
            hint: 'over the range',
            definition: DEFINITIONS.toolCallsPerTurn,
          },
        ]}
      />
      {teams && <PersonIntensity userId={userId} range={range} who={name} />}
      {spend.currency !== null && (
        <MonthSpendWidget
          query={spend.query}
          who={name}
          budgets={<PersonBudgets range={range} team={u ? (u.team ?? null) : undefined} who={name} />}
        />
      )}
      <div className="grid gap-4 lg:grid-cols-2">
        <TimeSeriesWidget
          title="Credits"
          query={dailySource}
          series={[{ key: 'credits', label: 'Standard credits', color: seriesColor(0), csv: 'billable_tokens' }]}
          filename={file('credits')}
          what="The user's standard credits"
          marksOf={ORG_MARKS}
        />
        <TimeSeriesWidget
          title="Tool calls"
          query={dailySource}
          kind="bar"
          series={[{ key: 'toolCalls', label: 'Tool calls', color: seriesColor(1), csv: 'tool_calls' }]}
          filename={file('tool-calls')}
          what="The user's tool calls"
          marksOf={ORG_MARKS}
        />
        <TimeSeriesWidget
          title="Sessions and messages"
          query={dailySource}
          kind="line"
          series={[
            { key: 'sessions', label: 'Sessions', color: seriesColor(3), csv: 'sessions' },
            { key: 'messages', label: 'Messages', color: seriesColor(0), csv: 'messages' },
            { key: 'userMessages', label: 'User messages', color: seriesColor(4), csv: 'user_messages' },
          ]}
          filename={file('sessions-messages')}
          what="The user's sessions and messages"
          marksOf={ORG_MARKS}
        />
        <BreakdownWidget
          id="userModels"
          title="Credits by model"
          description="From the credits endpoint's per-user breakdown."
          nameHeader="Model"
          valueHeader="Credits"
          query={models}
          filename={file('credits-by-model')}
        />
      </div>
      <TableWidget
        id="rows"
        title="Daily rows"
        description="The service's per-day rows for this user."
        query={rowsSource}
        columns={ROW_COLUMNS}
        rowKey={(r) => r.date}
        defaultSort={{ column: 'date', dir: 'desc' }}
        filename={`${file('daily-rows')}`}
        emptyText="No activity in this range."
      />
    </div>
  );
}
