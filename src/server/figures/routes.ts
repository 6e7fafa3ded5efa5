/**
 * `GET /api/figures` (its shape: src/api/figures.ts): any figure about people for a scope, a range and a grouping,
 * asked of the figures runner (analytics/figures.ts) as the teams summary asks it, so that the same question gets
 * the same numbers as the pages. Who may ask what is `ACCESS.figures`, decided by the gate before the route runs;
 * privacy mode is the runner's (teams it does not show are no rows, people are pseudonyms), and a list of people
 * fewer than the smallest group is withheld as the users table's is. `POST /api/intensity/thresholds` is an admin's
 * refresh of a quarter's intensity thresholds (lib/intensity.ts).
 */
import type { IncomingMessage } from 'node:http';
import * as z from 'zod/mini';
import {
  FIGURE_GROUPINGS,
  FIGURES_PATH,
  figuresAnswerSchema,
  INTENSITY_THRESHOLDS_PATH,
  MEASURE_IDS,
  thresholdsInputSchema,
  thresholdsSchema,
  type FiguresAnswer,
} from '../../api/figures';
import { HISTORY_START, previousPeriod, type Day, type DayRange } from '../../lib/dates';
import { isQuarter, MIN_ACTIVE, quarterOf, quarterRange, weeksTo } from '../../lib/intensity';
import { isFunnel, isIntensity, MEASURES, termsOf, type MeasureId } from '../../lib/measures';
import type { FiguresRunner } from '../analytics/figures';
import { ACCESS } from '../auth/access';
import { errorResponse, HttpError } from '../core/errors';
import { json } from '../core/response';
import { readJson } from '../core/text';
import { oneOf, queryParser, quote, whole } from '../http/query';
import { requireEditor, route, type Route } from '../http/router';
import type { StoreDb } from '../store/db';
import { knownUser } from '../store/queries';
import type { PriceList } from '../spend/prices';
import type { MappingSource } from '../teams/source';

export interface FiguresRoutesOptions {
  store: StoreDb;
  /** The figures runner (analytics/figures.ts). */
  runner: Promise<FiguresRunner>;
  source: MappingSource;
  /** The price list in force, or none (then no spend measure is answered). */
  prices: () => PriceList | null;
  /** Fills a range's days from the service first, as the store's own answers do: `/users` or `/tokens` ones. */
  fill: (r: DayRange, from: 'users' | 'tokens') => Promise<void>;
  /** The latest day with data: no quarter after its own has thresholds to refresh. */
  latestDay: () => Day;
  /** Whether sign-in is on (without it, thresholds are refreshed only from the machine the dashboard runs on). */
  signIn: boolean;
}

const MAX_TOP = 1000;

const measureError = (iss: { input?: unknown }) =>
  `measure must be one of ${MEASURE_IDS.join(', ')}; got ${quote(iss.input)}.`;

export const figuresQuery = queryParser({
  range: 'optional',
  teams: true,
  repeated: ['measure'],
  shape: {
    measure: z._default(z.optional(z.array(z.enum(MEASURE_IDS, { error: measureError }))), []),
    by: oneOf('by', FIGURE_GROUPINGS, 'total'),
    user: z.optional(
      z
        .string()
        .check(
          z.minLength(1, { error: 'user must be a person’s id; got nothing.' }),
          z.maxLength(200, { error: 'user must be at most 200 characters long.' }),
        ),
    ),
    compare: oneOf('compare', ['previous', 'none'], 'previous'),
    // Absent: every person (0 is no value a reader may give).
    top: whole('top', 0, 1, MAX_TOP),
  },
});

/** Whether a measure is computed from the service's `/tokens` days (its split per person, or spend priced from it). */
const fromTokens = (m: MeasureId) =>
  termsOf(m).some((t) => {
    const c = MEASURES[t].combine;
    return 'sum' in c && c.source !== 'users';
  });
const isSpend = (m: MeasureId) =>
  termsOf(m).some((t) => {
    const c = MEASURES[t].combine;
    return 'sum' in c && c.source === 'spend';
  });

/** The quarter a refresh names; else the 400 (or 415, 413) that says what is wrong with the body. */
async function readQuarter(req: IncomingMessage): Promise<string> {
  const example = '{"quarter": "2026-Q2"}';
  const body = await readJson(req, 1024, {
    unsupported: `Send the quarter as JSON: ${example}.`,
    tooLarge: `The body is at most 1 KB of JSON: ${example}.`,
    invalid: `The body is not valid JSON: send ${example}.`,
  });
  const quarter = (body as { quarter?: unknown } | null)?.quarter;
  if (!isQuarter(quarter))
    throw new HttpError(400, `"quarter" must be a calendar quarter such as "2026-Q2", got ${quote(quarter)}.`);
  return quarter;
}

