import { useQuery } from '@tanstack/react-query';
import { useAppConfig } from '../data/config';
import { syncStatusQuery } from '../data/sync';
import { daysBetween, formatDayShort, HISTORY_START } from '../lib/dates';
import { formatExact } from '../lib/format';

/** What each of the service's endpoints holds, in a manager's words. */
const PLAIN: Record<string, string> = {
  users: 'each person’s daily activity',
  tokens: 'credits and tokens',
  tools: 'tool use',
  activity: 'sessions and messages',
  productivity: 'files, commits and pull requests',
};

/**
 * A task of the sync, as the server names it (`users 2026-05-01…2026-05-31 (page 3)`, `tokens by model 2026-05-01…
 * 2026-05-31`, `readiness reports`), in plain words: "each person’s daily activity for May 1 – May 31 (page 3)".
 */
export function plainTask(label: string): string {
  const m = /^(\w+)(?: by [\w ]+?)? (\d{4}-\d{2}-\d{2})(?:…(\d{4}-\d{2}-\d{2}))?(?: \(page (\d+)\))?$/.exec(label);
  if (!m) return label;
  const [, endpoint, start, end, page] = m;
  const days = end && end !== start ? `${formatDayShort(start!)} – ${formatDayShort(end)}` : formatDayShort(start!);
  return `${PLAIN[endpoint!] ?? endpoint} for ${days}${page ? ` (page ${page})` : ''}`;
}

/** One quiet line while the server fills its store from the service: what it loads, and how far it is. */
export function SyncProgress() {
  const { data } = useQuery(syncStatusQuery);
  const { latestDay } = useAppConfig();
  const running = data?.running ?? [];
  const stored = data?.stored?.users?.days;
  const history = daysBetween(HISTORY_START, latestDay) + 1;
  return (
    <p aria-live="polite" className="min-h-4 text-xs text-fg-subtle">
      {running.length > 0 && (
        <>
          <span aria-hidden="true" className="mr-1.5 inline-block size-1.5 animate-pulse rounded-full bg-accent" />
          Loading {plainTask(running[0]!)} from the service
          {running.length > 1 ? ` (and ${running.length - 1} more)` : ''}
          {stored !== undefined && stored < history
            ? ` · ${formatExact(stored)} of ${formatExact(history)} days of people’s activity stored so far`
            : ''}
          …
        </>
      )}
    </p>
  );
}
