import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useSpend } from '../../components/SpendWidgets';
import type { WidgetSource } from '../../components/Widget';
import { analyticsQuery } from '../../data/analytics';
import type { DayRange } from '../../lib/dates';
import { outcomeWeeks, type OutcomeWeek } from '../../lib/outcomes';

/**
 * A team's weeks (lib/outcomes.ts) from the answers its page asks for anyway: the team's `/tokens`,
 * `/productivity`, `/tools` and `/activity` day rows, and its spend with a price list. One source for a
 * widget: pending until all are in, failed when one failed (its Retry asks the failed ones again).
 */
export function useTeamWeeks(range: DayRange, path: string, enabled: boolean) {
  return useWeeks(range, [path], enabled);
}

/** The organization's weeks, as a team's are made (the same answers the usage pages ask for). */
export function useOrganizationWeeks(range: DayRange, enabled: boolean) {
  return useWeeks(range, NO_TEAMS, enabled);
}

const NO_TEAMS: readonly string[] = [];

/** The weeks of the people of these teams (none: everyone). */
function useWeeks(range: DayRange, teams: readonly string[], enabled: boolean) {
  const opts = { placeholderData: keepPreviousData, enabled } as const;
  // The organization's days without their per-person split: only the day's credits are read here.
  const tokens = useQuery({ ...analyticsQuery('tokens', range, '', teams, { withoutUsers: true }), ...opts });
  const productivity = useQuery({ ...analyticsQuery('productivity', range, '', teams), ...opts });
  const tools = useQuery({ ...analyticsQuery('tools', range, '', teams), ...opts });
  const activity = useQuery({ ...analyticsQuery('activity', range, '', teams), ...opts });
  const spend = useSpend(range, teams, { enabled });
  const priced = spend.currency !== null;
  const all = [tokens, productivity, tools, activity, ...(priced ? [spend.query] : [])];
  const [t, p, o, a, s] = [tokens.data, productivity.data, tools.data, activity.data, spend.query.data];
  const data = useMemo(
    () =>
      t && p && o && a && (!priced || s)
        ? outcomeWeeks(range, {
            tokens: t.data,
            productivity: p.data,
            tools: o.data,
            activity: a.data,
            spend: priced && s ? s.days : null,
          })
        : undefined,
    [range, t, p, o, a, s, priced],
  );
  const failed = all.find((q) => q.isError);
  const source: WidgetSource<OutcomeWeek[]> = {
    data,
    status: failed ? 'error' : data ? 'success' : 'pending',
    error: failed?.error ?? null,
    isPlaceholderData: all.some((q) => q.isPlaceholderData),
    isFetching: all.some((q) => q.isFetching),
    refetch: () => Promise.all(all.filter((q) => q.isError).map((q) => q.refetch())),
  };
  return { weeks: source, currency: spend.currency };
}
