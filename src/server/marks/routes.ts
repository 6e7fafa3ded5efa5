/**
 * The marks on the charts (their shapes and list: src/api/marks.ts): dated notes kept in the store for the
 * organization ('') or a team, and the price list's changes, marked by themselves (`price-marks.ts`).
 *
 * Which marks a chart shows: the organization's always, and with teams chosen, those of the teams and of
 * their parent teams (a note on Engineering applies to Engineering/Platform; a sub-team's note is its own
 * and stays off its parent's charts). Who reads: a team's marks as its figures (its managers and admins);
 * the organization's everyone. Who writes: admins any mark; a manager the marks of their teams and
 * sub-teams, never the organization's; a viewer none; without sign-in, the machine the dashboard runs on
 * (as budgets and the mapping: `requireEditor`). Changes from another site are refused before any route
 * (`core/hosts.ts`).
 *
 * A mark's figures before and after it (`figures.ts`) are its scope's figures: the organization's to whoever reads
 * the organization's figures, a team's to its managers and admins, and in privacy mode none of a team the mode does
 * not show; a reader who may read the mark but not its scope's figures (a parent team's mark) is told so.
 */
import type { IncomingMessage } from 'node:http';
import {
  MARK_TEXT_MAX,
  markFiguresSchema,
  markInputSchema,
  markRemovedSchema,
  markSchema,
  marksAnswerSchema,
  type Mark,
  type MarkInput,
} from '../../api/marks';
import { addDays, HISTORY_START, isDay, type Day, type DayRange } from '../../lib/dates';
import { setsFor, type AccessRule, type Decision, type ViewScope } from '../auth/access';
import { errorResponse, HttpError } from '../core/errors';
import { json } from '../core/response';
import { canonicalEmail, readJson } from '../core/text';
import { smallTeamRefusal } from '../auth/privacy';
import type { FiguresRunner } from '../analytics/figures';
import { queryParser, quote } from '../http/query';
import { fromThisMachine, requireEditor, route, type Route } from '../http/router';
import type { StoreDb } from '../store/db';
import {
  addMark,
  countMarks,
  deleteMark,
  readMark,
  readMarks,
  updateMark,
  type StoredMark,
} from '../store/marks-queries';
import type { PricesSource } from '../spend/source';
import type { MappingSource } from '../teams/source';
import { ancestors, isWithin, withAncestors } from '../teams/tree';
import { markFigures } from './figures';
import { priceMarks } from './price-marks';

export interface MarksRoutesOptions {
  store: StoreDb;
  teams: MappingSource;
  prices: PricesSource;
  latestDay: () => Day;
  signIn: boolean;
  /** The figures runner (analytics/figures.ts): a mark's figures before and after it. */
  runner: Promise<FiguresRunner>;
  /** Fills a range's days from the service first, as the other figures' routes do. */
  fill: (r: DayRange, from: 'users' | 'tokens') => Promise<void>;
}

/** How far ahead of the latest day a mark may be set (a rollout planned for next month). */
const AHEAD_DAYS = 366;
/**
 * The most marks kept of one scope (the organization, a team), and in all: a chart's notes, not a log, and what
 * the marks screen lists at once. A scope's cap keeps one team's writer from using up everyone's room.
 */
export const MARKS_MAX = { scope: 1000, all: 10_000 };
const MAX_BODY = 16 * 1024;

const refuse = (detail: string): Decision => ({ allow: false, status: 403, detail });

/** The gate's rule (auth/access.ts applies it before the route): reads as a team's figures, writes for managers and admins. */
export const marksAccess: AccessRule = (v, _cfg, { method, search }) => {
  if (method !== 'GET' && method !== 'HEAD')
    return v.role === 'viewer'
      ? refuse('Marks are added by managers, for their teams, and by admins (ADMIN_EMAILS).')
      : { allow: true };
  const asked = search.getAll('team');
  if (asked.length === 0) return { allow: true };
  if (v.role === 'viewer') return refuse('A team’s marks are shown to its managers and admins.');
  const outside = asked.find((t) => !v.teams.some((m) => isWithin(t, m)));
  return outside === undefined
    ? { allow: true }
    : refuse(
        `You see the marks of ${v.teams.join(', ')} and their sub-teams; ${JSON.stringify(outside)} is not one of them.`,
      );
};

/** A mark's text as kept: control characters and runs of spaces as one space, trimmed. */
// eslint-disable-next-line no-control-regex
const cleanText = (t: string) => t.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();

