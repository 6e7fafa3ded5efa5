import { useQuery } from '@tanstack/react-query';
import type { Cohorts } from '../../api/insights';
import { Widget } from '../../components/Widget';
import { cohortsQuery } from '../../data/insights';
import { formatDayLong, formatDayShort, HISTORY_START, weekStart } from '../../lib/dates';
import { formatExact, formatPercent } from '../../lib/format';

/** The heat map's cell: the share as text, and as the strength of the accent colour behind it. */
function Cell({ share }: { share: number | null }) {
  if (share === null) return <td className="px-2 py-1 text-center text-fg-subtle">·</td>;
  const pct = Math.round(share * 100);
  return (
    <td
      className="px-2 py-1 text-right tabular-nums"
      style={{ background: `color-mix(in srgb, var(--heat) ${Math.round(share * 60)}%, var(--surface))` }}
    >
      {pct}%
    </td>
  );
}

/** The offsets some cohort already has a share for (a 52-week column waits until the history is that long). */
export function shownOffsets(c: Cohorts): number[] {
  return c.offsets.flatMap((_, i) => (c.cohorts.some((x) => x.retention[i] !== null) ? [i] : []));
}

/** The first cohort, the week history starts in, holds everyone already active then, not only newcomers. */
export const isFirstCohort = (week: string) => week === weekStart(HISTORY_START);

export function cohortsCsv(c: Cohorts) {
  const shown = shownOffsets(c);
  return {
    filename: 'adoption-cohorts',
    header: ['week_first_active', 'people', ...shown.map((i) => `active_after_${c.offsets[i]}_weeks`)],
    rows: c.cohorts.map((x) => [
      x.week,
      x.size,
      ...shown.map((i) => {
        const r = x.retention[i]!;
        return r === null ? undefined : Math.round(r * 10_000) / 10_000;
      }),
    ]),
  };
}

/**
 * Adoption cohorts: people grouped by the week they were first active (history's weeks, Monday to
 * Sunday UTC), and for each week's cohort the share active again 1, 2, 4, 8 … weeks later. A week
 * that has not ended is left blank rather than read as nobody coming back.
 */
export function CohortsWidget({ teams }: { teams: readonly string[] }) {
  const q = useQuery(cohortsQuery(teams));
  const c = q.data;
  const partial = c && c.storedDays < c.historyDays;
  return (
    <Widget
      title="Adoption cohorts"
      description={`People by the week they were first active${teams.length ? ' (the teams chosen)' : ''}, and the share of them active again that many weeks later.${
        partial
          ? ` The store holds ${formatExact(c.storedDays)} of ${formatExact(c.historyDays)} days of history so far: early weeks may count people who started before.`
          : ''
      }`}
      query={q}
      isEmpty={(d) => d.cohorts.length === 0}
      emptyText="Nobody has been active yet."
      csv={cohortsCsv}
    >
      {(d) => {
        const shown = shownOffsets(d);
        const waiting = d.offsets.filter((_, i) => !shown.includes(i));
        return (
          // Scrolls on its own: reachable by keyboard, named for what it holds.
          <div className="max-h-[32rem] overflow-auto" tabIndex={0} role="region" aria-label="Cohorts table">
            <table className="w-full text-sm">
              <caption className="sr-only">
                Share of each week’s new people active again after 1, 2, 4, 8 … weeks
              </caption>
              <thead>
                <tr className="text-fg-subtle">
                  <th scope="col" className="px-2 py-1 text-left font-medium">
                    First active
                  </th>
                  <th scope="col" className="px-2 py-1 text-right font-medium">
                    People
                  </th>
                  {shown.map((i) => (
                    <th key={i} scope="col" className="px-2 py-1 text-right font-medium">
                      {d.offsets[i] === 1 ? '1 week' : `${d.offsets[i]} weeks`}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {d.cohorts.map((x) => (
                  <tr key={x.week} className="border-t border-line-subtle">
                    <th scope="row" className="px-2 py-1 text-left font-normal">
                      week of {formatDayShort(x.week)}
                      {isFirstCohort(x.week) && <span aria-hidden="true">*</span>}
                    </th>
                    <td className="px-2 py-1 text-right tabular-nums">{formatExact(x.size)}</td>
                    {shown.map((i) => (
                      <Cell key={i} share={x.retention[i]!} />
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="mt-2 text-xs text-fg-subtle">
              · the week has not ended yet. Shares are of the cohort: {formatPercent(0.5)} means half its people were
              active in that week.
              {d.cohorts.some((x) => isFirstCohort(x.week)) &&
                ` * The history starts on ${formatDayLong(HISTORY_START)}: the week of ${formatDayShort(weekStart(HISTORY_START))} holds everyone already active then, not only people new that week.`}
              {waiting.length > 0 &&
                ` ${waiting.map((o) => `${o} weeks`).join(', ')}: shown once the history is that long.`}
            </p>
          </div>
        );
      }}
    </Widget>
  );
}
