import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import type { Column } from '../../components/DataTable';
import { PageHeader } from '../../components/Page';
import { TableWidget } from '../../components/TableWidget';
import { useAppConfig } from '../../data/config';
import { useReader } from '../../data/me';
import { useLinkTo, useRange, useTeams } from '../../data/search';
import { teamHref } from './shaping';
import { FunnelWidget } from './FunnelWidget';
import { funnelColumns, funnelQuery, funnelRows, type FunnelRow } from './funnel';

const TITLE = 'Onboarding';

const HOW_TO_READ = [
  'A person’s access day is the team mapping’s since for them, else the earlier of the day the mapping first named them and their first day seen. The starters of a range (or a week) are the people whose access day is in it.',
  'Each step counts when it comes within four weeks of access: a first session, a first commit and a first pull request through the agent. Still active: a session in the fifth week after access.',
  'A share and the median days are over the starters whose window has ended by the range’s end: someone who started three days ago is not counted as not reaching a step.',
  'Starters within the grace period after access are new, not lagging: they are counted apart. No list of people is drawn from the funnel.',
];

function TeamCell({ team }: { team: string }) {
  const linkTo = useLinkTo();
  return (
    <Link to={linkTo(teamHref(team))} className="whitespace-nowrap text-accent-strong underline">
      {team}
    </Link>
  );
}

const TEAM_COLUMNS: Column<FunnelRow>[] = funnelColumns<FunnelRow>({
  id: 'team',
  header: 'Team',
  value: (r) => r.key,
  render: (r) => <TeamCell team={r.key} />,
});

/**
 * From access to a first pull request for the organization (or the teams chosen; a manager kept to their teams, theirs):
 * the weekly cohorts of starters, then each team's funnel over the range.
 */
export default function OnboardingPage() {
  const config = useAppConfig();
  const reader = useReader();
  const { range } = useRange();
  const [selected] = useTeams();
  const teams = useMemo(
    () =>
      selected.length > 0
        ? selected
        : reader?.role === 'manager' && reader.orgView === false
          ? reader.teams
          : ([] as readonly string[]),
    [selected, reader],
  );
  const weekly = useQuery({
    ...funnelQuery(range, teams, 'week'),
    enabled: config.teams,
    placeholderData: keepPreviousData,
  });
  const perTeam = useQuery({
    ...funnelQuery(range, teams, 'team'),
    enabled: config.teams,
    placeholderData: keepPreviousData,
    select: funnelRows,
  });
  if (!config.teams)
    return (
      <>
        <PageHeader title={TITLE} />
        <p role="status" className="mt-4 rounded bg-warning-surface p-3 text-sm text-warning-fg">
          The onboarding funnel needs the dashboard server to keep the organization&apos;s history, which it does when
          it holds the API key. This server does not.
        </p>
      </>
    );
  const name = teams.length === 0 ? 'the organization' : teams.join(', ');
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={TITLE} teams={selected} howToRead={HOW_TO_READ} />
      <FunnelWidget answer={weekly} range={range} teams={teams} name={name} filename="onboarding-weekly" />
      <TableWidget
        id="funnelTeams"
        title="From access to a first pull request, per team"
        description={`Each team's starters of the range (its sub-teams' included) and the share reaching each step, with the median days to it.${(weekly.data?.funnel?.minStarters ?? 1) > 1 ? " In privacy mode a team's shares are of its starters in the weeks shown whose four weeks have ended, and no median is given." : ''}`}
        columns={TEAM_COLUMNS}
        rowKey={(r) => r.key}
        defaultSort={{ column: 'starters', dir: 'desc' }}
        query={perTeam}
        filename="onboarding-teams"
        emptyText="No team to show in this range."
      />
    </div>
  );
}
