import { useQuery } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useMemo } from 'react';
import { Link } from 'react-router-dom';
import { LEVEL_NAMES } from '../../api/criteria';
import { READINESS_STALE_DAYS, UNOWNED } from '../../api/readiness';
import { useAppConfig } from '../../data/config';
import { frictionQuery } from '../../data/friction';
import { useReader } from '../../data/me';
import { useLinkTo, useRange, useSearchParam, useTeams, type ReadinessPeriod, type SortState } from '../../data/search';
import { CategoryBarChart } from '../../components/CategoryBarChart';
import { DataTable, useTableCsv, type Column } from '../../components/DataTable';
import { definedAs, KpiGrid } from '../../components/KpiGrid';
import { NoRepos } from '../../components/NoRepos';
import { PageHeader } from '../../components/Page';
import { Segmented } from '../../components/Segmented';
import { TimeSeriesChart } from '../../components/TimeSeriesChart';
import { DaysOffToggle, useDaysOff } from '../../components/TimeSeriesWidget';
import { VirtualTable } from '../../components/VirtualTable';
import { Widget } from '../../components/Widget';
import { HISTORY_START, addDays, formatDayLong, maxDay, msToDay, todayUtc } from '../../lib/dates';
import { DEFINITIONS } from '../../lib/definitions';
import { formatExact, formatPercent } from '../../lib/format';
import { LEVEL_THRESHOLDS, TARGET_LEVEL } from '../../lib/readiness';
import { workingDaysOnly } from '../../lib/series';
import {
  failingCriteria,
  latestSpread,
  pillarPassRates,
  repoPath,
  spreadSeries,
  summarize,
  type FailingCriterion,
  type RepoHistory,
  type RepoSummary,
} from './history';
import { HeadroomList } from '../../components/HeadroomList';
import { FixesWidget } from './FixesWidget';
import { FrictionWidget } from './FrictionWidget';
import { LEVEL_COLORS, LevelSpreadWidget } from './LevelSpread';
import { staleAfterOf, useRepoList } from './queries';
import { StaleBadge } from './StaleBadge';
import { TeamsTable } from './TeamsTable';
import { ownerOf } from './teams';

const pct = (x: number) => `${Math.round(x * 100)} %`;

/** "How to read this page", folded under its title (components/Page.tsx): how the page works. */
const HOW_TO_READ = [
  `A repository’s level comes from its latest report’s pass rate: level 1 below ${pct(LEVEL_THRESHOLDS[1])}, ${LEVEL_THRESHOLDS.slice(
    1,
  )
    .map((t, i) => `${i + 2} from ${pct(t)}`)
    .join(', ')}. Level ${TARGET_LEVEL} is the usual target.`,
  'The page counts the repositories at each level and says whether the target is met, rather than averaging levels; the chart shows how those shares moved over the period.',
  'Open a repository for its criteria by pillar and what to fix first: the failing criteria that take it to its next level soonest.',
  `A repository whose latest report is older than ${READINESS_STALE_DAYS} days (or the days a stale-report alert rule covering it sets) is marked stale, with the report's age in days.`,
  `What to fix next is for the target: each criterion by how many repositories below level ${TARGET_LEVEL} it is one of the fewest fixes to bring there; criteria counting as many, the lowest level first.`,
];

const PERIODS = [
  { id: '7d', label: '7 days', days: 7 },
  { id: '1m', label: '1 month', days: 30 },
  { id: '6m', label: '6 months', days: 182 },
  { id: '1y', label: '1 year', days: 365 },
  { id: 'all', label: 'All', days: 0 },
] as const satisfies readonly { id: ReadinessPeriod; label: string; days: number }[];

const FAILING_SORT: SortState = { column: 'failing', dir: 'desc' };
const REPOS_SORT: SortState = { column: 'level', dir: 'asc' };

const signed = (n: number | null, f: (n: number) => string) =>
  n === null ? '–' : `${n > 0 ? '+' : n < 0 ? '−' : '±'}${f(Math.abs(n))}`;

/** The repository's name, a link to its page that keeps the reader's teams (and range). */
const nameColumn = (linkTo: (path: string) => string): Column<RepoSummary> => ({
  id: 'name',
  header: 'Repository',
  value: (r) => r.name,
  render: (r) => (
    <Link to={linkTo(repoPath(r.key))} className="text-accent-strong underline">
      {r.name}
    </Link>
  ),
});