export function createMarksRoutes(opts: MarksRoutesOptions) {
  const { store, teams: source, prices, latestDay } = opts;

  /**
   * Whether the reader may read a mark of this scope on the marks screen: the organization's, and a team's
   * when it is one of theirs or over one of theirs (a parent team's marks show on their charts).
   */
  const mayRead = (scope: ViewScope | undefined, team: string) =>
    !scope ||
    scope.admin ||
    team === '' ||
    (source.current().mapping?.teams ?? []).some((t) => isWithin(t, team) && scope.seesTeamDetails(t));

  /**
   * Who wrote a mark, as the reader may see people (an email is a person's): to those who may write it; in privacy
   * mode, to a reader who is not an admin only their own (another's email names a person the mode does not name).
   */
  const authorFor = (m: StoredMark, scope: ViewScope | undefined) => {
    if (scope?.privacy) return m.author !== null && canonicalEmail(m.author) === scope.email ? m.author : null;
    return setsFor(scope, m.team) ? m.author : null;
  };
  /** A stored mark for the reader. */
  const view = (m: StoredMark, editable: boolean, scope: ViewScope | undefined): Mark => ({
    id: m.id,
    day: m.day,
    team: m.team,
    text: m.text,
    source: 'user',
    author: authorFor(m, scope),
    updatedAt: m.updated_at,
    editable,
  });
  /** Refused unless sign-in is on or the request comes from the machine the dashboard runs on. */
  const editor = (req: IncomingMessage) =>
    requireEditor(req, opts.signIn, 'marks', 'elsewhere, configure sign-in (managers then mark their teams)');
  const fromHere = (req: IncomingMessage) => opts.signIn || fromThisMachine(req);

  /** A mark as sent; else throws the 400 (or 415, 413) that says what is wrong with it. */
  async function readInput(req: IncomingMessage): Promise<MarkInput> {
    const example = '{"day": "2026-03-02", "team": "" or a team’s path, "text": "Rollout to every team"}';
    const body = await readJson(req, MAX_BODY, {
      unsupported: `Send the mark as JSON: ${example}.`,
      tooLarge: 'A mark is at most 16 KB of JSON.',
      invalid: `The body is not valid JSON: send ${example}.`,
    });
    const b = (body ?? {}) as Record<string, unknown>;
    const bad = (detail: string) => new HttpError(400, detail);
    const latest = latestDay();
    if (typeof b.day !== 'string' || !isDay(b.day)) throw bad(`"day" must be a day (YYYY-MM-DD), got ${quote(b.day)}.`);
    if (b.day < HISTORY_START) throw bad(`"day" (${b.day}) is before the history starts (${HISTORY_START}).`);
    if (b.day > addDays(latest, AHEAD_DAYS))
      throw bad(`"day" (${b.day}) is more than a year after the latest day with data (${latest}).`);
    if (typeof b.team !== 'string') throw bad('"team" must be a team’s path, or "" for the whole organization.');
    const team = b.team.trim();
    if (team !== '' && !withAncestors(source.current().mapping?.teams ?? []).includes(team))
      throw bad(`No team is called ${quote(team)} in the mapping in force.`);
    if (typeof b.text !== 'string') throw bad('"text" must be the mark’s words, as a string.');
    const text = cleanText(b.text);
    if (text === '') throw bad('"text" is empty: say what happened that day.');
    if ([...text].length > MARK_TEXT_MAX)
      throw bad(`"text" is ${[...text].length} characters long; a mark holds at most ${MARK_TEXT_MAX}.`);
    return { day: b.day, team, text };
  }

  /** Throws the 403 unless the reader may write a mark of this scope. */
  const mayWriteOrRefuse = (scope: ViewScope | undefined, team: string) => {
    if (setsFor(scope, team)) return;
    throw new HttpError(
      403,
      team === ''
        ? 'The organization’s marks are set by admins (ADMIN_EMAILS); a manager sets their teams’ marks.'
        : `You set the marks of your teams and their sub-teams; ${quote(team)} is not one of them.`,
    );
  };

  /**
   * The mark at the path when the reader may change it from here; else throws why not (another team's mark is
   * not said to exist: 404).
   */
  async function changeable(req: IncomingMessage, match: readonly string[], scope: ViewScope | undefined) {
    editor(req);
    const id = idOf(match);
    if (id.startsWith('prices:'))
      throw new HttpError(409, 'A price change is marked by the price list itself: change PRICES_FILE to change it.');
    const m = await readMark(store.db, id);
    if (!m || !mayRead(scope, m.team)) throw new HttpError(404, 'No such mark: it may have been removed.');
    mayWriteOrRefuse(scope, m.team);
    return m;
  }

  /**
   * Throws the 409 saying the limit when the scope holds as many marks as it may, or (a new mark, not one moved
   * from another scope) the store does.
   */
  async function roomFor(team: string, added: boolean) {
    const held = await countMarks(store.db, team);
    const n = (x: number) => x.toLocaleString('en');
    if (held.scope >= MARKS_MAX.scope)
      throw new HttpError(
        409,
        `${team === '' ? 'The organization' : quote(team)} has as many marks as one team or the organization keeps (${n(MARKS_MAX.scope)}): remove some to add another.`,
      );
    if (added && held.all >= MARKS_MAX.all)
      throw new HttpError(
        409,
        `The store has as many marks as it keeps (${n(MARKS_MAX.all)}): remove some to add another.`,
      );
  }

  /**
   * Throws the 403 unless the reader may read the figures of a mark's scope: the organization's (unless
   * RESTRICT_ORG_VIEW keeps a manager to their teams), a team's for its managers and admins, and in privacy mode
   * not a team the mode does not show.
   */
  async function mayReadFiguresOrRefuse(scope: ViewScope | undefined, team: string) {
    if (!scope || scope.admin) return;
    if (team === '') {
      if (!scope.orgView)
        throw new HttpError(403, 'Organization-wide figures are not shown to managers here (RESTRICT_ORG_VIEW).');
      return;
    }
    if (!scope.seesTeamDetails(team))
      throw new HttpError(
        403,
        `The figures of ${quote(team)} are shown to its managers and admins: this mark's figures before and after are theirs.`,
      );
    const lens = scope.privacy;
    if (lens && !(await (await opts.runner).shown(source.current().mapping, lens.minGroup)).has(team))
      throw new HttpError(403, smallTeamRefusal(team, lens.minGroup));
  }

  const byDay = (a: Mark, b: Mark) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0);

  const chartQuery = queryParser({ range: 'required', teams: true });
  const one = /^\/api\/marks\/([^/]+)$/;
  const idOf = (match: readonly string[]) => {
    try {
      return decodeURIComponent(match[0]!);
    } catch {
      return '';
    }
  };

  const routes: Route[] = [
    route({
      method: 'GET',
      path: '/api/marks',
      query: chartQuery,
      access: marksAccess,
      what: 'the marks',
      response: marksAnswerSchema,
      handle: async ({ req, query: q, scope }) => {
        const scopes = ['', ...new Set(q.teams.flatMap((t) => [...ancestors(t), t]))];
        const here = fromHere(req);
        const stored = (await readMarks(store.db, q.range, scopes)).map((m) =>
          view(m, here && setsFor(scope, m.team), scope),
        );
        const marks = [...stored, ...priceMarks(prices.current().prices, q.range)].sort(byDay);
        return json(200, { marks });
      },
    }),
    route({
      method: 'GET',
      path: '/api/marks/all',
      access: marksAccess,
      what: 'the marks',
      response: marksAnswerSchema,
      handle: async ({ req, scope }) => {
        const here = fromHere(req);
        const stored = (await readMarks(store.db, null, null))
          .filter((m) => mayRead(scope, m.team))
          .map((m) => view(m, here && setsFor(scope, m.team), scope));
        return json(200, { marks: [...stored, ...priceMarks(prices.current().prices, null)].sort(byDay) });
      },
    }),
    route({
      method: 'GET',
      path: /^\/api\/marks\/([^/]+)\/figures$/,
      label: '/api/marks/:id/figures',
      access: marksAccess,
      what: 'the figures before and after the mark',
      response: markFiguresSchema,
      handle: async ({ match, scope }) => {
        const id = idOf(match);
        const mark = id.startsWith('prices:')
          ? priceMarks(prices.current().prices, null).find((m) => m.id === id)
          : await readMark(store.db, id);
        if (!mark || !mayRead(scope, mark.team)) return errorResponse(404, 'No such mark: it may have been removed.');
        await mayReadFiguresOrRefuse(scope, mark.team);
        const mapping = source.current().mapping;
        if (mark.team !== '' && !withAncestors(mapping?.teams ?? []).includes(mark.team))
          return errorResponse(
            409,
            `No team is called ${quote(mark.team)} in the mapping in force: this mark has no figures until it names a team again.`,
          );
        const privacy = scope?.privacy;
        return json(
          200,
          await markFigures(await opts.runner, {
            mark,
            latest: latestDay(),
            mapping,
            prices: prices.current().prices,
            fill: opts.fill,
            ...(privacy && { privacy: { minGroup: privacy.minGroup, name: privacy.name } }),
          }),
        );
      },
    }),
    route({
      method: 'POST',
      path: '/api/marks',
      access: marksAccess,
      what: 'the mark',
      body: markInputSchema,
      response: { status: 201, schema: markSchema },
      handle: async ({ req, scope }) => {
        editor(req);
        const input = await readInput(req);
        mayWriteOrRefuse(scope, input.team);
        await roomFor(input.team, true);
        const m = await addMark(store.db, input, scope?.email ?? null);
        return json(201, view(m, true, scope));
      },
    }),
    route({
      method: 'PUT',
      path: one,
      label: '/api/marks/:id',
      access: marksAccess,
      what: 'the mark',
      body: markInputSchema,
      response: markSchema,
      handle: async ({ req, match, scope }) => {
        const old = await changeable(req, match, scope);
        const input = await readInput(req);
        mayWriteOrRefuse(scope, input.team);
        if (input.team !== old.team) await roomFor(input.team, false);
        const m = await updateMark(store.db, old.id, input);
        return m ? json(200, view(m, true, scope)) : errorResponse(404, 'No such mark: it may have been removed.');
      },
    }),
    route({
      method: 'DELETE',
      path: one,
      label: '/api/marks/:id',
      access: marksAccess,
      what: 'the mark',
      response: markRemovedSchema,
      handle: async ({ req, match, scope }) => {
        const old = await changeable(req, match, scope);
        await deleteMark(store.db, old.id);
        return json(200, { removed: old.id });
      },
    }),
  ];
  return { routes };
}
