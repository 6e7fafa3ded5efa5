import { pageRefusal, usePseudonymous, useReader } from '../../data/me';
import { MonthSpendWidget, spendColumn, spendKpi, useSpend } from '../../components/SpendWidgets';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import { UNASSIGNED, type TeamSummaryRow } from '../../api/teams';
import type { Column } from '../../components/DataTable';
import { Breadcrumb } from '../../components/Breadcrumb';
import { definedAs, KpiGrid } from '../../components/KpiGrid';
import { PageHeader } from '../../components/Page';
import { TableWidget } from '../../components/TableWidget';
import { seriesColor } from '../../components/TimeSeriesChart';
import { IntervalSwitch, TimeSeriesWidget } from '../../components/TimeSeriesWidget';
import type { WidgetSource } from '../../components/Widget';
import { ErrorState } from '../../components/states';
import { analyticsQuery } from '../../data/analytics';
import { useAppConfig } from '../../data/config';
import { useLinkTo, useRange } from '../../data/search';
import { comparisonLabel, formatDayLong } from '../../lib/dates';
import { DEFINITIONS, labelled } from '../../lib/definitions';
import { formatExact, formatPercent } from '../../lib/format';
import { fillDays } from '../../lib/series';
import { USER_COLUMN_VALUES as V, type MergedUser } from '../../lib/user-merge';
import { TEAMS_SORT, ratio, teamColumns } from './columns';
import { NoTeams } from './NoTeams';
import { IntensityWidget } from './IntensityWidget';
import { FunnelWidget } from './FunnelWidget';
import { funnelQuery } from './funnel';
import { GoalWidget } from './GoalWidget';
import { OutcomeRatiosWidget } from './OutcomeRatiosWidget';
import { TeamRepositories } from './TeamRepositories';
import { PayoffSection } from './PayoffSection';
import { useOrganizationWeeks, useTeamWeeks } from './team-weeks';
import { MEMBERS_LIMIT, teamIntensityQuery, teamMembersQuery, teamsSummaryQuery } from './queries';
import { ancestorsOf, lastPart, subTeamsOf, teamHref } from './shaping';

const SUB_TEAM_COLUMNS = [
  'team',
  'members',
  'active',
  'adoption',
  'credits',
  'creditsChange',
  'creditsPerActive',
  'toolCallsPerTurn',
];

const MEMBERS_SORT = { column: 'credits', dir: 'desc' } as const;

/** The file-name form of a team path: `Engineering/Platform` → `Engineering-Platform`. */
const fileSafe = (path: string) => path.replace(/[^\w.-]+/g, '-');

/** "+5.0 pts": a change of a share, in percentage points. */
const points = (now: number, before: number) => {
  const d = (now - before) * 100;
  return `${d > 0 ? '+' : d < 0 ? '−' : '±'}${Math.abs(d).toFixed(1)} pts`;
};

/** One team: `/teams/<path>`, each part of the path encoded. */
export default function TeamPage() {
  const { teams } = useAppConfig();
  const path = useParams()['*'] ?? '';
  if (!teams) {
    return (
      <div className="flex flex-col gap-4">
        <PageHeader title={lastPart(path)} />
        <NoTeams />
      </div>
    );
  }
  // A new team starts afresh (its charts' table/chart toggles, its scroll positions).
  return <Team key={path} path={path} />;
}

function TeamBreadcrumb({ path, name }: { path: string; name: string }) {
  const linkTo = useLinkTo();
  const up = ancestorsOf(path).map((a) => ({ label: lastPart(a), to: linkTo(teamHref(a)) }));
  return <Breadcrumb trail={[{ label: 'Teams', to: linkTo('/teams') }, ...up]} current={name} />;
}

