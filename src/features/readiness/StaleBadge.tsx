import { useAppConfig } from '../../data/config';
import { isStale, reportAgeDays } from '../../lib/readiness';

/**
 * "stale · 45 days" beside a repository whose latest report is older than `staleAfter` days (the days its
 * `readiness-stale` alert rules say, else 30), counted as the alerts count it: in UTC days to the day after the
 * latest complete day. Nothing when the report is fresh.
 */
export function StaleBadge({ createdAt, staleAfter }: { createdAt: number; staleAfter: number }) {
  const { latestDay } = useAppConfig();
  const age = reportAgeDays(createdAt, latestDay);
  if (!isStale(age, staleAfter)) return null;
  const limit = `${staleAfter} ${staleAfter === 1 ? 'day' : 'days'}`;
  const why = `The latest report is ${age} days old: older than ${limit}.`;
  return (
    <span
      title={why}
      className="ml-2 inline-block rounded bg-warning-surface-strong px-1.5 py-px text-xs font-medium whitespace-nowrap text-warning-fg"
    >
      stale · {age} days<span className="sr-only"> (older than {limit})</span>
    </span>
  );
}
