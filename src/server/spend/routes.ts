/**
 * The spend endpoints (their shapes and list: src/api/spend.ts), computed by the analytics engine
 * (src/server/analytics/spend.ts) with the price list in force.
 */
import type { IncomingMessage } from 'node:http';
import * as z from 'zod/mini';
import {
  budgetsInputSchema,
  budgetsSchema,
  FORECAST_METHOD,
  pricesAnswerSchema,
  spendAnswerSchema,
  teamsSpendSchema,
  type MonthSpend,
  type TeamSpendRow,
} from '../../api/spend';
import {
  addDays,
  eachDay,
  HISTORY_START,
  maxDay,
  monthStart,
  previousPeriod,
  type Day,
  type DayRange,
} from '../../lib/dates';
import { ACCESS, type ViewScope } from '../auth/access';
import { errorResponse, HttpError } from '../core/errors';
import { readJson } from '../core/text';
import { silentLogger, type Logger } from '../core/log';
import { json, type HttpResponse } from '../core/response';
import { queryParser, quote } from '../http/query';
import { requireEditor, route, type Route } from '../http/router';
import type { StoreDb } from '../store/db';
import { readBudgets, writeBudgets } from '../store/teams-queries';
import type { Spend } from '../analytics/spend';
import type { Selection } from '../analytics/teams';
import type { MappingSource } from '../teams/source';
import { UNASSIGNED, withAncestors } from '../teams/tree';
import type { FiguresRunner } from '../analytics/figures';
import { budgetStatus, FORECAST_WINDOW, forecastMonth } from './forecast';
import type { PriceList } from './prices';
import type { PricesSource } from './source';

export interface SpendRoutesOptions {
  store: StoreDb;
  /** Spend (the analytics engine's). */
  spend: Promise<Spend>;
  /** The figures runner (analytics/figures.ts): every team's spend. */
  runner: Promise<FiguresRunner>;
  /** Fills a range's `/tokens` days from the service first, as the store's own answers do. */
  fill: (r: DayRange) => Promise<void>;
  teams: MappingSource;
  prices: PricesSource;
  latestDay: () => Day;
  signIn?: boolean;
  logger?: Logger;
}

const MAX_BUDGET_BYTES = 1024 * 1024;

/** The days the month's forecast reads: the month so far and the four weeks before the latest day. */
function monthWindow(latest: Day): DayRange {
  const start = [monthStart(latest), addDays(latest, -(FORECAST_WINDOW - 1))].sort()[0]!;
  return { start: maxDay(start, HISTORY_START), end: latest };
}

/** A window's days, each by its place: made once a request, as every team's month reads the same days. */
const placesIn = (window: DayRange) => new Map(eachDay(window.start, window.end).map((d, i) => [d, i]));

function month(window: DayRange, places: Map<Day, number>, spend: Float64Array, budget?: number): MonthSpend {
  // A day's spend from the array of the window's days.
  const on = (d: Day) => spend[places.get(d) ?? -1] ?? 0;
  const m = forecastMonth(on, HISTORY_START, window.end);
  const days = [];
  for (let d = maxDay(m.start, HISTORY_START); d <= m.latest; d = addDays(d, 1)) days.push({ date: d, spend: on(d) });
  return { ...m, budget: budget === undefined ? null : budgetStatus(budget, m, on, HISTORY_START), days };
}

/** The credits and spend of some days, together. */
const total = (days: { credits: number; spend: number }[]) => ({
  credits: days.reduce((x, d) => x + d.credits, 0),
  spend: days.reduce((x, d) => x + d.spend, 0),
});

const spendQuery = queryParser({
  range: 'optional',
  teams: true,
  shape: { user: z.optional(z.string().check(z.refine((v) => v.trim() !== '', { error: 'user must be a user id.' }))) },
});

