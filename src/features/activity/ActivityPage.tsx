import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { analyticsQuery } from '../../data/analytics';
import { teamsFileTag, useRange, useTeams } from '../../data/search';
import { definedAs, KpiGrid } from '../../components/KpiGrid';
import { OrgOnlyWidget } from '../../components/OrgOnly';
import { BelowTheFold, PageHeader } from '../../components/Page';
import { useAppConfig } from '../../data/config';
import { CohortsWidget } from './Cohorts';
import { groupSeries, seriesColor } from '../../components/TimeSeriesChart';
import { IntervalSwitch, TimeSeriesWidget } from '../../components/TimeSeriesWidget';
import { previousPeriod } from '../../lib/dates';
import { DEFINITIONS } from '../../lib/definitions';
import { formatDecimal } from '../../lib/format';
import { pivotTopN, pointKeys } from '../../lib/series';
import { activityPoints, activityTotals } from './shaping';
import type { ActivityDay } from '../../api/schemas';

/** "How to read this page", folded under its title (components/Page.tsx): how the page works. */
const HOW_TO_READ = [
  'Sessions, messages and the people active (a day of activity reported by the service) per day, and per client.',
  'Daily active people are the distinct people of a day; weekly and monthly, of the trailing 7 and 30 days.',
  'Adoption cohorts group people by the week they were first active and show the share of them active again 1, 2, 4 … weeks later; a week not over yet is blank, not zero.',
];

const CLIENT_LABELS: Record<string, string> = {
  'terminal-ui': 'Terminal (interactive)',
  web: 'Web application',
  'non-interactive-cli': 'Headless / automated CLI',
};

type ClientRow = { date: string; group_key: string; daily_active_users: number };

// Selectors are stable functions: a page's re-render (a new URL, another answer) does not shape an answer again.
const selectTotals = (r: { data: readonly ActivityDay[] }) => activityTotals(r.data);

export default function ActivityPage() {
  const { range } = useRange();
  const [teams] = useTeams();
  // With a store, the cohorts of who came back (and the signed-in reader may see them).
  const { teams: stored } = useAppConfig();
  // Active people per client are given for the whole organization only: not asked for a team.
  const teamed = teams.length > 0;
  const prevRange = previousPeriod(range);
  const base = { ...analyticsQuery('activity', range, '', teams), placeholderData: keepPreviousData };
  const totals = useQuery({ ...base, select: selectTotals });
  const prev = useQuery({
    ...analyticsQuery('activity', prevRange ?? range, '', teams),
    enabled: prevRange !== null,
    select: selectTotals,
  });
  const daily = useQuery({
    ...base,
    select: useCallback((r: { data: readonly ActivityDay[] }) => activityPoints(range, r.data), [range]),
  });
  const byClient = useQuery({
    ...analyticsQuery('activity', range, 'client'),
    enabled: !teamed,
    placeholderData: keepPreviousData,
    select: useCallback(
      (r: { data: readonly ClientRow[] }) => pivotTopN(range, r.data, (g) => g.daily_active_users, 10).points,
      [range],
    ),
  });
  const clientKeys = pointKeys(byClient.data);
  const t = totals.data;
  const p = prev.data;
  const file = (name: string) => `${name}${teamsFileTag(teams)}-${range.start}-${range.end}`;
  // A daily average of people keeps its one decimal, written as every count is: "1,141.7".
  const oneDecimal = (n: number) => formatDecimal(n, 1);

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title="Activity" teams={teams} howToRead={HOW_TO_READ}>
        <IntervalSwitch />
      </PageHeader>
      <KpiGrid
        hasPrevious={prevRange !== null}
        items={[
          {
            label: DEFINITIONS.dailyActivePeople.label,
            value: t?.avgDau,
            previous: p?.avgDau,
            format: oneDecimal,
            hint: 'average per day',
            definition: DEFINITIONS.dailyActivePeople,
          },
          {
            label: DEFINITIONS.weeklyActivePeople.label,
            value: t?.latestWau,
            previous: p?.latestWau,
            hint: 'latest day',
            definition: DEFINITIONS.weeklyActivePeople,
          },
          {
            label: DEFINITIONS.monthlyActivePeople.label,
            value: t?.latestMau,
            previous: p?.latestMau,
            hint: 'latest day',
            definition: DEFINITIONS.monthlyActivePeople,
          },
          { ...definedAs(DEFINITIONS.sessions), value: t?.sessions, previous: p?.sessions },
          { ...definedAs(DEFINITIONS.messages), value: t?.messages, previous: p?.messages },
          { ...definedAs(DEFINITIONS.userMessages), value: t?.userMessages, previous: p?.userMessages },
        ]}
      />
      <TimeSeriesWidget
        title="Active people"
        description="Distinct people active each day, and over the trailing 7 and 30 days."
        query={daily}
        kind="line"
        series={[
          { key: 'dau', label: 'Daily', color: seriesColor(0), csv: 'daily_active_users' },
          { key: 'wau', label: 'Weekly (trailing 7 days)', color: seriesColor(1), csv: 'weekly_active_users' },
          { key: 'mau', label: 'Monthly (trailing 30 days)', color: seriesColor(2), csv: 'monthly_active_users' },
        ]}
        rollup={{ dau: 'mean', wau: 'last', mau: 'last' }}
        filename={file('active-users')}
        what="Daily, weekly and monthly active people"
        footnote="Weekly view: daily actives are the week's average; weekly and monthly actives are the week's last day."
      />
      <BelowTheFold>
        <div className="grid gap-4 lg:grid-cols-2">
          {teamed ? (
            <OrgOnlyWidget title="Daily active people per client" />
          ) : (
            <TimeSeriesWidget
              title="Daily active people per client"
              query={byClient}
              kind="line"
              series={groupSeries(clientKeys, (k) => CLIENT_LABELS[k] ?? k)}
              rollup={Object.fromEntries(clientKeys.map((k) => [k, 'mean']))}
              filename={file('active-users-per-client')}
              what="Daily active people per client"
              footnote="A person active on several clients counts once in each client, so the clients add up to more than the daily active people."
            />
          )}
          <TimeSeriesWidget
            title="Sessions and messages"
            query={daily}
            kind="line"
            series={[
              { key: 'sessions', label: 'Sessions', color: seriesColor(3), csv: 'sessions' },
              { key: 'messages', label: 'Messages (user and assistant)', color: seriesColor(0), csv: 'messages' },
              { key: 'userMessages', label: 'User messages', color: seriesColor(4), csv: 'user_messages' },
            ]}
            filename={file('sessions-messages')}
            what="Sessions, messages and user messages"
          />
        </div>
        {stored && <CohortsWidget teams={teams} />}
      </BelowTheFold>
    </div>
  );
}