export function createFiguresRoutes(opts: FiguresRoutesOptions) {
  const { store, fill } = opts;
  const routes: Route[] = [
    route({
      method: 'GET',
      path: FIGURES_PATH,
      memo: true,
      query: figuresQuery,
      access: ACCESS.figures,
      what: 'the figures',
      response: figuresAnswerSchema,
      async handle({ query: { range, teams, params: p }, scope }) {
        const measures = [...new Set(p.measure)];
        if (measures.length === 0)
          return errorResponse(
            400,
            `Name at least one measure: measure=<id>, several allowed; the measures are ${MEASURE_IDS.join(', ')}.`,
          );
        if (p.top > 0 && p.by !== 'person')
          return errorResponse(400, `top is taken with by=person only (the first N people by the first measure).`);
        const banded = measures.filter(isIntensity);
        if (banded.length > 0 && p.by === 'person')
          return errorResponse(
            400,
            `${banded.join(', ')} ${banded.length === 1 ? 'is' : 'are'} given by total, day, week or team, or for one person (user=), never by person: intensity is use, not merit, and no list ranks people by it.`,
          );
        const funnelled = measures.filter(isFunnel);
        if (funnelled.length > 0 && p.by === 'person')
          return errorResponse(
            400,
            `${funnelled.join(', ')} ${funnelled.length === 1 ? 'is' : 'are'} given by total, day, week or team (a group of starters), never by person.`,
          );
        const user = p.user ?? null;
        if (user !== null && teams.length > 0)
          return errorResponse(400, 'Give user or team, not both: user= asks for one person’s figures.');
        if (user !== null && (p.by === 'team' || p.by === 'person'))
          return errorResponse(400, `One person’s figures (user=) are by total, day or week, not by ${p.by}.`);
        const list = opts.prices();
        const priced = measures.filter(isSpend);
        if (priced.length > 0 && !list)
          return errorResponse(
            400,
            `${priced.join(', ')} need${priced.length === 1 ? 's' : ''} a price list (PRICES_FILE): this server shows credits only.`,
          );
        const previous = p.compare === 'previous' ? previousPeriod(range) : null;
        const first = previous?.start ?? range.start;
        // A band is of the four whole weeks before; a person's access is their first day seen, from the history's start.
        const span = {
          start: funnelled.length > 0 ? HISTORY_START : banded.length > 0 ? weeksTo(first).start : first,
          end: range.end,
        };
        await fill(span, 'users');
        if (measures.some(fromTokens)) await fill(span, 'tokens');
        if (user !== null && !(await knownUser(store.db, user)))
          return errorResponse(404, `No user with the id ${JSON.stringify(user)} in the stored history.`);
        const lens = scope?.privacy;
        // Privacy mode: the people are counted before any is listed, so that fewer than k are withheld whole.
        const counted = p.by === 'person' && lens !== undefined;
        const runner = await opts.runner;
        const answer = await runner.ask({
          mapping: opts.source.current().mapping,
          measures,
          range,
          by: p.by,
          compare: p.compare === 'previous',
          prices: list,
          scope: {
            people: user !== null ? { user } : teams.length > 0 ? teams : null,
            ...(lens && { privacy: { minGroup: lens.minGroup, name: lens.name } }),
          },
          ...(p.top > 0 && !counted && { top: p.top }),
        });
        const withheld = counted && lens.tooFew(answer.rows.length);
        const rows = withheld ? [] : p.top > 0 ? answer.rows.slice(0, p.top) : answer.rows;
        const body: FiguresAnswer = {
          measures,
          by: p.by,
          range,
          previous: answer.previous,
          teams,
          user,
          ...(priced.length > 0 && list && { currency: list.currency }),
          ...(answer.intensity && { intensity: answer.intensity }),
          ...(answer.funnel && { funnel: answer.funnel }),
          rows: rows.map((r) => ({ key: r.key, current: r.current, previous: r.previous, change: r.change })),
          ...(withheld && {
            withheld: {
              minGroup: lens.minGroup,
              detail: `Privacy mode (PRIVACY_MIN_GROUP=${lens.minGroup}): these are fewer than ${lens.minGroup} people, so neither their rows nor their count are shown.`,
            },
          }),
        };
        return json(200, body);
      },
    }),
    route({
      method: 'POST',
      path: INTENSITY_THRESHOLDS_PATH,
      access: ACCESS.intensityThresholds,
      what: 'the intensity thresholds',
      body: thresholdsInputSchema,
      response: thresholdsSchema,
      async handle({ req, scope }) {
        requireEditor(
          req,
          opts.signIn,
          'the intensity thresholds',
          'elsewhere, configure sign-in (admins refresh them)',
        );
        const quarter = await readQuarter(req);
        const latest = opts.latestDay();
        if (quarter > quarterOf(latest))
          return errorResponse(
            400,
            `${quarter} has not started: the latest day with data is ${latest}, in ${quarterOf(latest)}.`,
          );
        if (quarterRange(quarter).end < HISTORY_START)
          return errorResponse(400, `${quarter} ended before the history starts (${HISTORY_START}): it has no use.`);
        const runner = await opts.runner;
        const t = await runner.refreshThresholds(quarter, scope?.email ?? '');
        if (!t)
          return errorResponse(
            409,
            `Fewer than ${MIN_ACTIVE} people were active in the four whole weeks ${quarter}’s thresholds are computed from: it has none, and the thresholds kept (if any) stay.`,
          );
        return json(200, t);
      },
    }),
  ];
  return { routes };
}