export function createSpendRoutes(opts: SpendRoutesOptions) {
  const { store, teams: source, prices: pricesSource, latestDay } = opts;
  /** The engine, once the ranges' `/tokens` days are filled. */
  const engine = async (...ranges: DayRange[]) => {
    await Promise.all(ranges.map((r) => opts.fill(r)));
    return opts.spend;
  };
  const spendOf = (days: { spend: number }[]) => Float64Array.from(days, (d) => d.spend);
  const logger = opts.logger ?? silentLogger;

  const pricesOrRefuse = (): PriceList => {
    const p = pricesSource.current().prices;
    if (!p) throw new HttpError(404, 'No price list: set PRICES_FILE to show spend. Credits are shown without it.');
    return p;
  };

  /**
   * The budgets the reader may see ('' is the organization's): every one without sign-in, to an admin and
   * to a manager; under RESTRICT_ORG_VIEW a manager's teams' only; none to a viewer (no team of theirs).
   */
  async function budgetsFor(scope: ViewScope | undefined): Promise<Map<string, number>> {
    const all = await readBudgets(store.db);
    if (!scope || scope.admin) return all;
    const manager = source.current().mapping?.teams.some((t) => scope.seesTeamDetails(t)) ?? false;
    return new Map([...all].filter(([t]) => manager && (scope.orgView || scope.seesTeamDetails(t))));
  }

  /** The organization's spend, some teams' (`teams`), or one person's (`user`). */
  async function spend(q: { range: DayRange; teams: string[]; user: string | null }, scope?: ViewScope) {
    const prices = pricesOrRefuse();
    const { range, teams, user } = q;
    if (user !== null && teams.length > 0) throw new HttpError(400, 'Ask for a user or for teams, not both.');
    const prev = previousPeriod(range);
    const latest = latestDay();
    const window = monthWindow(latest);
    const places = placesIn(window);
    const selected: Selection = user !== null ? { user } : teams.length > 0 ? teams : null;
    const mapping = source.current().mapping;
    const e = await engine({ start: prev?.start ?? range.start, end: range.end }, window);
    const [cur, before, inMonth, models] = await Promise.all([
      e.days(mapping, selected, range, prices),
      prev ? e.days(mapping, selected, prev, prices) : null,
      e.days(mapping, selected, window, prices),
      e.byModel(mapping, selected, range, prices),
    ]);
    // The organization's budget, or one team's; several teams or a user have none.
    const budgets = await budgetsFor(scope);
    const budget = user !== null || teams.length > 1 ? undefined : budgets.get(teams[0] ?? '');
    return {
      currency: prices.currency,
      range,
      teams,
      user,
      days: cur,
      ...total(cur),
      previous: before ? total(before) : null,
      models,
      month: month(window, places, spendOf(inMonth), budget),
      method: FORECAST_METHOD,
    };
  }

  /**
   * Every team's spend, month and budget state (`only`: those teams and their sub-teams), each team's with its
   * sub-teams' (the figures runner's roll-up). Privacy mode: a team it does not show is no row (under k members, or
   * a small group's difference); its spend stays in its parent's and the organization's.
   */
  async function teamsSpend(scope: ViewScope | undefined, range: DayRange, only: readonly string[]) {
    const prices = pricesOrRefuse();
    const mapping = source.current().mapping;
    const window = monthWindow(latestDay());
    const places = placesIn(window);
    const e = await engine(range, window);
    const runner = await opts.runner;
    const lens = scope?.privacy;
    const teamScope = {
      people: only.length > 0 ? only : null,
      ...(lens && { privacy: { minGroup: lens.minGroup, name: lens.name } }),
    };
    const restricted = scope !== undefined && !scope.orgView;
    const [inRange, inMonth, org, orgMonth] = await Promise.all([
      runner.ask({ mapping, measures: ['billedCredits', 'spend'], range, by: 'team', scope: teamScope, prices }),
      runner.ask({ mapping, measures: ['spend'], range: window, by: 'team', scope: teamScope, prices, line: 'spend' }),
      restricted ? null : e.days(mapping, null, range, prices),
      restricted ? null : e.days(mapping, null, window, prices),
    ]);
    const budgets = await budgetsFor(scope);
    const lines = new Map(inMonth.rows.map((r) => [r.key, Float64Array.from(r.line ?? [])]));
    const row = (r: (typeof inRange.rows)[number]): TeamSpendRow => ({
      team: r.key,
      credits: r.current.billedCredits ?? 0,
      spend: r.current.spend ?? 0,
      month: month(window, places, lines.get(r.key) ?? new Float64Array(0), budgets.get(r.key)),
    });
    // Unassigned last, after the teams in tree order.
    const rows: TeamSpendRow[] = [
      ...(org && orgMonth
        ? [{ team: '', ...total(org), month: month(window, places, spendOf(orgMonth), budgets.get('')) }]
        : []),
      ...inRange.rows.filter((r) => r.key !== UNASSIGNED).map(row),
      ...inRange.rows.filter((r) => r.key === UNASSIGNED && (only.length === 0 || only.includes(UNASSIGNED))).map(row),
    ];
    return { currency: prices.currency, range, rows, method: FORECAST_METHOD };
  }

  async function budgetsBody(scope?: ViewScope) {
    const budgets = await budgetsFor(scope);
    return {
      currency: pricesOrRefuse().currency,
      budgets: [...budgets].map(([team, monthly]) => ({ team, monthly })).sort((a, b) => a.team.localeCompare(b.team)),
    };
  }

  async function saveBudgets(req: IncomingMessage, scope: ViewScope | undefined): Promise<HttpResponse> {
    pricesOrRefuse();
    requireEditor(req, opts.signIn === true, 'the budgets', 'elsewhere, sign-in makes admins able to');
    const body = await readJson(req, MAX_BUDGET_BYTES, {
      unsupported: 'Send the budgets as JSON: {"budgets": [{"team": "Engineering", "monthly": 5000}]}.',
      tooLarge: 'The budgets are larger than 1 MB.',
      invalid: 'The body is not valid JSON: send {"budgets": [{"team": "…", "monthly": 5000}]}.',
    });
    const list = (body as { budgets?: unknown } | null)?.budgets;
    if (!Array.isArray(list))
      return errorResponse(400, 'Send {"budgets": [{"team": "…", "monthly": 5000}]}: "budgets" must be a list.');
    const known = new Set(['', ...withAncestors(source.current().mapping?.teams ?? []), UNASSIGNED]);
    const out = new Map<string, number>();
    const problems: string[] = [];
    list.forEach((b: unknown, i) => {
      const e = (b ?? {}) as { team?: unknown; monthly?: unknown };
      const at = `budget ${i + 1}`;
      if (typeof e.team !== 'string')
        return void problems.push(`${at}: "team" must be a team's path, or "" for the organization`);
      const team = e.team.trim();
      if (!known.has(team))
        return void problems.push(`${at}: no team is called ${quote(team)} in the mapping in force`);
      if (typeof e.monthly !== 'number' || !Number.isFinite(e.monthly) || e.monthly <= 0)
        return void problems.push(`${at}: "monthly" must be a positive amount`);
      if (out.has(team))
        return void problems.push(`${at}: a second budget for ${team === '' ? 'the organization' : quote(team)}`);
      out.set(team, e.monthly);
    });
    if (problems.length > 0)
      return errorResponse(
        400,
        `The budgets were refused; those in force are unchanged. ${problems.slice(0, 10).join('; ')}.`,
      );
    await writeBudgets(store.db, out);
    logger.info('budgets saved', { budgets: out.size });
    return json(200, await budgetsBody(scope));
  }

  const budgetsRoute = (
    method: 'GET' | 'PUT',
    handle: (req: IncomingMessage, scope: ViewScope | undefined) => Promise<HttpResponse>,
  ) =>
    route({
      method,
      path: '/api/spend/budgets',
      access: ACCESS.budgets,
      what: 'the budgets',
      response: budgetsSchema,
      ...(method === 'PUT' && { body: budgetsInputSchema }),
      handle: ({ req, scope }) => handle(req, scope),
    });
  const routes: Route[] = [
    budgetsRoute('GET', async (_, scope) => json(200, await budgetsBody(scope))),
    budgetsRoute('PUT', saveBudgets),
    route({
      method: 'GET',
      path: '/api/spend',
      memo: true,
      query: spendQuery,
      access: ACCESS.spend,
      what: 'spend',
      response: spendAnswerSchema,
      handle: async ({ query: q, scope }) =>
        json(200, await spend({ range: q.range, teams: q.teams, user: q.params.user ?? null }, scope)),
    }),
    route({
      method: 'GET',
      path: '/api/spend/teams',
      memo: true,
      query: queryParser({ range: 'optional', teams: true }),
      access: ACCESS.spendTeams,
      what: 'spend',
      response: teamsSpendSchema,
      handle: async ({ query: q, scope }) => json(200, await teamsSpend(scope, q.range, q.teams)),
    }),
    route({
      method: 'GET',
      path: '/api/spend/prices',
      access: ACCESS.everyone,
      what: 'the price list',
      response: pricesAnswerSchema,
      handle: async () => {
        const s = pricesSource.current();
        const p = pricesOrRefuse();
        return json(200, {
          currency: p.currency,
          name: s.name,
          loadedAt: s.loadedAt,
          entries: p.entries.map(({ line: _, ...e }) => e),
          refused: s.refused && { at: s.refused.at, errors: s.refused.errors.map((e) => e.message) },
        });
      },
    }),
  ];

  /**
   * The budgets set and their state this month (the organization's as team ''), for the highlights;
   * empty without a price list.
   */
  async function budgetStates(): Promise<{ currency: string; rows: TeamSpendRow[] }> {
    const prices = pricesSource.current().prices;
    if (!prices) return { currency: '', rows: [] };
    const budgets = await readBudgets(store.db);
    if (budgets.size === 0) return { currency: prices.currency, rows: [] };
    const latest = latestDay();
    const answer = await teamsSpend(undefined, { start: latest, end: latest }, []);
    return { currency: answer.currency, rows: answer.rows.filter((r) => r.month.budget !== null) };
  }

  return { routes, budgetStates, spend };
}
