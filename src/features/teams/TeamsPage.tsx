import { pageRefusal, useReader } from '../../data/me';
import { spendColumns, spendCsv } from './spend-columns';
import { outcomeColumns } from './outcome-columns';
import { teamsSpendQuery } from '../../data/spend';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import type { Goal } from '../../api/goals';
import type { TeamSummaryRow, TeamsAnswer, TeamsSummary } from '../../api/teams';
import { PageHeader } from '../../components/Page';
import { Widget } from '../../components/Widget';
import { useAppConfig } from '../../data/config';
import { useLinkTo, useRange, useSortParam, useTeams } from '../../data/search';
import { comparisonWords, formatDayLong, type DayRange } from '../../lib/dates';
import { DEFINITIONS, notYetSeen, people } from '../../lib/definitions';
import { formatExact } from '../../lib/format';
import { teamsQuery } from '../../data/teams';
import { isOrganization } from './shaping';
import { TEAMS_SORT, teamColumns } from './columns';
import { goalsQuery, teamsSummaryQuery } from './queries';
import { goalColumn, goalCsv } from './goal-columns';
import { namedTeams, teamsCsv } from './shaping';
import { NoTeams } from './NoTeams';
import { TeamsTable } from './TeamsTable';
import { AgentOnlyNote } from './OutcomeRatiosWidget';
import { PayoffAcrossTeams } from './PayoffAcrossTeams';
import { HeadroomList } from '../../components/HeadroomList';
import { frictionQuery } from '../../data/friction';
import { MAX_COMPARED, MIN_COMPARED } from './compare';

/** "How to read this page", folded under its title (components/Page.tsx): how the page works. */
const HOW_TO_READ = [
  'Teams come from the team mapping: a team’s figures include its sub-teams, and the top-level teams plus Unassigned add up to the organization.',
  'Members are the people the mapping puts in a team (including people who have not used the agent yet); active people had a day of activity in the range; adoption is active people divided by members.',
  'With a price list, spend and each team’s budget state for the month sit beside the credits; open a team for its charts, people and repositories.',
];

const TITLE = 'Teams';

/**
 * Why the organization's members are not the mapping screen's known people: "The organization's 150 members
 * are its 136 known people and 14 people the mapping names who have not used the agent yet."
 */
function orgMembersLine(members: number, known: number): string {
  const unseen = notYetSeen(members, known);
  return unseen === 0
    ? `The organization's ${formatExact(members)} members are its known people, everyone the service has reported since the history starts.`
    : `The organization's ${formatExact(members)} members are its ${formatExact(known)} known people and ${people(unseen, formatExact)} the mapping names who ${unseen === 1 ? 'has' : 'have'} not used the agent yet.`;
}
const CAPTION = 'Teams, with their sub-teams';

type CsvExtra = NonNullable<Parameters<typeof teamsCsv>[3]>;
/** The CSV's columns after the figures: the spend's (with a price list), then the goals' (once any is set). */
function csvExtra(spend: CsvExtra | undefined, goalOf: ((team: string) => Goal | undefined) | null) {
  const parts = [spend, goalOf ? goalCsv(goalOf) : undefined].filter((p): p is CsvExtra => p !== undefined);
  if (parts.length === 0) return undefined;
  return {
    header: parts.flatMap((p) => p.header),
    cells: (r: TeamSummaryRow) => parts.flatMap((p) => p.cells(r)),
  };
}

/** The chosen teams' rows and their sub-teams' (the organization's row left out). */
export const withinTeams = (rows: readonly TeamSummaryRow[], teams: readonly string[]) =>
  rows.filter((r) => !isOrganization(r) && teams.some((t) => r.team === t || r.team.startsWith(`${t}/`)));
const selectRows = (s: TeamsSummary) => s.rows;
const selectKnown = (t: TeamsAnswer) => t.users;

const buttonClass =
  'rounded border border-line-strong px-2 py-1 text-xs font-medium text-fg-soft hover:bg-surface-muted disabled:opacity-50';

