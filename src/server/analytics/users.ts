/**
 * The users table's figures from the analytics engine: each person's merge over a range (the merge rules of a
 * person's days, written once, in SQL: users-sql.ts) and their spend at the price list in force. They agree with the
 * browser's merge of the same `/users` rows (src/lib/user-merge.ts) to the last field: the sums, the ratio
 * weighted by user messages, the email of the first day (else the first one given later), the model and
 * delegation level of most days (ties: the first by name) with the model's tier on its latest day, every
 * language.
 */
import { LIST, VARCHAR, listValue, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';
import { UNASSIGNED } from '../../api/teams';
import { addDays, HISTORY_START, weekStart, type Day, type DayRange } from '../../lib/dates';
import { isSeatList, isUnusedList } from '../../lib/user-columns';
import type { MergedUser, UserColumnId, UserFacets } from '../../lib/user-merge';
import type { Mapping } from '../teams/mapping';
import { inSelection } from '../teams/tree';
import type { Analytics } from './engine';
import { graceTablesOf, type Graced } from './grace';
import { firstsOf } from './firsts';
import { createPersonView } from './person-view';
import { createScratchTables } from './scratch-tables';
import { wholeWeeks } from './schema';
import { csvFigures } from './users-csv';
import { order, PERSON, SEAT_COUNTS, SEATED, TABLE } from './users-sql';
import { priceTableOf } from './spend';
import { membershipOf } from './teams';
import {
  userOf,
  type GraceCounts,
  type Row,
  type SeatCounts,
  type UsersQuestion,
  type UsersTableSpec,
} from './users-question';

/** A row of the users CSV: the person, their team (with a mapping) and the text of the figures' cells. */
export interface UsersCsvRow {
  userId: string;
  email: string | null;
  team?: string;
  figures: string;
}

/**
 * A range's users table, made once in the engine (a table of its own, one row per person) and asked for a page and
 * its counts (its CSV: `csv` of the tables): only what is asked for is converted to JavaScript.
 */
export interface UsersTable {
  /** The values present, for the filter menus. */
  facets(): Promise<UserFacets>;
  /** A page of the table as asked, with how many rows the question keeps and how many people of the teams are active or not. */
  page(
    q: UsersQuestion,
    offset: number,
    limit: number,
  ): Promise<{
    users: MergedUser[];
    total: number;
    active: number;
    inactive: number;
    seats: SeatCounts | null;
    grace: GraceCounts;
  }>;
}

/**
 * What a question's rows are read with: the range's end, spend, and the new starters in grace on its end (a table of
 * their `pid`) with the days of grace (none: nobody is in grace).
 */
interface Made {
  end: Day;
  priced: boolean;
  grace: Graced | null;
}

/** How many questions' counts a table keeps (a reader's filters and teams, as they page and sort). */
const COUNTED = 32;

/**
 * The users tables of recent ranges, each made at most once per range and version (concurrent asks share it), in
 * the engine; the oldest dropped beyond `entries`.
 */
export function createUsersTables(a: Analytics, entries = 8) {
  const prices = priceTableOf(a);
  const made = createScratchTables<UsersTable>(a, 'users_table', entries);
  const keyOf = (r: DayRange) => `${r.start}…${r.end}`;

  const membership = membershipOf(a);
  /** Privacy mode's `person_view`, made when what it is made of changes (analytics/person-view.ts). */
  const personView = createPersonView(a);
  /** The new starters in grace on a day, each page, its counts and the seats' read (analytics/grace.ts). */
  const graceOn = graceTablesOf(a);

  /** What the range's table is made of brought up to date, and its query's parameters. */
  async function ready(r: DayRange, spec: UsersTableSpec) {
    await a.catchUp({ start: HISTORY_START, end: r.end });
    if (spec.prices) await prices(spec.prices);
    return { start: r.start, end: r.end, ...wholeWeeks(r), week: weekStart(r.end) };
  }

  /** The condition on a team (`column`) that keeps the teams asked for (their sub-teams with them), with its parameters. */
  function selected(q: UsersQuestion, column = 'team') {
    if (q.teams.length === 0) return { sql: 'true', params: {}, types: {} };
    // Without a mapping everyone is Unassigned.
    const teams = [...(q.mapping?.teams ?? []), UNASSIGNED].filter((t) => inSelection(t, q.teams));
    return {
      sql: q.mapping ? `list_contains($teams, ${column})` : `list_contains($teams, '${UNASSIGNED}')`,
      params: { teams: listValue(teams) } as Record<string, DuckDBValue>,
      types: { teams: LIST(VARCHAR) } as Record<string, DuckDBType>,
    };
  }

  /**
   * The question's rows of `table` (the range's, to `end`; with spend when `priced`) and WHERE, with their parameters
   * (`who` left out for the counts of the teams' people): each person's team by its mapping, from `member` brought up
   * to date, joined when the question needs it (`teamed`). A seats' list reads the people the mapping names, those
   * never seen by the range's end with them (SEATED). Privacy mode (`q.view`): each row with the team shown and the
   * name (`seen_team`, `seen_name`). New starters in grace (`made.grace`) are left out of the lists of people not
   * using the agent; `inGrace` says who they are (`in_grace`) for the counts of the teams' people.
   */
  async function rowsFor(
    table: string,
    q: UsersQuestion,
    made: Made,
    withFilters = true,
    teamed = q.teams.length > 0 || (q.sort === 'team' && !q.view),
  ) {
    const parts: string[] = [];
    const params: Record<string, DuckDBValue> = {};
    const types: Record<string, DuckDBType> = {};
    let from = table;
    if (q.mapping) await membershipOf(a).current(q.mapping);
    const who = withFilters ? (q.filter.who ?? 'active') : 'all';
    const seats = isSeatList(who);
    // The routes refuse a seats' list without a mapping: nobody is named.
    if (seats && !q.mapping) throw new Error(`who=${who} lists the people a mapping names: there is no mapping`);
    const joined = q.mapping !== null && (teamed || seats);
    if (seats) {
      from = `(${SEATED(table, made.priced)})`;
      params.unassigned = UNASSIGNED;
    } else if (joined) {
      from = `(SELECT t.*, coalesce(m.team, $unassigned) AS team FROM ${table} t LEFT JOIN member m USING (pid))`;
      params.unassigned = UNASSIGNED;
    }
    const graced = made.grace !== null && (!withFilters || isUnusedList(who));
    if (graced)
      from = `(SELECT f.*, g.pid IS NOT NULL AS in_grace FROM ${from} f LEFT JOIN ${made.grace!.table} g ON g.pid = f.pid)`;
    const fresh = graced ? ' AND NOT in_grace' : '';
    if (q.teams.length > 0) {
      const sel = selected(q);
      Object.assign(params, sel.params);
      Object.assign(types, sel.types);
      parts.push(sel.sql);
    }
    if (q.view) {
      await personView(q.view, q.mapping);
      from = `(SELECT t.*, v.team AS seen_team, v.name AS seen_name FROM ${from} t LEFT JOIN person_view v USING (pid))`;
    }
    if (withFilters) {
      const f = q.filter;
      if (who === 'active' || who === 'named-active') parts.push('active_days > 0');
      else if (who === 'inactive') parts.push(`active_days = 0${fresh}`);
      else if (who === 'never') parts.push(`never_used${fresh}`);
      else if (who === 'idle-7' || who === 'idle-30') {
        // No day of activity in the 7 (30) days to the range's end, though known by then.
        parts.push(`NOT never_used AND coalesce(last_active_day < $idle_from, true)${fresh}`);
        params.idle_from = addDays(made.end, who === 'idle-7' ? -6 : -29);
      }
      const search = f.search.trim().toLowerCase();
      if (search) {
        parts.push("(contains(lower(user_id), $q) OR contains(lower(coalesce(email, '')), $q))");
        params.q = search;
      }
      const facets: [string, string, string][] = [
        ['delegation', f.delegation, 'level = $delegation'],
        ['tier', f.tier, 'tier = $tier'],
        ['language', f.language, 'list_contains(langs, $language)'],
      ];
      for (const [param, value, test] of facets)
        if (value) {
          parts.push(test);
          params[param] = value;
        }
    }
    return {
      sql: `FROM ${from} ${parts.length ? `WHERE ${parts.join(' AND ')}` : ''}`,
      params,
      types,
      joined,
      inGrace: graced ? 'in_grace' : 'false',
    };
  }

  /** Every row of `table` (after `prelude`, with its `params`) the question keeps, in order, its figures as CSV. */
  async function* csvRows(
    table: string,
    q: UsersQuestion,
    made: Made,
    ids: readonly UserColumnId[],
    prelude = '',
    params: Record<string, DuckDBValue> = {},
  ): AsyncGenerator<UsersCsvRow[]> {
    const w = await rowsFor(table, q, made, true, true);
    const figures = csvFigures(ids);
    const team = q.mapping ? (q.view ? ', seen_team AS team' : ', team') : '';
    for await (const part of a.rowParts<{
      user_id: string;
      email: string | null;
      team?: string;
      f: (string | null)[];
    }>(
      `${prelude} SELECT user_id, email${team}, ${figures.sql} AS f ${w.sql} ${order(q)}`,
      { ...params, ...w.params },
      w.types,
    ))
      yield part.map((r) => ({ userId: r.user_id, email: r.email, team: r.team, figures: figures.write(r.f) }));
  }

  async function make(name: string, r: DayRange, spec: UsersTableSpec): Promise<UsersTable> {
    await a.rows(`CREATE OR REPLACE TABLE ${name} AS ${TABLE(spec.prices !== null)}`, await ready(r, spec));
    /**
     * The seats' counts of the question's teams (with a mapping), and the new starters in grace the unused ones leave
     * out (`grace`: none without a judge).
     */
    async function seatsOf(
      q: UsersQuestion,
      grace: Graced | null,
    ): Promise<{ seats: SeatCounts; grace: GraceCounts['seats'] } | null> {
      if (!q.mapping) return null;
      const sel = selected(q, 'm.team');
      const [c] = await a.rows<Record<keyof SeatCounts | 'grace_idle7' | 'grace_idle30' | 'grace_never', number>>(
        SEAT_COUNTS(name, sel.sql, grace?.table ?? null),
        { ...sel.params, unassigned: UNASSIGNED, idle7: addDays(r.end, -6), idle30: addDays(r.end, -29) },
        sel.types,
      );
      return {
        seats: { named: c!.named, active: c!.active, idle7: c!.idle7, idle30: c!.idle30, never: c!.never },
        grace: { idle7: c!.grace_idle7, idle30: c!.grace_idle30, never: c!.grace_never },
      };
    }
    /** Each question's counts and seats' counts on this table (`pageOnce`), the latest asked kept. */
    const counted = new Map<
      string,
      Promise<[{ total: number; active: number; inactive: number; grace: number }, Awaited<ReturnType<typeof seatsOf>>]>
    >();
    /** Read on first ask (the CSV needs none): beside the first page's queries. */
    let facets: Promise<UserFacets> | undefined;
    const readFacets = async (): Promise<UserFacets> => {
      const [f] = await a.rows<{ delegation: string[]; tier: string[]; language: string[] }>(
        `SELECT list(DISTINCT level) FILTER (WHERE level <> '') AS delegation,
           list(DISTINCT tier) FILTER (WHERE tier <> '') AS tier,
           list(DISTINCT l) FILTER (WHERE l IS NOT NULL) AS language
         FROM (SELECT level, tier, unnest(CASE WHEN len(langs) = 0 THEN [NULL] ELSE langs END) AS l FROM ${name})`,
      );
      // Sorted here, as the browser sorts them (by UTF-16 code units).
      return {
        delegation: [...(f?.delegation ?? [])].sort(),
        tier: [...(f?.tier ?? [])].sort(),
        language: [...(f?.language ?? [])].sort(),
      };
    };
    async function pageOnce(q: UsersQuestion, offset: number, limit: number) {
      const grace = await graceOn(r.end, q.mapping);
      const made = { end: r.end, priced: spec.prices !== null, grace };
      // The counts need no names.
      const [kept, teams] = await Promise.all([
        rowsFor(name, q, made),
        rowsFor(name, { ...q, view: undefined }, made, false),
      ]);
      const rowsAsked = `SELECT * ${kept.sql} ${order(q)} LIMIT ${limit} OFFSET ${offset}`;
      // The page's rows given their teams when the question did not need them (50,000 rows joined for 100).
      const later = q.mapping !== null && !kept.joined && !q.view;
      // The counts are the question's, whatever its order and page: asked once for each.
      const key = JSON.stringify([q.filter, q.teams, q.view?.key, q.mapping ? membership.writes() : -1, grace?.table]);
      let counts = counted.get(key);
      if (!counts) {
        counts = Promise.all([
          a
            .rows<{ total: number; active: number; inactive: number; grace: number }>(
              `SELECT (SELECT count(*) ${kept.sql})::INTEGER AS total,
               count(*) FILTER (WHERE active_days > 0)::INTEGER AS active,
               count(*) FILTER (WHERE active_days = 0 AND NOT ${teams.inGrace})::INTEGER AS inactive,
               count(*) FILTER (WHERE active_days = 0 AND ${teams.inGrace})::INTEGER AS grace
             ${teams.sql}`,
              { ...kept.params, ...teams.params },
              { ...kept.types, ...teams.types },
            )
            .then(([c]) => c!),
          seatsOf(q, grace),
        ]);
        counted.set(key, counts);
        const settled = counts;
        settled.catch(() => counted.get(key) === settled && counted.delete(key));
        for (const k of counted.keys()) if (counted.size > COUNTED) counted.delete(k);
      }
      const [rows, [c, seats]] = await Promise.all([
        a.rows<Row>(
          later
            ? `SELECT p.* EXCLUDE (pid), coalesce(m.team, $unassigned) AS team
                 FROM (${rowsAsked}) p LEFT JOIN member m USING (pid) ${order(q)}`
            : `SELECT * EXCLUDE (pid) FROM (${rowsAsked})`,
          later ? { ...kept.params, unassigned: UNASSIGNED } : kept.params,
          kept.types,
        ),
        counts,
      ]);
      const users = rows.map((row) => userOf(row, spec, q.mapping !== null, q.view !== undefined));
      return {
        users,
        total: c!.total,
        active: c!.active,
        inactive: c!.inactive,
        seats: seats?.seats ?? null,
        grace: { days: grace?.days ?? 0, inactive: c!.grace, seats: seats?.grace ?? null },
      };
    }
    return {
      facets: () =>
        (facets ??= readFacets().catch((e: unknown) => {
          facets = undefined;
          throw e;
        })),
      async page(q, offset, limit) {
        // Read again when `member` was written meanwhile (a new mapping, a day copied): rows and counts of one.
        for (let tries = 0; ; tries++) {
          const writes = membership.writes();
          const got = await pageOnce(q, offset, limit);
          if (!q.mapping || membership.writes() === writes || tries >= 2) return got;
        }
      },
    };
  }

  return {
    /** The range's table at this version of what it is made from. */
    get(r: DayRange, version: string, spec: UsersTableSpec, mapping?: Mapping | null): Promise<UsersTable> {
      // The new starters in grace on the range's end, which each page reads, judged while the table is made.
      if (mapping !== undefined) graceOn(r.end, mapping).catch(() => undefined);
      return made.get(keyOf(r), version, (name) => make(name, r, spec)).table;
    },
    /**
     * Every row the question keeps of the range's table at this version, in order, a part at a time, its figures
     * (`ids`: their columns) as CSV. Without such a table made, straight from the table's query: a download
     * makes no table for the pages (at 5,000 people, 65 ms against 75–88 for the table and its read).
     */
    async *csv(r: DayRange, version: string, spec: UsersTableSpec, q: UsersQuestion, ids: readonly UserColumnId[]) {
      const e = made.peek(keyOf(r));
      // A table whose making failed is left for the query.
      if (
        e?.version === version &&
        (await e.table.then(
          () => true,
          () => false,
        ))
      ) {
        yield* csvRows(
          e.name,
          q,
          { end: r.end, priced: spec.prices !== null, grace: await graceOn(r.end, q.mapping) },
          ids,
        );
      } else {
        const params = await ready(r, spec);
        const made = { end: r.end, priced: spec.prices !== null, grace: await graceOn(r.end, q.mapping) };
        yield* csvRows('users_table', q, made, ids, `WITH users_table AS (${TABLE(made.priced)}\n)`, params);
      }
    },
    /**
     * What the copy holds of the history to the range's end, once caught up with the store: a day the sync stores
     * again as it was leaves it as it was (engine.ts), where the store's sync times move with every walk.
     */
    async copied(r: DayRange): Promise<string> {
      await a.catchUp({ start: HISTORY_START, end: r.end });
      return String(a.generation());
    },
    /**
     * What every table reads beside the days, made for the copy as it is: each person's team and firsts, and the new
     * starters in grace on `end` by the mapping (each person's access with them). Made by a restarted server before it says it
     * is ready, they took seconds from its first users page.
     */
    async ahead(end: Day, mapping: Mapping | null): Promise<void> {
      await a.catchUp({ start: HISTORY_START, end });
      await membership.current(mapping);
      await firstsOf(a);
      await graceOn(end, mapping);
    },
    /** What the teams of the tables come from by this mapping (`member`, brought up to date): a text that says so. */
    membership: (mapping: Mapping) => membershipOf(a).current(mapping),
    /**
     * A person's row of the range's table as a page gives it (spend with a price list, the team with a mapping), made
     * from their rows alone: no table of the range is made. Undefined when they were not active in the range.
     */
    async person(
      r: DayRange,
      spec: UsersTableSpec,
      userId: string,
      mapping: Mapping | null,
    ): Promise<MergedUser | undefined> {
      // The range's days are all it reads (an active person's last active day is their last in it).
      await a.catchUp(r);
      if (spec.prices) await prices(spec.prices);
      if (mapping) await membership.current(mapping);
      const [who] = await a.rows<{ pid: number }>('SELECT pid FROM person WHERE user_id = $id', { id: userId });
      if (!who) return undefined;
      const params = { start: r.start, end: r.end, ...wholeWeeks(r), pid: who.pid };
      const [row] = await a.rows<Row>(
        mapping
          ? `SELECT p.* EXCLUDE (pid), coalesce(m.team, $unassigned) AS team
             FROM (${PERSON(spec.prices !== null)}) p LEFT JOIN member m USING (pid)`
          : `SELECT * EXCLUDE (pid) FROM (${PERSON(spec.prices !== null)})`,
        mapping ? { ...params, unassigned: UNASSIGNED } : params,
      );
      return row && userOf(row, spec, mapping !== null, false);
    },
    /** The last table made for the range, whatever its version (a stale answer while its days are walked again). */
    async latest(r: DayRange): Promise<UsersTable | undefined> {
      const e = made.peek(keyOf(r));
      return e ? e.table.catch(() => undefined) : undefined;
    },
  };
}
