import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { readinessByTeamQuery } from '../../data/teams';
import type { ReadinessAnswer } from '../../api/readiness';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import type { TeamSummaryRow } from '../../api/teams';
import { DataTable, type Column } from '../../components/DataTable';
import { Widget } from '../../components/Widget';
import { useLinkTo } from '../../data/search';
import { formatDayLong, type DayRange } from '../../lib/dates';
import { AGENT_ONLY_CAVEAT, DEFINITIONS, labelled } from '../../lib/definitions';
import { formatCompact, formatExact } from '../../lib/format';
import { CORRELATION_CAVEAT, MIN_TEAMS, type TeamPoint } from '../../lib/payoff';
import { ratio } from './columns';
import { levelPoints } from './level-points';
import { NoRepos } from '../../components/NoRepos';
import { ratioCell } from './outcome-columns';

import { crossTeamPayoff } from './payoff-shaping';
import { isOrganization, isUnassigned, teamHref } from './shaping';

type Point = TeamPoint & { name: string };

const toOwned = (r: ReadinessAnswer) => ({ ownership: r.ownership, repos: r.repos, points: levelPoints(r.reports) });

/**
 * The teams page's comparison across teams: each team owning repositories, its readiness (the mean latest level
 * of its repositories) against its figures over the range; nothing but the reason with fewer than 3 such teams.
 */
export function PayoffAcrossTeams({ range, rows }: { range: DayRange; rows: readonly TeamSummaryRow[] }) {
  const linkTo = useLinkTo();
  // Everyone's repositories; a manager who sees only their teams (no organization row) asks for theirs.
  const scope = useMemo(() => readinessScope(rows), [rows]);
  const readiness = useQuery({ ...readinessByTeamQuery(scope), placeholderData: keepPreviousData, select: toOwned });
  const owned = readiness.data;
  const data = useMemo(
    () => (owned ? { owned, ...crossTeamPayoff(owned, rows, range) } : undefined),
    [owned, rows, range],
  );
  const columns = useMemo<Column<Point>[]>(
    () => [
      {
        id: 'team',
        header: 'Team',
        value: (p) => p.name,
        render: (p) => (
          <Link to={linkTo(teamHref(p.team))} className="whitespace-nowrap text-accent-strong underline" title={p.team}>
            {p.name}
          </Link>
        ),
      },
      {
        id: 'level',
        ...labelled(DEFINITIONS.teamReadiness),
        value: (p) => p.meanLevel,
        numeric: true,
        render: (p) => (
          // On a phone’s card, where the cell is half a line, the count of repositories takes a smaller line of its own.
          <span className="sm:whitespace-nowrap" title={formatExact(p.meanLevel)}>
            {p.meanLevel.toFixed(1)}{' '}
            <span className="whitespace-nowrap text-fg-subtle max-sm:block max-sm:text-xs">
              ({p.repos} {p.repos === 1 ? 'repository' : 'repositories'})
            </span>
          </span>
        ),
      },
      figure('toolCallsPerTurn', labelled(DEFINITIONS.toolCallsPerTurn), ratio, 'no user turns'),
      figure('creditsPerCommit', labelled(DEFINITIONS.creditsPerCommit), formatCompact, 'no commits through the agent'),
      figure(
        'creditsPerPr',
        labelled(DEFINITIONS.creditsPerPullRequest),
        formatCompact,
        'no pull requests through the agent',
      ),
      figure('activePeople', labelled(DEFINITIONS.activePeople), formatExact, 'nobody active'),
    ],
    [linkTo],
  );
  return (
    <Widget
      title="Readiness and outcomes across teams"
      description={`Each team that owns repositories in the team mapping: the mean latest readiness level of its repositories on ${formatDayLong(range.end)}, beside its figures over the range (sub-teams' people included), lowest level first. At least ${MIN_TEAMS} teams are needed.`}
      query={{
        data,
        status: readiness.status,
        error: readiness.error,
        isPlaceholderData: readiness.isPlaceholderData,
        refetch: readiness.refetch,
      }}
    >
      {(d) =>
        d.owned.repos.every((r) => r.team === null) ? (
          <NoRepos />
        ) : d.reason ? (
          <p role="status" className="text-sm text-fg-soft">
            {d.reason}
          </p>
        ) : (
          <>
            <DataTable
              id="payoffTeams"
              caption="Readiness and outcomes across teams"
              columns={columns}
              rows={d.points}
              rowKey={(p) => p.team}
              defaultSort={{ column: 'level', dir: 'asc' }}
            />
            <p role="note" className="mt-2 text-xs text-fg-muted">
              {CORRELATION_CAVEAT} Behind this: {d.points.length} teams and {d.points.reduce((n, p) => n + p.repos, 0)}{' '}
              repositories with a report. {AGENT_ONLY_CAVEAT}
            </p>
          </>
        )
      }
    </Widget>
  );
}

function figure(
  key: keyof Point['figures'],
  head: ReturnType<typeof labelled>,
  format: (n: number) => string,
  none: string,
): Column<Point> {
  return {
    id: key,
    ...head,
    value: (p) => p.figures[key],
    numeric: true,
    render: (p) => ratioCell(p.figures[key], format, `none: ${none}`),
  };
}

/** The teams to ask the readiness of: none (everyone's) with the organization's row, else the outermost shown. */
export function readinessScope(rows: readonly TeamSummaryRow[]): string[] {
  if (rows.some(isOrganization)) return [];
  const shown = new Set(rows.map((r) => r.team));
  return rows.filter((r) => !isUnassigned(r) && (r.parent === null || !shown.has(r.parent))).map((r) => r.team);
}
