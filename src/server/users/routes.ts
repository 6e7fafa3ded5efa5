/**
 * The users endpoints of the dashboard's server, answered from the store so
 * that no browser walks `/users` (src/api/users.ts holds their shapes):
 *
 *   GET /api/users?start&end&sort&dir&q&delegation&tier&lang&who&offset&limit
 *       a page of the merged per-user table, sorted, filtered and searched here: the people active in the
 *       range, or (`who=inactive`, `all`) the known people who were not, with their last active day; or, with a
 *       mapping, one of the seats' lists (`who=named`, `named-active`, `idle-7`, `idle-30`, `never`: the people it
 *       names, those who never used the agent too), and the seats' counts; the lists of people not using the agent
 *       without the new starters in grace (lib/funnel.ts), with how many each leaves out;
 *   GET /api/users.csv?start&end&sort&dir&q&delegation&tier&lang&who
 *       the whole filtered, sorted table as CSV, streamed;
 *   GET /api/users/<userId>?start&end
 *       that user's rows, by day, and their merge.
 *
 * A range whose days are not all stored yet is walked from the service: the
 * answer waits a moment for it, then says 202 with the progress (the table
 * as it was, when only its latest days are being walked again) and when to
 * ask again. Answers about final days carry an ETag and are revalidated.
 */
import { createHash } from 'node:crypto';
import { setImmediate as letGo } from 'node:timers/promises';
import { userDaysSchema, usersTableSchema, type UserDaysAnswer, type UsersTableAnswer } from '../../api/users';
import { csvCell, toCsv } from '../../lib/csv';
import { daysBetween, HISTORY_START, lastDays, type Day, type DayRange } from '../../lib/dates';
import { DEFAULT_DAYS } from '../../lib/url-state';
import {
  USER_COLUMN_IDS,
  usersCsvColumns,
  WHO,
  type MergedUser,
  type UserColumnId,
  type Who,
} from '../../lib/user-merge';
import { isSeatList, WHO_FILE_TAG } from '../../lib/user-columns';
import type { createUsersTables, UsersCsvRow } from '../analytics/users';
import type { UsersQuestion, UsersTableSpec } from '../analytics/users-question';
import { ACCESS } from '../auth/access';
import { errorResponse } from '../core/errors';
import { errorText, silentLogger, type Logger } from '../core/log';
import { json, jsonText, type HttpResponse, type StreamedResponse } from '../core/response';
import { oneOf, queryParser, text, whole } from '../http/query';
import { decodedParam, route, type Route } from '../http/router';
import type { StoreDb } from '../store/db';
import { knownUser } from '../store/queries';
import { rangeVersion, userDayRows, type RangeVersion } from '../store/users-queries';
import type { SyncEngine } from '../sync/engine';
import { isFinal } from '../sync/spans';
import type { ViewScope } from '../auth/access';
import type { PrivacyLens } from '../auth/privacy';
import type { PriceList } from '../spend/prices';
import type { Mapping } from '../teams/mapping';
import type { Place } from '../teams/source';
import { createRangeFiller, type RangeState } from './fill';
import {
  graceShown,
  managersShown,
  personViewOf,
  privacyRefusal,
  privately,
  seatsShown,
  withheldDetail,
} from './shown';

/** Bumped when an answer's shape or meaning changes: an ETag of the old code must not match. */
const ANSWER_VERSION = 'users-5';
/** Rows per page at most: the browser asks for a few hundred at a time. */
export const MAX_LIMIT = 1000;

const filters = {
  sort: oneOf('sort', USER_COLUMN_IDS as [UserColumnId, ...UserColumnId[]], 'credits'),
  dir: oneOf('dir', ['asc', 'desc'], 'desc'),
  q: text('q', 200),
  delegation: text('delegation', 100),
  tier: text('tier', 100),
  lang: text('lang', 100),
  who: oneOf('who', WHO as unknown as [Who, ...Who[]], 'active'),
};
const csvQuery = queryParser({ range: 'optional', teams: true, shape: filters });
const tableQuery = queryParser({
  range: 'optional',
  teams: true,
  shape: { ...filters, offset: whole('offset', 0, 0, 100_000_000), limit: whole('limit', 100, 1, MAX_LIMIT) },
});
const userQuery = queryParser({ range: 'optional' });

