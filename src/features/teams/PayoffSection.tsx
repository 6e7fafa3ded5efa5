import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { readinessByTeamQuery } from '../../data/teams';
import type { ReadinessAnswer } from '../../api/readiness';
import { useMemo, useState } from 'react';
import { Widget, type WidgetSource } from '../../components/Widget';
import { formatDayLong, type DayRange } from '../../lib/dates';
import type { OutcomeWeek } from '../../lib/outcomes';
import { CORRELATION_CAVEAT, MIN_WEEKS, PAYOFF_WEEKS } from '../../lib/payoff';
import { levelPoints } from './level-points';
import { NoRepos } from '../../components/NoRepos';
import { PayoffChart } from './PayoffChart';
import { PayoffComparisons } from './PayoffComparisons';

import { shortRepo, teamPayoff, type TeamPayoff } from './payoff-shaping';
import { TableToggle } from '../../components/TableToggle';

const toOwned = (r: ReadinessAnswer) => ({ ownership: r.ownership, repos: r.repos, points: levelPoints(r.reports) });

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * "Did it pay off" on a team's page: the days its repositories' levels rose (or fell) in the range, its weekly
 * figures with each change marked, and the figures of the whole weeks before and after each change.
 */
export function PayoffSection({
  path,
  name,
  range,
  weeks,
}: {
  path: string;
  name: string;
  range: DayRange;
  weeks: WidgetSource<OutcomeWeek[]>;
}) {
  const readiness = useQuery({ ...readinessByTeamQuery([path]), placeholderData: keepPreviousData, select: toOwned });
  const [asTable, setAsTable] = useState(false);
  const w = weeks.data;
  const owned = readiness.data;
  const data = useMemo(
    () => (w && owned ? { weeks: w, owned, payoff: teamPayoff(owned, w, range) } : undefined),
    [w, owned, range],
  );
  const failed = readiness.isError ? readiness : weeks.status === 'error' ? weeks : undefined;
  const source = {
    data,
    status: failed ? ('error' as const) : data ? ('success' as const) : ('pending' as const),
    error: failed?.error ?? null,
    isPlaceholderData: readiness.isPlaceholderData || weeks.isPlaceholderData,
    refetch: () => (failed === readiness ? readiness.refetch() : weeks.refetch?.()),
  };
  return (
    <Widget
      title="Did it pay off"
      description={`Whether ${name}'s figures moved when its repositories' readiness levels did: the ${PAYOFF_WEEKS} whole weeks before the week of a change beside the ${PAYOFF_WEEKS} after it, in the range (at least ${MIN_WEEKS} on each side).`}
      query={source}
      actions={
        data?.payoff.repos ? (
          <TableToggle what="the weekly figures and level changes" pressed={asTable} onChange={setAsTable} />
        ) : undefined
      }
    >
      {(d) =>
        d.payoff.repos === 0 ? (
          <NoRepos team={name} />
        ) : (
          <div className="flex flex-col gap-3">
            <Changes payoff={d.payoff} range={range} />
            <PayoffChart
              weeks={d.weeks}
              changes={d.payoff.changes}
              markers={d.payoff.markers}
              team={path}
              name={name}
              asTable={asTable}
            />
            {d.payoff.comparisons.length > 0 && <PayoffComparisons comparisons={d.payoff.comparisons} />}
            <p role="note" className="text-xs text-fg-muted">
              {CORRELATION_CAVEAT} Behind this: {plural(d.payoff.repos, 'repository', 'repositories')} (
              {d.payoff.reported} with a report), {plural(d.payoff.changes.length, 'level change')} and{' '}
              {plural(d.payoff.wholeWeeks, 'whole week')} in the range.
            </p>
          </div>
        )
      }
    </Widget>
  );
}

/** The days the team's repositories' levels rose and fell in the range. */
function Changes({ payoff, range }: { payoff: TeamPayoff; range: DayRange }) {
  const rises = payoff.changes.filter((c) => c.direction === 'rise');
  const falls = payoff.changes.filter((c) => c.direction === 'fall');
  if (payoff.changes.length === 0)
    return (
      <p className="text-sm text-fg-soft">
        No repository of this team changed level from {formatDayLong(range.start)} to {formatDayLong(range.end)}.
      </p>
    );
  const list = (title: string, cs: typeof rises) =>
    cs.length > 0 && (
      <div>
        <h3 className="text-sm font-medium text-fg">{title}</h3>
        <ul className="text-sm text-fg-soft">
          {cs.map((c) => (
            <li key={`${c.repo}|${c.day}`}>
              {formatDayLong(c.day)}: <span className="font-mono text-xs">{shortRepo(c.repo)}</span>, level {c.from} →{' '}
              {c.to}
            </li>
          ))}
        </ul>
      </div>
    );
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      {list('Level rises', rises)}
      {list('Level falls', falls)}
    </div>
  );
}