function Team({ path }: { path: string }) {
  const { range } = useRange();
  const linkTo = useLinkTo();
  const summary = useQuery({ ...teamsSummaryQuery(range), placeholderData: keepPreviousData });
  const row = summary.data?.rows.find((r) => r.team === path);
  const unknown = summary.isSuccess && !summary.isPlaceholderData && !row;
  const asked = !unknown;
  const credits = useQuery({
    ...analyticsQuery('tokens', range, '', [path]),
    placeholderData: keepPreviousData,
    enabled: asked,
    select: (a) => fillDays(range, a.data, (d) => ({ credits: d.billable_tokens }), { credits: 0 }),
  });
  const activity = useQuery({
    ...analyticsQuery('activity', range, '', [path]),
    placeholderData: keepPreviousData,
    enabled: asked,
    select: (a) =>
      fillDays(
        range,
        a.data,
        (d) => ({ dau: d.daily_active_users, sessions: d.sessions, userMessages: d.user_messages }),
        { dau: 0, sessions: 0, userMessages: 0 },
      ),
  });
  const subTeams = useQuery({
    ...teamsSummaryQuery(range),
    placeholderData: keepPreviousData,
    select: (s) => subTeamsOf(s.rows, path),
  });
  const members = useQuery({ ...teamMembersQuery(range, path), placeholderData: keepPreviousData, enabled: asked });
  const spend = useSpend(range, [path], { enabled: asked });
  const intensity = useQuery({ ...teamIntensityQuery(range, path), placeholderData: keepPreviousData, enabled: asked });
  const funnel = useQuery({ ...funnelQuery(range, [path], 'week'), placeholderData: keepPreviousData, enabled: asked });
  const { weeks } = useTeamWeeks(range, path, asked);
  // The organization's line beside the team's ratios, for a reader who sees the organization's figures: asked once
  // the team's own weeks are in, so the team's charts do not wait behind it.
  const reader = useReader();
  const seesOrganization = reader?.orgView !== false;
  const { weeks: orgWeeks } = useOrganizationWeeks(range, asked && seesOrganization && weeks.data !== undefined);
  const allColumns = useMemo(() => teamColumns(range), [range]);
  const subColumns = useMemo<Column<TeamSummaryRow>[]>(
    () =>
      allColumns
        .filter((c) => SUB_TEAM_COLUMNS.includes(c.id))
        .map((c) =>
          c.id === 'team'
            ? {
                ...c,
                header: 'Sub-team',
                render: (r) => (
                  <Link to={linkTo(teamHref(r.team))} className="text-accent-strong underline">
                    {r.name}
                  </Link>
                ),
              }
            : c,
        ),
    [allColumns, linkTo],
  );
  const pseudonymous = usePseudonymous();
  const memberColumns = useMemo<Column<MergedUser>[]>(
    () => [
      {
        id: 'user',
        header: 'Member',
        value: V.user,
        render: (u) =>
          pseudonymous ? (
            <span className="font-mono text-xs">{u.userId}</span>
          ) : (
            <Link to={linkTo(`/users/${encodeURIComponent(u.userId)}`)} className="text-accent-strong underline">
              {u.email ?? <span className="font-mono text-xs">{u.userId}</span>}
            </Link>
          ),
      },
      { id: 'credits', header: 'Credits', value: V.credits, numeric: true },
      ...(spend.currency === null ? [] : [spendColumn(spend.currency, V.spend)]),
      { id: 'toolCalls', header: 'Tool calls', value: V.toolCalls, numeric: true },
      {
        id: 'autonomy',
        ...labelled(DEFINITIONS.toolCallsPerTurn),
        value: V.autonomy,
        numeric: true,
        format: ratio,
      },
      { id: 'sessions', header: 'Sessions', value: V.sessions, numeric: true },
      { id: 'activeDays', header: 'Active days', value: V.activeDays, numeric: true },
      { id: 'commits', header: 'Commits', value: V.commits, numeric: true },
      { id: 'prs', header: 'Pull requests', value: V.prs, numeric: true },
      {
        id: 'lastDay',
        header: 'Last active',
        value: V.lastDay,
        render: (u) => (u.lastDay ? formatDayLong(u.lastDay) : '–'),
      },
    ],
    [linkTo, spend.currency, pseudonymous],
  );

  const mayMap = pageRefusal(reader, '/settings/teams') === null;
  const name = row?.name ?? lastPart(path);
  const file = (what: string) => `team-${fileSafe(path)}-${what}-${range.start}-${range.end}`;

  if (unknown) {
    return (
      <div className="flex flex-col gap-4">
        <TeamBreadcrumb path={path} name={name} />
        <PageHeader title="Team not found" />
        <div role="status" className="rounded-lg border border-line bg-surface p-6 text-sm">
          <p>
            The team mapping in force has no team <strong>{path || '(no name)'}</strong>. It may have been renamed or
            removed, or the link may be mistyped.
          </p>
          <p className="mt-2 flex flex-wrap gap-4">
            <Link to={linkTo('/teams')} className="text-accent-strong underline">
              All teams
            </Link>
            {mayMap && (
              <Link to={linkTo('/settings/teams')} className="text-accent-strong underline">
                Team mapping
              </Link>
            )}
          </p>
        </div>
      </div>
    );
  }

  const cur = row?.current;
  const prev = row?.previous;
  const hasPrevious = summary.data ? summary.data.previous !== null && prev !== null : undefined;
  const m = members.data;
  const progress = m && !m.complete ? m.progress : undefined;
  // While the server reads the range, the table waits (or shows the table as it was) rather than look empty.
  const membersSource: WidgetSource<MergedUser[]> = {
    data: m && (m.complete || m.users.length > 0) ? m.users : undefined,
    status: m && !m.complete && m.users.length === 0 ? 'pending' : members.status,
    error: members.error,
    isPlaceholderData: members.isPlaceholderData,
    isFetching: members.isFetching,
    refetch: members.refetch,
  };

  return (
    <div className="flex flex-col gap-4">
      <TeamBreadcrumb path={path} name={name} />
      <PageHeader title={name} teams={[path]}>
        <IntervalSwitch />
      </PageHeader>
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-fg-muted">
        {path !== UNASSIGNED && row && (
          <span>
            {row.managers.length === 0 ? (
              'No manager is listed for this team in the team mapping.'
            ) : (
              <>
                {row.managers.length === 1 ? 'Manager' : 'Managers'}:{' '}
                <span className="text-fg">{row.managers.join(', ')}</span>
              </>
            )}
          </span>
        )}
        <Link to={linkTo('/', { team: [path] })} className="text-accent-strong underline">
          Show every page for this team
        </Link>
      </p>
      {summary.isError && !row && <ErrorState error={summary.error} onRetry={() => void summary.refetch()} />}
      <KpiGrid
        hasPrevious={hasPrevious}
        items={[
          // Membership is the mapping as it stands: there is no earlier headcount to compare with.
          {
            label: DEFINITIONS.members.label,
            value: cur?.members,
            hint: 'as the mapping stands now',
            definition: DEFINITIONS.members,
          },
          {
            label: DEFINITIONS.activePeople.label,
            value: cur?.active,
            previous: prev?.active,
            definition: DEFINITIONS.activePeople,
          },
          {
            label: DEFINITIONS.adoption.label,
            definition: DEFINITIONS.adoption,
            value: cur?.adoption,
            format: formatPercent,
            // A change of a share reads in points, not as a change of the share itself.
            hint:
              cur?.adoption != null && prev?.adoption != null
                ? `${points(cur.adoption, prev.adoption)} ${comparisonLabel(range)}`
                : 'active people ÷ members',
          },
          { label: 'Credits', value: cur?.credits, previous: prev?.credits, definition: DEFINITIONS.standardCredits },
          ...(spend.currency !== null
            ? [{ ...spendKpi(spend.currency, spend.query.data), definition: DEFINITIONS.spend }]
            : []),
          {
            label: DEFINITIONS.creditsPerActivePerson.label,
            value: cur?.creditsPerActive,
            previous: prev?.creditsPerActive,
            definition: DEFINITIONS.creditsPerActivePerson,
          },
          {
            label: DEFINITIONS.toolCallsPerTurn.label,
            value: cur?.toolCallsPerTurn,
            previous: prev?.toolCallsPerTurn,
            format: ratio,
            hint: 'over the range',
            definition: DEFINITIONS.toolCallsPerTurn,
          },
          { ...definedAs(DEFINITIONS.sessions), value: cur?.sessions, previous: prev?.sessions },
          { ...definedAs(DEFINITIONS.commits), value: cur?.commits, previous: prev?.commits },
          { ...definedAs(DEFINITIONS.pullRequests), value: cur?.prs, previous: prev?.prs },
        ]}
      />
      {/* Unassigned is not a team: it has no goal. */}
      {path !== UNASSIGNED && <GoalWidget team={path} name={name} />}
      <TimeSeriesWidget
        title="Credits"
        description="Standard credits of the team's people, sub-teams included."
        query={credits}
        series={[{ key: 'credits', label: 'Standard credits', color: seriesColor(0), csv: 'billable_tokens' }]}
        filename={file('credits')}
        what={`The standard credits of ${name}`}
        marksOf={[path]}
      />
      {spend.currency !== null && <MonthSpendWidget query={spend.query} who={name} />}
      <div className="grid gap-4 lg:grid-cols-2">
        <TimeSeriesWidget
          title="Daily active people"
          description="Distinct people of the team, sub-teams included, active each day."
          query={activity}
          kind="line"
          series={[{ key: 'dau', label: 'Active people', color: seriesColor(1), csv: 'daily_active_users' }]}
          rollup={{ dau: 'mean' }}
          filename={file('active-users')}
          what={`The daily active people of ${name}`}
          marksOf={[path]}
        />
        <TimeSeriesWidget
          title="Sessions and user turns"
          query={activity}
          kind="line"
          series={[
            { key: 'sessions', label: 'Sessions', color: seriesColor(3), csv: 'sessions' },
            { key: 'userMessages', label: 'User turns', color: seriesColor(4), csv: 'user_messages' },
          ]}
          filename={file('sessions-turns')}
          what={`The sessions and user turns of ${name}`}
          marksOf={[path]}
        />
      </div>
      <OutcomeRatiosWidget
        weeks={weeks}
        organization={seesOrganization ? orgWeeks : null}
        currency={spend.currency}
        team={path}
        name={name}
        filename={file('outcome-ratios-weekly')}
      />
      <IntensityWidget answer={intensity} range={range} team={path} name={name} filename={file('intensity-weekly')} />
      <FunnelWidget answer={funnel} range={range} teams={[path]} name={name} filename={file('onboarding-weekly')} />
      {/* Unassigned owns no repositories: it is not a team. */}
      {path !== UNASSIGNED && <TeamRepositories path={path} name={name} range={range} />}
      {path !== UNASSIGNED && <PayoffSection path={path} name={name} range={range} weeks={weeks} />}
      {row?.hasChildren && (
        <TableWidget
          id="subteams"
          title="Sub-teams"
          description="Each sub-team's figures include its own sub-teams."
          query={subTeams}
          columns={subColumns}
          rowKey={(r) => r.team}
          defaultSort={TEAMS_SORT}
          filename={file('sub-teams')}
          emptyText="No sub-teams."
        />
      )}
      {progress && (
        <p role="status" className="text-sm text-fg-muted">
          <span aria-hidden="true" className="mr-1.5 inline-block size-1.5 animate-pulse rounded-full bg-accent" />
          Reading the users of this range from the service: {formatExact(progress.storedDays)} of{' '}
          {formatExact(progress.days)} days stored…
        </p>
      )}
      <TableWidget
        id="members"
        title="Members active in the range"
        description={
          cur && m?.complete
            ? `${formatExact(m.total)} of the ${formatExact(cur.members)} members were active from ${formatDayLong(range.start)} to ${formatDayLong(range.end)}.`
            : 'The team’s people active in the range, sub-teams included.'
        }
        query={membersSource}
        columns={memberColumns}
        rowKey={(u) => u.userId}
        defaultSort={MEMBERS_SORT}
        filename={file('members')}
        emptyText="No member of this team was active in this range."
        footnote={
          m && m.total > m.users.length ? (
            <>
              The {formatExact(m.users.length)} members with the most credits of {formatExact(m.total)} active are shown
              (at most {formatExact(MEMBERS_LIMIT)});{' '}
              <Link to={linkTo('/users', { team: [path] })} className="text-accent-strong underline">
                the Users page with this team selected
              </Link>{' '}
              lists them all.
            </>
          ) : undefined
        }
      />
    </div>
  );
}