export interface UsersRoutesOptions {
  store: StoreDb;
  engine: SyncEngine;
  latestDay: () => Day;
  /** The sync's refresh window: only answers about days before it carry an ETag. */
  refreshDays: number;
  /** How long a request waits for the walk of its range before answering 202. */
  fillWaitMs?: number;
  /** Seconds the 202 asks the reader to wait. */
  retryAfterSeconds?: number;
  /** Keep the default range's table built as its days change (the page opens on it). */
  prewarm?: boolean;
  /** Resolves when no reader is being answered: a table made ahead waits for it (core/quiet.ts). */
  idle?: () => Promise<void>;
  /** Spend beside credits, when the server has a price list. */
  spend?: UsersSpend;
  /** The ranges' tables, in the analytics engine (src/server/analytics/users.ts). */
  tables: Promise<ReturnType<typeof createUsersTables>>;
  /** The mapping in force (null without one), with the managers of a team and a version that changes with it. */
  place?: () => Placing | null;
  /**
   * Privacy mode: the teams shown to a reader for k (auth/privacy.ts `shownTeams`), with a key that changes with
   * them; a row's team is the nearest of them up the tree.
   */
  shownTeams?: (k: number) => Promise<{ teams: ReadonlySet<string>; key: string }>;
  logger?: Logger;
}

/** Where people belong by the mapping in force. */
export interface Placing {
  mapping: Mapping;
  /** A person's team (by id, else email; Unassigned when the mapping names them nowhere) and its managers. */
  of: (userId: string, email: string | null) => Place;
  /** The managers of the nearest team up the tree that names some. */
  managersOf: (team: string) => string[];
  version: string;
}

/** Each user's spend over a range, at the price list in force. */
export interface UsersSpend {
  /** The price list in force; null without one (then there is no spend column). */
  list(): PriceList | null;
  /**
   * What a range's spend depends on (the price list, the stored `/tokens` days), once those days are
   * filled from the service: a table is rebuilt when it changes. Throws when they cannot be filled.
   */
  version(r: DayRange): Promise<string>;
  /** Whether the range's `/tokens` days are all stored (asks the service nothing). */
  stored(r: DayRange): Promise<boolean>;
}

