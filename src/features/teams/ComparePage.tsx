import { keepPreviousData, useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { Link } from 'react-router-dom';
import type { SpendAnswer } from '../../api/spend';
import type { TeamSummaryRow } from '../../api/teams';
import { DataTable, type Column } from '../../components/DataTable';
import { Breadcrumb } from '../../components/Breadcrumb';
import { PageHeader } from '../../components/Page';
import { spendColumn } from '../../components/SpendWidgets';
import { seriesColor } from '../../components/TimeSeriesChart';
import { IntervalSwitch, TimeSeriesWidget } from '../../components/TimeSeriesWidget';
import { Widget } from '../../components/Widget';
import { analyticsQuery } from '../../data/analytics';
import { useAppConfig } from '../../data/config';
import { useLinkTo, useRange, useSortParam, useTeams } from '../../data/search';
import { spendQuery } from '../../data/spend';
import { TEAMS_SORT, teamColumns } from './columns';
import { outcomeColumns } from './outcome-columns';
import {
  combinedSource,
  comparedRows,
  comparedTeams,
  countProblem,
  refusal,
  sideBySide,
  type Compared,
} from './compare';
import { NoTeams } from './NoTeams';
import { teamsSummaryQuery } from './queries';
import { teamHref, teamsCsv } from './shaping';

/** "How to read this page", folded under its title (components/Page.tsx): how the page works. */
const HOW_TO_READ = [
  'Two to five teams side by side over the range in the bar at the top: the table gives each team the figures of its own page, and the charts draw one line per team, each team in one colour on every chart.',
  'Each team counts its own people, sub-teams included, as on its own page: a person in two of the teams (a team and one of its sub-teams) counts in both, so the figures do not add up to a total.',
  'The teams are in the address (team=…, one per team), so a link opens the same comparison; change them with the Team selector at the top, or choose them on the Teams page.',
  'Daily or Weekly switches every chart’s grain; Hide weekends leaves Saturdays, Sundays and the organization’s listed holidays out of the daily charts, never out of the table. Each chart has a table view and a CSV.',
];

/** The CSV's spend column: the range's spend to the cent, as the teams CSV has it. */
const spendCells = (currency: string, spendOf: (team: string) => SpendAnswer | undefined) => ({
  header: [`spend_${currency.toLowerCase()}`],
  cells: (r: TeamSummaryRow) => {
    const s = spendOf(r.team)?.spend;
    return [s === undefined ? undefined : Number(s.toFixed(2))];
  },
});

const TITLE = 'Compare teams';
/**
 * The team page's figures, those compared most first (the spend, with a price list, right after the credits): at
 * 1280 px the ones after the pull requests may lie beyond the table's right edge, which then says so.
 */
const FIGURES = [
  'credits',
  'active',
  'toolCallsPerTurn',
  'commits',
  'prs',
  'members',
  'adoption',
  'creditsPerActive',
  'creditsPerActiveChange',
  'creditsPerCommit',
  'creditsPerCommitChange',
  'creditsPerPr',
  'creditsPerPrChange',
];
const TABLE_ID = 'compare';

export default function ComparePage() {
  const { teams } = useAppConfig();
  return (
    <div className="flex flex-col gap-4">
      <CompareBreadcrumb />
      {teams ? (
        <Comparison />
      ) : (
        <>
          <PageHeader title={TITLE} />
          <NoTeams />
        </>
      )}
    </div>
  );
}

function CompareBreadcrumb() {
  const linkTo = useLinkTo();
  return <Breadcrumb trail={[{ label: 'Teams', to: linkTo('/teams') }]} current="Compare" />;
}

/** A team's colour, as its lines are drawn on every chart of the page. */
function Swatch({ team }: { team: Compared }) {
  return (
    <span
      aria-hidden
      className="inline-block size-2.5 shrink-0 rounded-full"
      style={{ background: seriesColor(team.index) }}
    />
  );
}

/** The path of a team linking to its page (with the reader's range), after its colour. */
function TeamLink({ team }: { team: Compared }) {
  const linkTo = useLinkTo();
  return (
    <span className="inline-flex min-w-0 items-center gap-1.5">
      <Swatch team={team} />
      <Link
        to={linkTo(teamHref(team.path))}
        className="text-accent-strong underline max-sm:[overflow-wrap:anywhere] max-sm:whitespace-normal sm:whitespace-nowrap"
      >
        {team.path}
      </Link>
    </span>
  );
}

function Notice({ children }: { children: React.ReactNode }) {
  return (
    <div role="status" className="rounded bg-warning-surface p-3 text-sm text-warning-fg">
      {children}
    </div>
  );
}

function Comparison() {
  const [selected] = useTeams();
  const { range } = useRange();
  const linkTo = useLinkTo();
  const { currency } = useAppConfig();
  const problem = countProblem(selected);
  const asked = problem === null;
  const teams = useMemo(() => comparedTeams(selected), [selected]);

  // The very answers each team's own page asks for (the same queries, so the same figures and one cache):
  // the summary's row, its credits and activity per day, its spend; a team's asked in parallel with the others'.
  const summary = useQuery({ ...teamsSummaryQuery(range), placeholderData: keepPreviousData, enabled: asked });
  const perTeam = <Q,>(query: (path: string) => Q, enabled = true) =>
    teams.map((t) => ({ ...query(t.path), placeholderData: keepPreviousData, enabled: asked && enabled }));
  // Combined once per change of the answers (structurally shared, so unchanged days keep their identity).
  const days = useCallback(
    <T,>(rs: UseQueryResult<{ data: T[] }>[]) => ({
      rs,
      days: rs.map((r) => r.data?.data),
      refused: rs.map((r) => refusal(r.error)),
    }),
    [],
  );
  const tokens = useQueries({ queries: perTeam((p) => analyticsQuery('tokens', range, '', [p])), combine: days });
  const activity = useQueries({ queries: perTeam((p) => analyticsQuery('activity', range, '', [p])), combine: days });
  const spend = useQueries({
    queries: perTeam((p) => spendQuery(range, [p]), currency !== null),
    combine: useCallback((rs: UseQueryResult<SpendAnswer>[]) => rs.map((r) => r.data), []),
  });

  // A team the server refuses (not in the mapping, or not one the reader may see) is left out, named with the reason.
  const refusedOf = (t: Compared) => tokens.refused[t.index] ?? activity.refused[t.index] ?? null;
  const refused = teams.flatMap((t) => {
    const why = refusedOf(t);
    return why === null ? [] : [{ team: t, why }];
  });
  const shown = useMemo(
    () => teams.filter((t) => (tokens.refused[t.index] ?? activity.refused[t.index] ?? null) === null),
    [teams, tokens.refused, activity.refused],
  );
  const pick = <T,>(all: readonly T[]) => shown.map((t) => all[t.index]!);
  // The charts' marks: the organization's and the teams' shown (a refused team's are not asked for).
  const marksOf = useMemo(() => shown.map((t) => t.path), [shown]);

  const credits = useMemo(
    () => sideBySide(range, shown, pick(tokens.days), (d) => d.billable_tokens),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `pick` reads `shown`
    [range, shown, tokens.days],
  );
  const active = useMemo(
    () => sideBySide(range, shown, pick(activity.days), (d) => d.daily_active_users),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `pick` reads `shown`
    [range, shown, activity.days],
  );

  const spendOf = useCallback((team: string) => spend[teams.find((t) => t.path === team)?.index ?? -1], [spend, teams]);
  const columns = useMemo(() => {
    const all = teamColumns(range);
    const team: Column<TeamSummaryRow> = {
      id: 'team',
      header: 'Team',
      value: (r) => r.team,
      render: (r) => {
        const t = teams.find((x) => x.path === r.team);
        return t ? <TeamLink team={t} /> : r.team;
      },
    };
    const figures = FIGURES.map((id) => all.find((c) => c.id === id)!);
    if (currency === null) return [team, ...figures];
    const money = spendColumn<TeamSummaryRow>(currency, (r) => spendOf(r.team)?.spend ?? null);
    // With a price list, spend per active person, per commit and per pull request too, each with its change.
    return [team, figures[0]!, money, ...figures.slice(1), ...outcomeColumns(currency)];
  }, [range, teams, currency, spendOf]);
  const [sort] = useSortParam(TABLE_ID, TEAMS_SORT);

  if (problem !== null) {
    return (
      <>
        <PageHeader title={TITLE} howToRead={HOW_TO_READ} />
        <Notice>
          <p>{problem}</p>
          <p className="mt-1">
            Choose the teams with the Team selector at the top of the page, or on{' '}
            <Link to={linkTo('/teams')} className="font-medium underline">
              the Teams page
            </Link>
            .
          </p>
        </Notice>
      </>
    );
  }

  const rows = summary.data ? comparedRows(summary.data.rows, shown) : undefined;
  const series = shown.map((t) => ({ key: t.key, label: t.path, color: seriesColor(t.index), csv: t.path }));
  const names = shown.map((t) => t.path).join(', ');
  const file = (what: string) => `teams-compare-${what}-${range.start}-${range.end}`;

  return (
    <>
      <PageHeader title={TITLE} howToRead={HOW_TO_READ}>
        <IntervalSwitch />
      </PageHeader>
      <ul aria-label="Teams compared" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        {shown.map((t) => (
          <li key={t.path} className="flex min-w-0">
            <TeamLink team={t} />
          </li>
        ))}
      </ul>
      {refused.length > 0 && (
        <Notice>
          <p className="font-medium">
            {refused.length === 1 ? 'One team is' : `${refused.length} teams are`} left out of the comparison:
          </p>
          <ul className="mt-1 list-disc pl-5">
            {refused.map(({ team, why }) => (
              <li key={team.path}>
                <strong>{team.path}</strong>: {why}
              </li>
            ))}
          </ul>
        </Notice>
      )}
      <Widget
        title="Each team over the range"
        description="Each team's own figures, sub-teams included, as its own page shows them: a person in two of these teams counts in both, so the rows do not add up."
        query={{
          data: rows,
          status: summary.status,
          error: summary.error,
          isPlaceholderData: summary.isPlaceholderData,
          isFetching: summary.isFetching,
          refetch: summary.refetch,
        }}
        isEmpty={(d) => d.length === 0}
        emptyText="None of the chosen teams can be shown."
        csv={(d) => ({
          filename: `${file('figures')}.csv`,
          ...teamsCsv(d, columns, sort, currency !== null ? spendCells(currency, spendOf) : undefined),
        })}
      >
        {(d) => (
          <DataTable
            id={TABLE_ID}
            caption="Each team over the range"
            columns={columns}
            rows={d}
            rowKey={(r) => r.team}
            defaultSort={TEAMS_SORT}
            // Five rows at most: every team in sight, never a box to scroll (a phone's cards included).
            maxHeight="none"
          />
        )}
      </Widget>
      <TimeSeriesWidget
        title="Credits"
        description="Each team's standard credits, sub-teams included."
        query={combinedSource(pick(tokens.rs), credits)}
        kind="line"
        series={series}
        filename={file('credits')}
        what={`The standard credits of ${names}`}
        marksOf={marksOf}
      />
      <TimeSeriesWidget
        title="Daily active people"
        description="Each team's distinct people active each day, sub-teams included."
        query={combinedSource(pick(activity.rs), active)}
        kind="line"
        series={series}
        rollup={Object.fromEntries(shown.map((t) => [t.key, 'mean' as const]))}
        filename={file('active-users')}
        what={`The daily active people of ${names}`}
        marksOf={marksOf}
      />
    </>
  );
}
