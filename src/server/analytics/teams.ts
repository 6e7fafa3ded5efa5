/**
 * Team figures from the analytics engine: who is in which team is a table (`member`, one row per person of the
 * copy, rewritten when the mapping or the people change), and a selection of teams is a join against it. The
 * rules are the service's own, applied to fewer people: sums are sums; daily, weekly and monthly active users
 * are distinct people active on the day and in the trailing 7 and 30 days; the autonomy average and percentiles
 * are over the selected people's own ratios of the day. So the top-level teams and Unassigned add up to the
 * organization for every sum and every count of people (teams.test.ts).
 */
import { setImmediate as letGo } from 'node:timers/promises';
import { INTEGER, LIST, VARCHAR, listValue, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';
import { addDays, eachDay, type Day, type DayRange } from '../../lib/dates';
import type { Mapping, MemberKey } from '../teams/mapping';
import { ancestors, teamResolver, UNASSIGNED, withAncestors } from '../teams/tree';
import { canonicalEmail } from '../core/text';
import type { Analytics } from './engine';

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * The people of a selection: `null` for everyone, the teams chosen (each with its sub-teams; Unassigned is a
 * team too), or one person.
 */
export type Selection = readonly string[] | null | { user: string };

/** Keeps `member` for the mapping in force and the people of the copy (one per engine: they share the table). */
const memberships = new WeakMap<Analytics, ReturnType<typeof createMembership>>();
export const membershipOf = (a: Analytics) => {
  let m = memberships.get(a);
  if (!m) memberships.set(a, (m = createMembership(a)));
  return m;
};

function createMembership(a: Analytics) {
  const ids = new WeakMap<Mapping, number>();
  let nextId = 1;
  let made = '';
  let people: readonly Person[] = [];
  /** What `member` holds (a hash of every person's team), and how many times it was written. */
  let holds = '';
  let writes = 0;
  /** The last making asked for: one at a time, so that readers asking together wait for one (not one each). */
  let turn: Promise<unknown> = Promise.resolve();
  const keyOf = (mapping: Mapping | null) => {
    if (mapping && !ids.has(mapping)) ids.set(mapping, nextId++);
    return `${mapping ? ids.get(mapping) : 0}|${a.generation()}`;
  };
  return {
    /**
     * Brings `member` up to date: each person's team by id, else by their latest email, else Unassigned. Gives
     * what it holds: the same text for the same people in the same teams, whatever the days copied meanwhile.
     */
    current(mapping: Mapping | null): Promise<string> {
      if (keyOf(mapping) === made) return Promise.resolve(holds);
      const next = turn.then(() => make(mapping));
      turn = next.catch(() => undefined);
      return next;
    },
    /** How many times `member` was written (a table made from it checks that none came between). */
    writes: () => writes,
    /** The people of the copy as `current` last read them, with their latest email given. */
    people: () => people,
  };

  async function make(mapping: Mapping | null): Promise<string> {
    const key = keyOf(mapping);
    if (key === made) return holds;
    // From the week tables (each week's latest email given): a fifth of the rows of every day of the history.
    const rows = await a.rows<{ pid: number; user_id: string; email: string | null }>(`
      SELECT pid, user_id, email FROM person JOIN (
        SELECT pid, arg_max(last_given_email, last_given_day) FILTER (WHERE last_given_day IS NOT NULL) AS email
        FROM (SELECT pid, last_given_day, last_given_email FROM person_week
              UNION ALL SELECT pid, last_given_day, last_given_email FROM person_credits_week)
        GROUP BY pid) USING (pid)`);
    const resolve = mapping ? teamResolver(mapping) : () => UNASSIGNED;
    // The event loop let go every few thousand people (at 50,000 the placing held the probes for hundreds of ms).
    const found: Person[] = [];
    for (const { user_id: userId, email } of rows) {
      found.push({ userId, email, team: resolve(userId, email) });
      if (found.length % 5_000 === 0) await letGo();
    }
    // The people the mapping names whom the copy has not seen (never active yet) are members too: each a row of its
    // own, under a number no person of the copy has (below 0), so a team's members are `count(*)` and its facts
    // join the people seen only.
    const unseen = unseenMembers(mapping, found);
    await a.replaceTable(
      'member',
      [
        ['pid', INTEGER],
        ['team', VARCHAR],
      ],
      [...found.map((p, i) => [rows[i]!.pid, p.team]), ...unseen.map((m, i) => [-(i + 1), m.team])],
    );
    // Who they are, as the mapping names them: the users page lists them (never used).
    await a.replaceTable(
      'unseen_member',
      [
        ['pid', INTEGER],
        ['user_id', VARCHAR],
        ['email', VARCHAR],
      ],
      unseen.map((m, i) => [-(i + 1), m.userId ?? null, m.email ?? null]),
    );
    // Each group (a team of the mapping, its ancestors, Unassigned) beside itself and every team above it: a team's
    // figure with its sub-teams' is a `GROUP BY ancestor`.
    const groups = withAncestors([...(mapping?.teams ?? []), UNASSIGNED]);
    await a.replaceTable(
      'team_ancestor',
      [
        ['team', VARCHAR],
        ['ancestor', VARCHAR],
      ],
      groups.flatMap((t) => ancestors(t).map((above) => [t, above])),
    );
    writes++;
    const [h] = await a.rows<{ h: string | null }>(
      `SELECT sum(hash(user_id, team))::VARCHAR AS h FROM member JOIN person USING (pid)`,
    );
    people = found;
    made = key;
    holds = String(h?.h ?? '');
    return holds;
  }
}

/** A person of the copy: anyone with a `/users` day or a `/tokens` split, with their latest email given and team. */
export interface Person {
  userId: string;
  email: string | null;
  team: string;
}

/**
 * Each person the mapping names whom the copy has not seen (by id, else by email), each once with their team: a team
 * never has more active people than members.
 */
function unseenMembers(mapping: Mapping | null, people: readonly Person[]): (MemberKey & { team: string })[] {
  const ids = new Set(people.map((u) => u.userId));
  const emails = new Set(people.flatMap((u) => (u.email ? [canonicalEmail(u.email)] : [])));
  const seen = new Set<string>();
  const out: (MemberKey & { team: string })[] = [];
  for (const m of mapping?.members ?? []) {
    const { userId, email } = m.key;
    if ((userId !== undefined && ids.has(userId)) || (email !== undefined && emails.has(email))) continue;
    const key = email ?? `id:${userId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ...m.key, team: m.team });
  }
  return out;
}

/** Whose figures: everyone, the teams chosen (each with its sub-teams) or one person, and the teams the reader may see. */
export interface PeopleScope {
  people: Selection;
  /** The teams whose people the reader may see (a manager kept to their teams); none: everyone. */
  visible?: readonly string[] | null;
}

/**
 * The SQL keeping a scope's people (a condition on a table's `pid`), and its parameters: a team's people are `member`
 * joined to `team_ancestor` (each group beside itself and every team above it). Every figure about people, the
 * runner's (figures.ts) and the service-shaped day rows below, keeps to its scope through this one condition.
 */
export function scopeWhere(scope: PeopleScope): {
  where: string;
  params: Record<string, DuckDBValue>;
  types: Record<string, DuckDBType>;
} {
  const where: string[] = [];
  const params: Record<string, DuckDBValue> = {};
  const types: Record<string, DuckDBType> = {};
  const inTeams = (name: string, teams: readonly string[]) => {
    params[name] = listValue([...teams]);
    types[name] = LIST(VARCHAR);
    return `pid IN (SELECT pid FROM member JOIN team_ancestor USING (team) WHERE list_contains($${name}, ancestor))`;
  };
  const p = scope.people;
  if (p !== null && 'user' in p) {
    params.user = p.user;
    where.push('pid = (SELECT pid FROM person WHERE user_id = $user)');
  } else if (p !== null) where.push(inTeams('chosen', p));
  if (scope.visible) where.push(inTeams('visible', scope.visible));
  return { where: where.join(' AND ') || 'true', params, types };
}

export type Ask = <T extends Record<string, unknown>>(sql: string, extra?: Record<string, DuckDBValue>) => Promise<T[]>;

/**
 * Queries over a scope's people (`<selected>` in their SQL: `scopeWhere`'s condition) and a range ($start, $end), once
 * the range is copied and, for teams, who is in which team is current.
 */
export async function scoped(
  a: Analytics,
  mapping: Mapping | null,
  scope: Selection | PeopleScope,
  r: DayRange,
): Promise<Ask> {
  const s: PeopleScope = scope !== null && 'people' in scope ? scope : { people: scope as Selection };
  await a.catchUp(r);
  if (Array.isArray(s.people) || s.visible) await membershipOf(a).current(mapping);
  const sel = scopeWhere(s);
  return (sql, extra = {}) =>
    a.rows(sql.replaceAll('<selected>', sel.where), { start: r.start, end: r.end, ...extra, ...sel.params }, sel.types);
}

/** Each day of the range, with what the query gave for it. */
export function everyDay<T extends { day: string }, U>(
  r: DayRange,
  rows: T[],
  make: (row: T | undefined, day: Day) => U,
): U[] {
  const byDay = new Map(rows.map((x) => [x.day, x]));
  return eachDay(r.start, r.end).map((d) => make(byDay.get(d), d));
}

export function createTeamFigures(a: Analytics) {
  const membership = membershipOf(a);
  const prepare = (mapping: Mapping | null, selected: Selection, r: DayRange) => scoped(a, mapping, selected, r);

  return {
    /**
     * Everyone of the copy (every stored day), with their latest email given: the people the teams count as members,
     * each in the team `member` gives them.
     */
    async knownPeople(mapping: Mapping | null): Promise<readonly Person[]> {
      await a.catchUpUnlessUnderWay();
      await membership.current(mapping);
      return membership.people();
    },

    /** People of the selection with a `/users` row or a `/tokens` split in the range. */
    async activeIn(mapping: Mapping | null, selected: Selection, r: DayRange): Promise<number> {
      const ask = await prepare(mapping, selected, r);
      const [row] = await ask<{ n: number }>(`
        SELECT count(*)::INTEGER AS n FROM (
          SELECT pid FROM person_day WHERE day BETWEEN $start AND $end
          UNION SELECT pid FROM person_credits_day WHERE day BETWEEN $start AND $end)
        WHERE <selected>`);
      return row?.n ?? 0;
    },

    /** The organization's own `/tokens` rows of the range, as the service gave them, without the split per person. */
    async organizationTokenDays(r: DayRange): Promise<Record<string, unknown>[]> {
      await a.catchUp(r);
      const rows = await a.rows<{ row: string }>(
        'SELECT row FROM org_tokens_day WHERE day BETWEEN $start AND $end ORDER BY day',
        { start: r.start, end: r.end },
      );
      return rows.map((x) => JSON.parse(x.row) as Record<string, unknown>);
    },

    /** `/tokens` day rows of the selection: credits, input and output, and per model (largest first). */
    async tokenDays(mapping: Mapping | null, selected: Selection, r: DayRange) {
      const ask = await prepare(mapping, selected, r);
      const [credits, models] = await Promise.all([
        ask<{ day: string; credits: number }>(`
          SELECT day, sum(credits) AS credits FROM person_credits_day
          WHERE day BETWEEN $start AND $end AND <selected> GROUP BY day`),
        ask<{ day: string; model: string; tier: string; credits: number; input: number; output: number }>(`
          SELECT day, model, min(tier) AS tier, sum(credits) AS credits, sum(input_tokens) AS input,
            sum(output_tokens) AS output
          FROM person_model_day WHERE split AND day BETWEEN $start AND $end AND <selected>
          GROUP BY day, model ORDER BY day, credits DESC, model`),
      ]);
      const perDay = new Map<string, typeof models>();
      for (const m of models) perDay.set(m.day, [...(perDay.get(m.day) ?? []), m]);
      return everyDay(r, credits, (c, day) => {
        const ms = perDay.get(day) ?? [];
        return {
          date: day,
          billable_tokens: c?.credits ?? 0,
          input_tokens: ms.reduce((s, m) => s + m.input, 0),
          output_tokens: ms.reduce((s, m) => s + m.output, 0),
          by_model: ms.map((m) => ({
            model_id: m.model,
            model_tier: m.tier,
            billable_tokens: m.credits,
            input_tokens: m.input,
            output_tokens: m.output,
          })),
        };
      });
    },

    /**
     * The selection's people with the most credits, their credits per model and their share; ties by the name the
     * reader sees (`name`: a pseudonym in privacy mode), never by the real id, which would pair pseudonyms with people.
     */
    async topUsers(
      mapping: Mapping | null,
      selected: Selection,
      r: DayRange,
      n: number,
      name: (userId: string) => string = (id) => id,
    ) {
      const ask = await prepare(mapping, selected, r);
      const [total] = await ask<{ total: number | null }>(`
        SELECT sum(credits) AS total FROM person_credits_day WHERE day BETWEEN $start AND $end AND <selected>`);
      const top = await ask<{ user_id: string; email: string | null; credits: number; models: string }>(
        `
        WITH top AS (
          SELECT pid, user_id, credits, email FROM (
            SELECT pid, sum(credits) AS credits, arg_min(user_email, day) FILTER (WHERE user_email <> '') AS email
            FROM person_credits_day WHERE day BETWEEN $start AND $end AND <selected>
            GROUP BY pid HAVING sum(credits) > 0) JOIN person USING (pid)
          -- Every person tied with the last of the n (ordered by name below).
          QUALIFY rank() OVER (ORDER BY credits DESC) <= $n)
        SELECT top.user_id, top.email, top.credits,
          coalesce((SELECT to_json(list({'model': model, 'credits': c} ORDER BY c DESC, model))
            FROM (SELECT model, sum(m.credits) AS c FROM person_model_day m
                  WHERE m.split AND m.pid = top.pid AND m.day BETWEEN $start AND $end GROUP BY model))::VARCHAR,
            '[]') AS models
        FROM top`,
        { n },
      );
      const sum = total?.total ?? 0;
      const named = top.map((u) => ({ ...u, name: name(u.user_id) }));
      named.sort((x, y) => y.credits - x.credits || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
      return {
        total: sum,
        users: named.slice(0, n).map((u) => ({
          userId: u.user_id,
          email: u.email,
          credits: u.credits,
          share: sum > 0 ? u.credits / sum : 0,
          models: JSON.parse(u.models) as { model: string; credits: number }[],
        })),
      };
    },

    /** `/activity` day rows of the selection: active people on the day and in the trailing 7 and 30 days. */
    async activityDays(mapping: Mapping | null, selected: Selection, r: DayRange) {
      const from = addDays(r.start, -29);
      const ask = await prepare(mapping, selected, { start: from, end: r.end });
      // Each person counts in the windows ending on d…d+6 (d…d+29) after each active day d, except those an
      // earlier active day already covers: intervals whose starts and ends, summed day by day, give the counts.
      const rows = await ask<{
        day: string;
        dau: number;
        wau: number;
        mau: number;
        sessions: number;
        messages: number;
        user_messages: number;
      }>(
        `
        WITH act AS (
          SELECT pid, day AS d, lag(day) OVER (PARTITION BY pid ORDER BY day) AS p,
            sessions, messages, user_messages
          FROM person_day WHERE day BETWEEN $start AND $end AND <selected>),
        events AS (
          SELECT greatest(d, coalesce(p + 7, d)) AS on_day, 1 AS w, 0 AS m FROM act
          UNION ALL SELECT d + 7, -1, 0 FROM act
          UNION ALL SELECT greatest(d, coalesce(p + 30, d)), 0, 1 FROM act
          UNION ALL SELECT d + 30, 0, -1 FROM act),
        fixed AS (
          SELECT on_day, sum(w) AS w, sum(m) AS m FROM events
          GROUP BY on_day),
        days AS (SELECT unnest(generate_series($start::DATE, $end::DATE, INTERVAL 1 DAY))::DATE AS d),
        running AS (
          SELECT days.d, sum(coalesce(fixed.w, 0)) OVER (ORDER BY days.d) AS wau,
            sum(coalesce(fixed.m, 0)) OVER (ORDER BY days.d) AS mau
          FROM days LEFT JOIN fixed ON fixed.on_day = days.d),
        daily AS (
          SELECT d, count(*) AS dau, sum(sessions) AS sessions, sum(messages) AS messages,
            sum(user_messages) AS user_messages FROM act GROUP BY d)
        SELECT strftime(running.d, '%Y-%m-%d') AS day, coalesce(daily.dau, 0)::INTEGER AS dau,
          running.wau::INTEGER AS wau, running.mau::INTEGER AS mau,
          coalesce(daily.sessions, 0) AS sessions, coalesce(daily.messages, 0) AS messages,
          coalesce(daily.user_messages, 0) AS user_messages
        FROM running LEFT JOIN daily ON daily.d = running.d
        WHERE running.d >= $first::DATE`,
        { first: r.start },
      );
      return everyDay(r, rows, (x, day) => ({
        date: day,
        daily_active_users: x?.dau ?? 0,
        weekly_active_users: x?.wau ?? 0,
        monthly_active_users: x?.mau ?? 0,
        sessions: x?.sessions ?? 0,
        messages: x?.messages ?? 0,
        user_messages: x?.user_messages ?? 0,
      }));
    },

    /** `/tools` day rows of the selection: sums, people using MCP, and the autonomy of its people's own ratios. */
    async toolDays(mapping: Mapping | null, selected: Selection, r: DayRange) {
      const ask = await prepare(mapping, selected, r);
      const rows = await ask<{
        day: string;
        tool_calls: number;
        mcp_users: number;
        skills: number;
        slash: number;
        hooks: number;
        sessions: number;
        user_messages: number;
        avg: number | null;
        p50: number | null;
        p90: number | null;
      }>(`
        SELECT day, sum(tool_calls) AS tool_calls, count(*) FILTER (WHERE mcp_calls > 0)::INTEGER AS mcp_users,
          sum(skill_calls) AS skills, sum(slash_commands) AS slash, sum(hooks) AS hooks, sum(sessions) AS sessions,
          sum(user_messages) AS user_messages,
          -- Tool calls per user turn, from the counts when there are turns (the row's ratio is rounded).
          avg(ratio) AS avg, quantile_cont(ratio, 0.5) AS p50, quantile_cont(ratio, 0.9) AS p90
        FROM (SELECT *, CASE WHEN user_messages > 0 THEN tool_calls / user_messages ELSE autonomy_ratio END AS ratio
              FROM person_day WHERE day BETWEEN $start AND $end AND <selected>)
        GROUP BY day`);
      return everyDay(r, rows, (x, day) => ({
        date: day,
        tool_calls: x?.tool_calls ?? 0,
        mcp_users_with_mcp: x?.mcp_users ?? 0,
        skills_invocations: x?.skills ?? 0,
        slash_commands_invocations: x?.slash ?? 0,
        hooks_invocations: x?.hooks ?? 0,
        autonomy_ratio_avg: round2(x?.avg ?? 0),
        autonomy_ratio_p50: round2(x?.p50 ?? 0),
        autonomy_ratio_p90: round2(x?.p90 ?? 0),
        tool_calls_per_session_avg: x?.sessions ? round2(x.tool_calls / x.sessions) : 0,
        user_turns_per_session_avg: x?.sessions ? round2(x.user_messages / x.sessions) : 0,
      }));
    },

    /** `/productivity` day rows of the selection. */
    async productivityDays(mapping: Mapping | null, selected: Selection, r: DayRange) {
      const ask = await prepare(mapping, selected, r);
      const rows = await ask<{ day: string; created: number; edited: number; commits: number; prs: number }>(`
        SELECT day, sum(files_created) AS created, sum(files_edited) AS edited, sum(git_commits) AS commits,
          sum(git_prs_created) AS prs
        FROM person_day WHERE day BETWEEN $start AND $end AND <selected> GROUP BY day`);
      return everyDay(r, rows, (x, day) => ({
        date: day,
        files_created: x?.created ?? 0,
        files_edited: x?.edited ?? 0,
        git_commits: x?.commits ?? 0,
        git_prs_created: x?.prs ?? 0,
      }));
    },
  };
}

export type TeamAnalytics = ReturnType<typeof createTeamFigures>;
