/**
 * The marks on the charts (src/api/marks.ts): dated notes for the organization or a team, and the price
 * list's changes. Only a server that keeps a store has them. Keyed under `marks`: a change on the marks
 * screen asks again for every chart's.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { markFiguresPath, markFiguresSchema, MARKS_PATHS, marksAnswerSchema, type Mark } from '../api/marks';
import type { DayRange } from '../lib/dates';
import { api, getWithLists } from './client';
import { useAppConfig } from './config';
import type { Me } from './me';
import { useRange, useTeams } from './search';

export const MARKS_KEY = ['marks'] as const;

/** `GET /api/marks`: the marks a chart of these teams (none: the organization) shows in the range. */
export const marksQuery = (r: DayRange, teams: readonly string[]) =>
  queryOptions({
    queryKey: [...MARKS_KEY, { start: r.start, end: r.end, teams: [...teams] }],
    queryFn: ({ signal }) =>
      getWithLists(MARKS_PATHS.marks, marksAnswerSchema, { start: r.start, end: r.end, team: [...teams] }, signal),
    staleTime: 60_000,
  });

/** `GET /api/marks/all`: every mark the reader may see (the marks screen). */
export const allMarksQuery = queryOptions({
  queryKey: [...MARKS_KEY, 'all'],
  queryFn: ({ signal }) => api.get(MARKS_PATHS.all, marksAnswerSchema, undefined, signal),
  staleTime: 0,
});

/**
 * `GET /api/marks/:id/figures`: the mark's scope's figures before and after it. Under `marks`, so a changed mark
 * (another day, another team) is asked again.
 */
export const markFiguresQuery = (id: string) =>
  queryOptions({
    queryKey: [...MARKS_KEY, 'figures', id],
    queryFn: ({ signal }) => api.get(markFiguresPath(id), markFiguresSchema, undefined, signal),
    staleTime: 60_000,
  });

const NONE: readonly Mark[] = [];

/**
 * The marks of the page's range for a daily chart of these teams (undefined: the teams of the URL), or
 * none: without a store, while they load, or when they cannot be read (a chart is never held up or
 * blanked by its marks).
 */
export function useChartMarks(teams?: readonly string[]): readonly Mark[] {
  const { teams: stored } = useAppConfig();
  const [selected] = useTeams();
  const { range } = useRange();
  const q = useQuery({
    ...marksQuery(range, teams ?? selected),
    enabled: stored,
  });
  return (stored && q.data?.marks) || NONE;
}

/**
 * Whether the reader may write a mark of this scope, as the server decides it (server/marks/routes.ts): without
 * sign-in anyone (the server then takes it only from the machine it runs on), an admin any, a manager their
 * teams' and sub-teams', never the organization's; a viewer none.
 */
export function mayWriteMark(me: Me | undefined, signIn: boolean, team: string): boolean {
  if (!signIn || me?.role === 'admin') return true;
  if (me?.role !== 'manager' || team === '') return false;
  return me.teams.some((m) => team === m || team.startsWith(`${m}/`));
}