const REPO_COLUMNS: Column<RepoSummary>[] = [
  {
    id: 'level',
    header: 'Level',
    value: (r) => r.level,
    numeric: true,
    render: (r) => `${r.level} · ${LEVEL_NAMES[r.level]}`,
  },
  { id: 'passRate', header: 'Pass rate', value: (r) => r.passRate, numeric: true, format: formatPercent },
  {
    id: 'progress',
    header: 'To next level',
    value: (r) => (r.level >= 5 ? null : r.progress),
    numeric: true,
    render: (r) =>
      r.level >= 5 ? (
        <span className="text-fg-subtle">top level</span>
      ) : (
        <span className="inline-flex items-center gap-2">
          <span className="h-1.5 w-16 rounded bg-line" aria-hidden>
            <span className="block h-1.5 rounded bg-accent" style={{ width: `${Math.round(r.progress * 100)}%` }} />
          </span>
          {formatPercent(r.progress)}
        </span>
      ),
  },
  {
    id: 'change',
    header: 'Change',
    value: (r) => r.change,
    numeric: true,
    render: (r) =>
      r.change === null ? (
        <span className="text-fg-subtle">first report</span>
      ) : (
        <span className={r.change > 0.0005 ? 'text-success' : r.change < -0.0005 ? 'text-danger' : ''}>
          {r.change > 0.0005 ? '▲' : r.change < -0.0005 ? '▼' : '■'}{' '}
          {signed(r.change * 100, (n) => `${n.toFixed(1)} pts`)}
          {r.levelChange ? ` (level ${signed(r.levelChange, String)})` : ''}
        </span>
      ),
  },
];
const REPORTS_COLUMN: Column<RepoSummary> = {
  id: 'reports',
  header: 'Reports',
  value: (r) => r.reports,
  numeric: true,
};

/** When each repository's latest report was made, marked stale after the days its alert rules say (else 30). */
const lastEvaluatedColumn = (staleAfter: ReadonlyMap<string, number> | undefined): Column<RepoSummary> => ({
  id: 'lastEvaluated',
  header: 'Last evaluated (UTC)',
  value: (r) => r.lastEvaluated,
  render: (r) => (
    <span className="whitespace-nowrap">
      {formatDayLong(msToDay(r.lastEvaluated))}
      <StaleBadge createdAt={r.lastEvaluated} staleAfter={staleAfterOf(staleAfter, r.key)} />
    </span>
  ),
});

const FAILING_COLUMNS: Column<FailingCriterion>[] = [
  { id: 'name', header: 'Criterion', value: (f) => f.name },
  { id: 'level', header: 'Level', value: (f) => f.level, numeric: true, format: String },
  { id: 'pillar', header: 'Pillar', value: (f) => f.pillar },
  {
    id: 'failing',
    header: 'Failing in',
    value: (f) => f.failing,
    numeric: true,
    render: (f) => `${f.failing} of ${f.evaluated}`,
  },
];

/** The owning team's column, when the server knows the teams. */
const teamColumn = (owners: ReadonlyMap<string, string | null>): Column<RepoSummary> => ({
  id: 'team',
  header: 'Team',
  value: (r) => ownerOf(owners, r.key) ?? UNOWNED,
});