export function createUsersRoutes(opts: UsersRoutesOptions) {
  const { store, engine, latestDay, refreshDays } = opts;
  const logger = opts.logger ?? silentLogger;
  const retryAfter = String(opts.retryAfterSeconds ?? 1);
  const filler = createRangeFiller(store, engine, opts.fillWaitMs ?? 1500, logger);
  const spend = opts.spend;
  const currency = () => spend?.list()?.currency ?? null;
  const SPEND = '|spend ';
  /** The mapping in force, and what its teams hold (`member`: each person's team by their latest email): answers with teams change with it. */
  async function placeKey(place = opts.place?.()) {
    return place ? `|place ${place.version} ${await (await opts.tables).membership(place.mapping)}` : '|place none';
  }
  /** A range's table at its version: with spend when the version was priced (its teams are read with each page). */
  const specOf = (version: string): UsersTableSpec => ({
    prices: version.includes(SPEND) ? (spend?.list() ?? null) : null,
  });
  async function tableAt(r: DayRange, version: string) {
    return (await opts.tables).get(r, version, specOf(version), opts.place?.()?.mapping ?? null);
  }
  const shownTo = (scope: ViewScope | undefined) => managersShown(opts.place?.(), scope);
  const viewOf = (lens: PrivacyLens) => personViewOf(lens, opts.shownTeams);
  /** A seats' list needs a mapping: it lists the people the mapping names. */
  const seatsRefusal = (who: Who) =>
    isSeatList(who) && !opts.place?.()
      ? `who=${who} lists people the team mapping names, and this server has no mapping: an admin gives one on the mapping screen (or TEAMS_FILE).`
      : undefined;
  /** What the store holds of a range's `/users` days (a person's page gives the stored rows themselves). */
  const versionKey = (v: RangeVersion) => `${v.storedDays}|${v.syncedAt ?? ''}`;
  /**
   * The version a range's table is kept for: how many of its `/users` days are stored, and of the history to its end
   * (the people not active in the range are everyone known by then), what the analytics copy holds of them (the days
   * the table is made from), and with a price list what its spend reads. When the range's `/tokens` days cannot be
   * filled the table goes without spend (its cells show none) and is built again once they can.
   */
  async function tableVersion(r: DayRange, v: RangeVersion): Promise<string> {
    const known = await rangeVersion(store.db, HISTORY_START, r.end);
    const spend = await spendVersion(r);
    return `${v.storedDays}|known ${known.storedDays}|copy ${await (await opts.tables).copied(r)}${spend}`;
  }
  /** What a range's spend reads (none without a price list), as a users table's version and a person's say it. */
  async function spendVersion(r: DayRange): Promise<string> {
    if (currency() === null) return '';
    try {
      return `${SPEND}${await spend!.version(r)}`;
    } catch (e) {
      logger.error('the users table goes without spend', { error: errorText(e) });
      return '|no spend';
    }
  }
  /** How much of the history up to the range's end is stored: the people known by then, complete or not yet. */
  async function historyOf(r: DayRange) {
    const h = await rangeVersion(store.db, HISTORY_START, r.end);
    return { storedDays: h.storedDays, days: daysBetween(HISTORY_START, r.end) + 1 };
  }
  /** Sorting by spend needs a price list: without one there is no spend anywhere. */
  const sortRefusal = (sort: string) =>
    sort === 'spend' && currency() === null
      ? 'sort=spend needs a price list (PRICES_FILE): this server shows credits only.'
      : undefined;

  /** A final answer's ETag: the same range, stored days and question give the same bytes. */
  function etagOf(r: DayRange, state: RangeState, version: string, question: unknown): string | undefined {
    if (!state.complete || !state.version.allFinal || !isFinal(r.end, latestDay(), refreshDays)) return undefined;
    const hash = createHash('sha256')
      .update(JSON.stringify([ANSWER_VERSION, r, version, question]))
      .digest('base64url')
      .slice(0, 27);
    return `W/"${hash}"`;
  }

  /** `/api/users`: a page of the table. */
  const table = route({
    method: 'GET',
    path: '/api/users',
    // A page asked again (a reader back from a person's page, a second tab) while nothing changed.
    memo: true,
    query: tableQuery,
    access: ACCESS.peopleRows,
    what: 'the users table',
    response: usersTableSchema,
    async handle({ query: { range, teams, params: p }, scope }) {
      const lens = scope?.privacy;
      const refused = sortRefusal(p.sort) ?? privacyRefusal(lens, p.q, p.sort) ?? seatsRefusal(p.who);
      if (refused) return errorResponse(400, refused);
      const asked = { search: p.q, delegation: p.delegation, tier: p.tier, language: p.lang, who: p.who };
      const state = await filler.ensure(range);
      const version = state.complete ? await tableVersion(range, state.version) : '';
      const t = state.complete ? await tableAt(range, version) : await (await opts.tables).latest(range);
      // The teams are read with each page: the ETag carries what they hold, taken before they are read.
      const place = opts.place?.();
      const placed = await placeKey(place);
      const question: UsersQuestion = {
        sort: p.sort,
        dir: p.dir,
        filter: asked,
        teams,
        mapping: place?.mapping ?? null,
        ...(lens && { view: await viewOf(lens) }),
      };
      const [page, facets] = t
        ? await Promise.all([t.page(question, p.offset, p.limit), t.facets()])
        : [{ users: [], total: 0, active: 0, inactive: 0, seats: null, grace: undefined }, null];
      const withheld = lens?.tooFew(page.total) === true;
      const body: UsersTableAnswer = {
        users: withheld ? [] : page.users.map(lens ? privately(lens) : shownTo(scope)),
        offset: p.offset,
        total: withheld ? 0 : page.total,
        ...(withheld && { withheld: { minGroup: lens.minGroup, detail: withheldDetail(lens.minGroup) } }),
        // Privacy mode: a count of 1 to k−1 people is not given, as their list is not.
        activeUsers: lens?.tooFew(page.active) ? null : page.active,
        inactiveUsers: lens?.tooFew(page.inactive) ? null : page.inactive,
        seats: seatsShown(page.seats, lens),
        ...(page.grace && { grace: graceShown(page.grace, lens) }),
        history: await historyOf(range),
        facets: facets ? { delegation: facets.delegation, tier: facets.tier, lang: facets.language } : EMPTY_FACETS,
        range,
        sort: { column: p.sort, dir: p.dir },
        complete: state.complete,
        ...(state.complete ? {} : { progress: state.progress }),
      };
      if (!state.complete) return json(202, body, { 'retry-after': retryAfter });
      const etag = etagOf(range, state, version + placed, [
        p.sort,
        p.dir,
        asked,
        p.offset,
        p.limit,
        teams,
        lens?.minGroup ?? 0,
      ]);
      return { ...json(200, body), etag };
    },
  });

  /** `/api/users/<id>`: one user's days, straight from the user's index (no walk over the others). */
  const user = route({
    method: 'GET',
    path: /^\/api\/users\/([^/]+)$/,
    label: '/api/users/:id',
    // A person's page asked again (a reader back from another page, a second tab) while nothing changed.
    memo: true,
    query: userQuery,
    access: ACCESS.onePerson,
    what: 'the user’s days',
    response: userDaysSchema,
    async handle({ query: { range }, match, scope }) {
      const userId = decodedParam(match, 'The user id in the path is not valid percent-encoding.');
      if (userId.includes('/')) return errorResponse(404, 'No such endpoint.');
      const state = await filler.ensure(range);
      if (!state.complete) {
        const body: UserDaysAnswer = { userId, user: null, days: [], range, complete: false, progress: state.progress };
        return json(202, body, { 'retry-after': retryAfter });
      }
      const rows = await userDayRows(store.db, userId, range.start, range.end);
      if (rows.length === 0 && !(await knownUser(store.db, userId))) {
        return errorResponse(404, `No user with the id ${JSON.stringify(userId)} in the stored history.`);
      }
      // The person's row as the users table gives it, of their days alone: the same merge, spend (when the table has
      // it) and team (member: by their latest email).
      const priced = await spendVersion(range);
      const placing = opts.place?.();
      const placed = await placeKey(placing);
      const one = await (await opts.tables).person(range, specOf(priced), userId, placing?.mapping ?? null);
      const merged = one ? shownTo(scope)(one) : null;
      // The rows go out as the service sent them, without a round trip through objects.
      const head = JSON.stringify({ userId, user: merged, range, complete: true });
      const body = `${head.slice(0, -1)},"days":[${rows.join(',')}]}`;
      return {
        ...jsonText(200, body),
        etag: etagOf(range, state, versionKey(state.version) + priced + placed, ['user', userId]),
      };
    },
  });

  /** `/api/users.csv`: the whole filtered, sorted table, written a chunk at a time. */
  const csv = route({
    method: 'GET',
    path: '/api/users.csv',
    query: csvQuery,
    access: ACCESS.peopleRows,
    what: 'the users table',
    response: { file: 'text/csv' },
    async handle({ query: { range, teams, params: p }, scope }): Promise<HttpResponse | StreamedResponse> {
      const lens = scope?.privacy;
      const refused = sortRefusal(p.sort) ?? privacyRefusal(lens, p.q, p.sort) ?? seatsRefusal(p.who);
      if (refused) return errorResponse(400, refused);
      const state = await filler.ensure(range);
      if (!state.complete) return errorResponse(503, state.progress.detail, { 'retry-after': retryAfter });
      const version = await tableVersion(range, state.version);
      const filter = { search: p.q, delegation: p.delegation, tier: p.tier, language: p.lang, who: p.who };
      const question: UsersQuestion = {
        sort: p.sort,
        dir: p.dir,
        filter,
        teams,
        mapping: opts.place?.()?.mapping ?? null,
        ...(lens && { view: await viewOf(lens) }),
      };
      if (lens?.tooFew((await (await tableAt(range, version)).page(question, 0, 1)).total))
        return errorResponse(422, withheldDetail(lens.minGroup));
      const teamed = question.mapping !== null;
      const { header, figures } = usersCsvColumns(currency(), teamed, true);
      // The first rows are read before the answer starts: a failure (the store, the engine) is then a plain answer.
      const rows = (await opts.tables).csv(range, version, specOf(version), question, figures);
      const first = await rows.next();
      const named = lens ? privately(lens) : shownTo(scope);
      // The engine writes each row's figures; the person, the team and its managers are written here, as this
      // reader is shown them.
      const person = (r: UsersCsvRow) =>
        ({ userId: r.userId, email: r.email, team: r.team ?? undefined }) as MergedUser;
      function line(u: MergedUser, r: UsersCsvRow) {
        const team = teamed ? `,${csvCell(u.team)},${csvCell((u.managers ?? []).join('; '))}` : '';
        return `${csvCell(u.userId)},${csvCell(u.email)}${team},${r.figures}\r\n`;
      }
      async function* pieces() {
        try {
          yield toCsv(header, []);
          // A few hundred rows a piece, the event loop let go between them: a whole part (2,048 rows) held a health
          // check for 70 ms and more.
          for (let part = first; !part.done; part = await rows.next())
            for (let i = 0; i < part.value.length; i += 512) {
              if (i > 0) await letGo();
              const some = part.value.slice(i, i + 512);
              yield some.map((r) => line(named(person(r)), r)).join('');
            }
        } finally {
          // A reader who went away ends the rows' reading too.
          await rows.return(undefined);
        }
      }
      return {
        status: 200,
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="users${WHO_FILE_TAG[p.who]}-${range.start}-${range.end}.csv"`,
        },
        pieces: pieces(),
      };
    },
  });

  /**
   * Builds the tables of the ranges a manager opens most (the default and the 7- and 90-day presets) in
   * the background once their days are all stored, and again when they change: the first visit to them
   * is served from a table already made. Another range's table is made on its first read.
   */
  let warming: Promise<void> | undefined;
  let again = false;
  /**
   * One pass at a time (a pass at 50,000 users can outlast the minute between two); asked for during a
   * pass, one more pass follows it (the sync may have stored more days meanwhile).
   */
  function warm(): Promise<void> {
    if (warming) {
      again = true;
      return warming;
    }
    warming = (async () => {
      try {
        do {
          again = false;
          await warmOnce();
        } while (again);
      } finally {
        // In the same turn as the last look at `again`: a pass asked for from now on starts afresh.
        warming = undefined;
      }
    })();
    return warming;
  }
  async function warmOnce() {
    // The presets' tables, once all their days are stored: a pass never waits for a walk (during a
    // backfill it would wait for the sync, and every pass asked for meanwhile with it).
    for (const days of [DEFAULT_DAYS, 7, 90]) {
      try {
        const r = lastDays(days, latestDay());
        const v = await filler.peek(r);
        if (!v || (currency() !== null && !(await spend!.stored(r)))) continue;
        await opts.idle?.();
        await tableAt(r, await tableVersion(r, v));
      } catch (e) {
        logger.error('users table prewarm failed', { error: errorText(e) });
      }
    }
  }
  const timers: ReturnType<typeof setTimeout>[] = [];
  if (opts.prewarm) {
    // Soon after start (the store may already hold the range), then each minute: a sync's walk makes a new version.
    timers.push(
      setTimeout(() => void warm(), 2_000),
      setInterval(() => void warm(), 60_000),
    );
    for (const t of timers) t.unref?.();
  }

  return {
    routes: [table, csv, user] as Route[],
    warm,
    /** Whether every `/users` day of the range is stored (asks the service nothing). */
    stored: async (r: DayRange) => (await filler.peek(r)) !== undefined,
    /** Makes what every table reads beside its days (analytics/users.ts `ahead`), for the latest day. */
    ahead: async () => (await opts.tables).ahead(latestDay(), opts.place?.()?.mapping ?? null),
    stop: () => timers.forEach((t) => clearTimeout(t)),
  };
}

const EMPTY_FACETS = { delegation: [], tier: [], lang: [] };

export type UsersRoutes = ReturnType<typeof createUsersRoutes>;