export default function TeamsPage() {
  const { teams } = useAppConfig();
  return (
    <div className="flex flex-col gap-4">
      {teams ? (
        <TeamsOverview />
      ) : (
        <>
          <PageHeader title={TITLE} />
          <NoTeams />
        </>
      )}
    </div>
  );
}

/** Delegation headroom over the teams chosen (every team's without a choice), asked once the table is in. */
function Headroom({ range, teams, enabled }: { range: DayRange; teams: readonly string[]; enabled: boolean }) {
  const friction = useQuery({ ...frictionQuery(range, teams), enabled });
  if (!enabled) return null;
  return <HeadroomList query={friction} range={`${formatDayLong(range.start)} – ${formatDayLong(range.end)}`} />;
}

function TeamsOverview() {
  const { range } = useRange();
  const linkTo = useLinkTo();
  const options = { ...teamsSummaryQuery(range), placeholderData: keepPreviousData };
  const summary = useQuery(options);
  const all = useQuery({ ...options, select: selectRows });
  // The team selector's teams (`?team=`): the table shows those teams and their sub-teams, each chosen team
  // at the top of its own tree, and no organization row (the figures are the chosen teams', not everyone's).
  const [selected] = useTeams();
  const allRows = all.data;
  const shownRows = useMemo(
    () => (allRows && selected.length > 0 ? withinTeams(allRows, selected) : allRows),
    [allRows, selected],
  );
  const rows = {
    data: shownRows,
    status: all.status,
    error: all.error,
    isPlaceholderData: all.isPlaceholderData,
    isFetching: all.isFetching,
    refetch: all.refetch,
  };

  const [sort, setSort] = useSortParam('teams', TEAMS_SORT);
  // With a price list: each team's spend, month and budget beside its figures.
  const { currency } = useAppConfig();
  const spend = useQuery({ ...teamsSpendQuery(range), placeholderData: keepPreviousData, enabled: currency !== null });
  const spendRows = spend.data;
  const spendOf = useMemo(() => {
    const byTeam = new Map(spendRows?.rows.map((r) => [r.team, r]));
    return (team: string) => byTeam.get(team);
  }, [spendRows]);
  // Each team's goal beside its adoption, once any goal is set: asked once the table is in (the table comes first).
  const goals = useQuery({ ...goalsQuery(), enabled: all.data !== undefined }).data;
  const goalOf = useMemo(() => {
    const byTeam = new Map(goals?.goals.map((g) => [g.team, g]));
    return byTeam.size === 0 ? null : (team: string) => byTeam.get(team);
  }, [goals]);
  const columns = useMemo(() => {
    const plain = teamColumns(range);
    const after = plain.findIndex((c) => c.id === 'adoption') + 1;
    const base =
      goalOf && goals ? [...plain.slice(0, after), goalColumn(goalOf, goals.latest), ...plain.slice(after)] : plain;
    if (currency === null) return base;
    // The money and the budget right after the credits they price, beside the team's name.
    const at = base.findIndex((c) => c.id === 'credits') + 1;
    // The money per outcome right after the credits per outcome.
    const ratios = base.findIndex((c) => c.id === 'creditsPerPrChange') + 1;
    return [
      ...base.slice(0, at),
      ...spendColumns(currency, spendOf),
      ...base.slice(at, ratios),
      ...outcomeColumns(currency),
      ...base.slice(ratios),
    ];
  }, [range, currency, spendOf, goalOf, goals]);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback(
    (team: string) =>
      setExpanded((cur) => {
        const next = new Set(cur);
        if (!next.delete(team)) next.add(team);
        return next;
      }),
    [],
  );
  const parents = useMemo(() => (rows.data ?? []).filter((r) => r.hasChildren).map((r) => r.team), [rows.data]);
  const named = rows.data ? namedTeams(rows.data).length : undefined;
  // The sentence speaks of the answer shown (a new range's keeps the old answer until its own comes).
  const prev = summary.data?.previous;
  const spoken = summary.data?.range ?? range;
  // The known people (the mapping screen's count), to say why the organization's members differ from them.
  const orgRow = all.data?.find(isOrganization);
  // Asked once the summary is in: the table comes first.
  const known = useQuery({ ...teamsQuery, enabled: orgRow !== undefined, select: selectKnown }).data;
  // The mapping names everyone's team: with sign-in, its screen is for admins.
  const reader = useReader();
  const mayMap = pageRefusal(reader, '/settings/teams') === null;
  const mappingLink = mayMap && (
    <Link to={linkTo('/settings/teams')} className="text-sm text-accent-strong underline">
      Team mapping
    </Link>
  );
  const budgetsLink = currency !== null && (
    <Link to={linkTo('/settings/budgets')} className="text-sm text-accent-strong underline">
      Budgets
    </Link>
  );

  return (
    <>
      <PageHeader title={TITLE} teams={selected} howToRead={HOW_TO_READ}>
        <span className="flex gap-4">
          {/* The teams chosen in the selector, side by side (the comparison page says how many it takes). */}
          <Link to={linkTo('/compare')} className="text-sm text-accent-strong underline">
            {selected.length >= MIN_COMPARED && selected.length <= MAX_COMPARED
              ? `Compare these ${selected.length} teams`
              : 'Compare teams'}
          </Link>
          {budgetsLink}
          <Link to={linkTo('/settings/marks')} className="text-sm text-accent-strong underline">
            Marks
          </Link>
          {/* The teams' figures beside the service's own totals: the first thing a manager checks. */}
          {pageRefusal(reader, '/reconciliation') === null && (
            <Link to={linkTo('/reconciliation')} className="text-sm text-accent-strong underline">
              Reconciliation
            </Link>
          )}
          {mappingLink}
        </span>
      </PageHeader>
      {named === 0 && (
        <p role="status" className="rounded bg-warning-surface p-3 text-sm text-warning-fg">
          The team mapping names no teams yet, so everyone is counted as Unassigned.{' '}
          {mappingLink && (
            <Link to={linkTo('/settings/teams')} className="font-medium underline">
              Set up the team mapping
            </Link>
          )}
        </p>
      )}
      <Widget
        title={TITLE}
        description={
          `A team's figures include its sub-teams. ${DEFINITIONS.adoption.label}: ${DEFINITIONS.adoption.meaning.toLowerCase()} ` +
          (orgRow && known !== undefined ? `${orgMembersLine(orgRow.current.members, known)} ` : '') +
          (prev
            ? `Changes compare ${formatDayLong(spoken.start)} – ${formatDayLong(spoken.end)} with ${formatDayLong(prev.start)} – ${formatDayLong(prev.end)}, ${comparisonWords(spoken, prev)}.`
            : 'No change is shown: the period before this range starts before the history the dashboard keeps.')
        }
        query={rows}
        isEmpty={(d) => namedTeams(d).length === 0}
        emptyText="No teams to show."
        csv={(d) => ({
          filename: `teams-${range.start}-${range.end}.csv`,
          ...teamsCsv(d, columns, sort, csvExtra(currency !== null ? spendCsv(currency, spendOf) : undefined, goalOf)),
        })}
        actions={
          parents.length > 0 && (
            <>
              <button
                type="button"
                className={buttonClass}
                disabled={parents.every((t) => expanded.has(t))}
                onClick={() => setExpanded(new Set(parents))}
              >
                Expand all
              </button>
              <button
                type="button"
                className={buttonClass}
                disabled={!parents.some((t) => expanded.has(t))}
                onClick={() => setExpanded(new Set())}
              >
                Collapse all
              </button>
            </>
          )
        }
      >
        {(d) => (
          <>
            <AgentOnlyNote />
            <TeamsTable
              caption={CAPTION}
              rows={d}
              columns={columns}
              sort={sort}
              onSort={setSort}
              expanded={expanded}
              onToggle={toggle}
              link={linkTo}
            />
          </>
        )}
      </Widget>
      {/* Asked once the table is in: the table comes first. */}
      {all.data && <PayoffAcrossTeams range={range} rows={all.data} />}
      <Headroom range={range} teams={selected} enabled={all.data !== undefined} />
    </>
  );
}