export default function ReadinessPage() {
  const config = useAppConfig();
  const [teams] = useTeams();
  const repos = useRepoList(teams, config.teams);
  const byTeam = teams.length > 0 && config.teams;
  const { owners } = repos;
  const [period, setPeriod] = useSearchParam('period');
  const [search, setSearch] = useSearchParam('q');
  const failingCsv = useTableCsv('failing', FAILING_COLUMNS, FAILING_SORT);
  const linkTo = useLinkTo();
  const { staleAfter } = repos;
  const repoColumns = useMemo(
    () => [
      nameColumn(linkTo),
      ...(owners ? [teamColumn(owners)] : []),
      ...REPO_COLUMNS,
      lastEvaluatedColumn(staleAfter),
      REPORTS_COLUMN,
    ],
    [owners, staleAfter, linkTo],
  );
  const reposCsv = useTableCsv('repos', repoColumns, REPOS_SORT);
  const scope = byTeam ? (teams.length === 1 ? teams[0]! : `${teams.length} teams`) : 'Organization';
  // While pages keep arriving (the walk), rendering from a deferred value lets React split the work. One answer
  // (a server with a store) is drawn at once: a deferred render of every widget, restarted by each urgent update
  // (the sync line polls every 2 s while a fresh server fills its store), could be put off for as long as that lasts.
  const walk = repos.walk;
  const deferredList = useDeferredValue(repos.list);
  const list = walk ? deferredList : repos.list;
  // The repositories' table comes in the render after the figures (as `below` does).
  const tableList = useDeferredValue(list);
  const summaries = useMemo(() => tableList?.map(summarize) ?? [], [tableList]);
  // Organization-wide charts are drawn once every report is in; the table and cards fill in as pages arrive.
  const settled = walk?.complete === true || !repos.isFetching;
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return q ? summaries.filter((s) => s.name.includes(q) || s.key.includes(q)) : summaries;
  }, [summaries, search]);
  const lastUpdated = list?.length ? Math.max(...list.map((r) => r.latest.report.createdAt)) : undefined;
  const end = lastUpdated ? msToDay(lastUpdated) : todayUtc();
  const days = PERIODS.find((p) => p.id === period)!.days;
  const from = days ? maxDay(addDays(end, -(days - 1)), HISTORY_START) : HISTORY_START;
  // A daily chart: with the days off hidden (`?weekends=hide`, carried from the analytics pages), its weekdays
  // that are not listed holidays.
  const off = useDaysOff();
  const { hidden: offHidden, holidays } = off;
  const levelSeries = useCallback(
    (l: RepoHistory[]) => {
      const all = spreadSeries(l, from, end);
      return offHidden ? workingDaysOnly(all, holidays) : all;
    },
    [from, end, offHidden, holidays],
  );

  // Deferred too after a walk, so the final render of every chart is time-sliced rather than one long task.
  const deferredSettled = useDeferredValue(settled ? list : undefined);
  const settledList = walk ? deferredSettled : settled ? list : undefined;
  // The spread and the target are said once every report is in, never of the first pages alone.
  const spread = useMemo(() => (settledList ? latestSpread(settledList) : undefined), [settledList]);
  // The figures (cards, levels, charts) are drawn at once; the tables below them (the failing criteria, what to fix
  // next, the teams, the repositories: some 4,000 elements at 500 repositories) in a deferred render right after,
  // so the answer's arrival is two tasks rather than one long one. That render is short enough to finish between
  // the sync line's urgent updates.
  const below = useDeferredValue(settledList);
  const loading = repos.isFetching;
  const status = { error: repos.error, isFetching: repos.isFetching, refetch: repos.refetch };
  // Readiness priced in friction joins the teams' figures of the global range: for managers and admins, with a store.
  const { range } = useRange();
  const reader = useReader();
  const priced = config.teams && reader?.role !== 'viewer';
  const friction = useQuery({ ...frictionQuery(range, teams), enabled: priced });
  const spoken = `${formatDayLong(range.start)} – ${formatDayLong(range.end)}`;
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={byTeam ? `Readiness · ${scope}` : 'Readiness'} howToRead={HOW_TO_READ} />
      <p role="status" aria-live="polite" className="text-sm text-fg-muted">
        {loading
          ? walk
            ? `Loading reports… ${formatExact(walk.reports)} from ${walk.pages} pages`
            : 'Loading reports…'
          : list
            ? `${formatExact(list.reduce((n, r) => n + r.reports.length, 0))} reports of ${formatExact(list.length)} repositories${byTeam ? ` owned by ${scope}` : ''}.`
            : ''}
      </p>
      {byTeam && settledList?.length === 0 && <NoRepos team={scope} />}
      <KpiGrid
        items={[
          {
            label: `At level ${TARGET_LEVEL} · ${LEVEL_NAMES[TARGET_LEVEL]} or above`,
            definition: DEFINITIONS.atTargetLevel,
            value: spread?.atTargetShare,
            format: formatPercent,
            hint: spread?.total
              ? `${spread.atTarget} of ${spread.total} · ${spread.met ? 'target met' : `target not met: ${spread.total - spread.atTarget} below`}`
              : undefined,
          },
          { ...definedAs(DEFINITIONS.repositoriesTracked), value: list?.length },
          {
            ...definedAs(DEFINITIONS.readinessUpdated),
            value: lastUpdated,
            format: (ms) => formatDayLong(msToDay(ms)),
          },
        ]}
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <LevelSpreadWidget spread={spread} status={status} />
        <DerivedWidget
          title="Repositories per level over time"
          description={`Each repository at the level of its latest report as of each day (UTC), over the repositories evaluated by then; the parts from level ${TARGET_LEVEL} up are at the target.`}
          list={settledList}
          compute={levelSeries}
          status={status}
          isEmpty={(d) => d.length === 0}
          actions={
            <>
              <Segmented
                label="Period"
                size="xs"
                options={PERIODS.map((p) => ({ id: p.id, label: p.label }))}
                value={period}
                onChange={setPeriod}
              />
              <DaysOffToggle />
            </>
          }
          csv={(d) => ({
            filename: `repositories-per-level-${period}.csv`,
            header: ['date', 'repositories', 'level_1', 'level_2', 'level_3', 'level_4', 'level_5', 'at_target_share'],
            rows: d.map((p) => [p.date, p.spread.total, ...p.spread.counts, p.spread.atTargetShare]),
          })}
        >
          {(d) => (
            <>
              <TimeSeriesChart
                data={d}
                kind="area"
                stacked
                percent
                series={[5, 4, 3, 2, 1].map((l) => ({
                  key: `level${l}`,
                  label: `${l} · ${LEVEL_NAMES[l]}`,
                  color: LEVEL_COLORS[l - 1]!,
                }))}
                summary={`${scope}: share of repositories at each level per day${offHidden ? `, ${off.left} only,` : ''} from ${from} to ${end}; at level ${TARGET_LEVEL} or above on ${d.at(-1)?.date}: ${formatPercent(d.at(-1)?.spread.atTargetShare)}.`}
              />
              {offHidden && <p className="mt-2 text-xs text-fg-subtle">{off.days} (UTC) are left out of this chart.</p>}
            </>
          )}
        </DerivedWidget>
        <DerivedWidget
          title="Pass rate per pillar"
          description="Over every repository's latest report; the pillars at the top hold the organization back."
          list={settledList}
          compute={latestPillars}
          status={status}
          csv={(d) => ({
            filename: 'pillar-pass-rates.csv',
            header: ['pillar', 'pass_rate', 'evaluations'],
            rows: d.map((p) => [p.pillar, p.passRate, p.evaluated]),
          })}
        >
          {(d) => (
            <CategoryBarChart
              horizontal
              data={d}
              format={formatPercent}
              domain={SHARE}
              valueName="Pass rate"
              summary={`Pass rate per pillar: ${d.map((p) => `${p.pillar} ${formatPercent(p.passRate)}`).join(', ')}.`}
            />
          )}
        </DerivedWidget>
        <DerivedWidget
          title="Criteria failing in the most repositories"
          description="Latest reports; skipped and absent criteria do not count."
          list={below}
          compute={topFailing}
          status={status}
          isEmpty={(d) => d.length === 0}
          emptyText="No criterion fails in any repository."
          csv={(d) => ({ filename: 'failing-criteria.csv', ...failingCsv(d) })}
        >
          {(d) => (
            <DataTable
              id="failing"
              caption="Criteria failing in the most repositories"
              columns={FAILING_COLUMNS}
              rows={d}
              rowKey={(f) => f.id}
              defaultSort={FAILING_SORT}
              maxHeight="20rem"
            />
          )}
        </DerivedWidget>
      </div>
      <FixesWidget list={below} status={status} scope={byTeam ? `${scope}'s` : 'the organization’s'} />
      {priced && <FrictionWidget query={friction} range={spoken} />}
      {priced && <HeadroomList query={friction} range={spoken} />}
      {config.teams && !byTeam && (
        <TeamsTable list={below} owners={owners} ownership={repos.ownership} status={status} />
      )}
      <Widget
        title="Repositories"
        description="Each repository's latest report, with the change against its previous report."
        query={{ ...status, data: tableList ? shown : undefined, status: tableList ? 'success' : 'pending' }}
        isEmpty={(d) => d.length === 0}
        emptyText={summaries.length ? 'No repository matches the search.' : 'No readiness report yet.'}
        actions={
          <input
            type="search"
            aria-label="Search repositories"
            placeholder="Search repositories"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="w-56 rounded border border-line-strong px-2 py-1 text-sm"
          />
        }
        csv={(d) => ({ filename: 'readiness-repositories.csv', ...reposCsv(d) })}
      >
        {(d) => (
          <VirtualTable
            id="repos"
            caption="Repositories and their latest readiness"
            columns={repoColumns}
            rows={d}
            rowKey={(r) => r.key}
            defaultSort={REPOS_SORT}
            maxHeight="32rem"
          />
        )}
      </Widget>
    </div>
  );
}

const topFailing = (l: RepoHistory[]) => failingCriteria(l).slice(0, 15);
/** Each pillar's pass rate, as a bar too (`label`, `value`): the chart gets the same array on every render. */
const latestPillars = (l: RepoHistory[]) =>
  pillarPassRates(l.map((r) => r.latest.report)).map((p) => ({ ...p, label: p.pillar, value: p.passRate }));
const SHARE: [number, number] = [0, 1];

interface DerivedProps<T> extends Omit<React.ComponentProps<typeof Widget<T>>, 'query'> {
  list: RepoHistory[] | undefined;
  compute: (list: RepoHistory[]) => T;
  status: { error: unknown; isFetching: boolean; refetch: () => unknown };
}

/**
 * A widget whose data is computed from the repositories in its own render,
 * so React can yield between widgets instead of computing them all at once.
 */
function DerivedWidget<T>({ list, compute, status, ...props }: DerivedProps<T>) {
  const data = useMemo(() => (list ? compute(list) : undefined), [list, compute]);
  return <Widget {...props} query={{ ...status, data, status: data === undefined ? 'pending' : 'success' }} />;
}
