import { queryOptions } from '@tanstack/react-query';
import { SPEND_PATHS, budgetsSchema, pricesAnswerSchema, spendAnswerSchema, teamsSpendSchema } from '../api/spend';
import { api, getWithLists } from './client';
import type { DayRange } from '../lib/dates';

/**
 * Spend queries. Their keys start with `spend`; those of teams name them (`teams`), so a change of the
 * mapping refetches them with the other team-scoped queries. Spend moves with the budgets and with a
 * new price list: kept a minute.
 */
const SPEND = 'spend';
const STALE = 60_000;

/** `GET /api/spend`: the organization's (no teams), the teams', or one user's spend. */
export const spendQuery = (r: DayRange, teams: readonly string[], user?: string) =>
  queryOptions({
    queryKey: [SPEND, { start: r.start, end: r.end, teams, user: user ?? null }],
    queryFn: ({ signal }) =>
      getWithLists(SPEND_PATHS.spend, spendAnswerSchema, { start: r.start, end: r.end, team: teams, user }, signal),
    staleTime: STALE,
  });

/** `GET /api/spend/teams`: every team's spend, month and budget state. */
export const teamsSpendQuery = (r: DayRange) =>
  queryOptions({
    queryKey: [SPEND, 'teams', { start: r.start, end: r.end }],
    queryFn: ({ signal }) => api.get(SPEND_PATHS.teams, teamsSpendSchema, { start: r.start, end: r.end }, signal),
    staleTime: STALE,
  });

export const budgetsQuery = queryOptions({
  queryKey: [SPEND, 'budgets'],
  queryFn: ({ signal }) => api.get(SPEND_PATHS.budgets, budgetsSchema, undefined, signal),
  staleTime: 0,
});

export const pricesQuery = queryOptions({
  queryKey: [SPEND, 'prices'],
  queryFn: ({ signal }) => api.get(SPEND_PATHS.prices, pricesAnswerSchema, undefined, signal),
  staleTime: 0,
});

/** Every spend query (after the budgets change). */
export const SPEND_KEY = [SPEND] as const;
