/**
 * The bulk export: the person-day facts of a range (each `/users` row of the copy, `person_day`, under the service's
 * field names) with each person's team on the day, written by DuckDB to a file as Parquet or CSV. The team of a day
 * is the one the store recorded the mappings giving the person then (`member_history`, analytics/member-history.ts),
 * else the users table's (`member`: the mapping in force); with no mapping, Unassigned. The scope's people are
 * `scopeWhere`'s, those of the reader's teams as they stand, as for every figure about people; a reader shown
 * pseudonyms gets them from tables made here beside the query (a pseudonym is an HMAC, which the engine does not
 * compute), so nothing but the file's bytes passes through JavaScript.
 */
import { INTEGER, LIST, VARCHAR, listValue, type DuckDBValue } from '@duckdb/node-api';
import type { ExportFormat } from '../../api/export';
import type { DayRange } from '../../lib/dates';
import type { Mapping } from '../teams/mapping';
import { UNASSIGNED } from '../teams/tree';
import type { Analytics } from './engine';
import { PERSON_NUMBERS } from './schema';
import { createMemberHistory, type MemberHistory } from './member-history';
import { scopeWhere, type PeopleScope } from './teams';

/** How a reader who is not an admin is shown people in the export (none: as they are). */
export interface ExportView {
  /** Privacy mode: each person by their pseudonym (no email), in the team shown for theirs (null: none shown). */
  person?: { name: (userId: string) => string; team: (team: string) => string | null };
  /** PSEUDONYMIZE=1: a text with every email in it replaced, as the router rewrites every other answer. */
  rewrite?: (text: string) => string;
}

export interface PersonDaysQuestion {
  range: DayRange;
  mapping: Mapping | null;
  scope: PeopleScope;
  view?: ExportView;
}

/** The text columns of the export, each as a spreadsheet could take it for a formula (CSV only). */
const TEXTS = ['user_id', 'user_email', 'team', 'primary_model', 'primary_model_tier', 'delegation_level', 'languages'];

/** A text cell a spreadsheet would run as a formula, with a quote before it (as lib/csv.ts's `csvCell` writes it). */
const inert = (sql: string) =>
  `CASE WHEN regexp_matches(${sql}, '^[=+\\-@\\t\\r\uFF1D\uFF0B\uFF0D\uFF20]') THEN '''' || ${sql} ELSE ${sql} END`;

/** A path as an SQL literal (COPY takes no parameter for it). */
const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** Scratch tables made so far in this process: each export's have names of their own. */
let made = 0;

/**
 * The files being written, one at a time per engine: a long export holds one of the readers' connections, and two
 * at once would hold both, every page's queries waiting behind them.
 */
const writing = new WeakMap<Analytics, Promise<unknown>>();

export function createExport(a: Analytics, history: MemberHistory = createMemberHistory(a)) {
  /** The range copied and `member` and `member_history` current, then the scope's condition and the query's parameters. */
  async function ready(q: PersonDaysQuestion) {
    await a.catchUp(q.range);
    await history.tables(q.mapping);
    const sel = scopeWhere(q.scope);
    return { sel, params: { start: q.range.start, end: q.range.end, ...sel.params } };
  }

  /** A table of `scratch` (seen by every connection) made of columns of values, one list each. */
  async function scratchTable(name: string, columns: [string, 'INTEGER' | 'VARCHAR', DuckDBValue[]][]) {
    await a.rows(
      `CREATE TABLE ${name} AS SELECT ${columns.map(([c]) => `unnest($${c}) AS ${c}`).join(', ')}`,
      Object.fromEntries(columns.map(([c, , values]) => [c, listValue(values)])),
      Object.fromEntries(columns.map(([c, type]) => [c, LIST(type === 'INTEGER' ? INTEGER : VARCHAR)])),
    );
  }

  return {
    /** How many people the range's rows of the scope are about. */
    async people(q: PersonDaysQuestion): Promise<number> {
      const { sel, params } = await ready(q);
      const [row] = await a.rows<{ n: number }>(
        `SELECT count(DISTINCT pid)::INTEGER AS n FROM person_day WHERE day BETWEEN $start AND $end AND ${sel.where}`,
        params,
        sel.types,
      );
      return row?.n ?? 0;
    },

    /**
     * Writes the range's rows of the scope to `file` (which the caller removes), by day then person as the reader
     * sees them (never by what they are not shown), in one query: DuckDB writes as it reads, within its memory limit.
     * One file at a time (`writing`): the next waits for the one being written.
     */
    write(q: PersonDaysQuestion, format: ExportFormat, file: string): Promise<void> {
      const turn = (writing.get(a) ?? Promise.resolve()).then(() => writeNow(q, format, file));
      writing.set(
        a,
        turn.catch(() => undefined),
      );
      return turn;
    },
  };

  /** The file written, its turn come. */
  async function writeNow(q: PersonDaysQuestion, format: ExportFormat, file: string): Promise<void> {
    const { sel, params } = await ready(q);
    const view = q.view ?? {};
    const n = ++made;
    const scratch: string[] = [];
    const types = { ...sel.types };
    let id = 'p.user_id';
    let email = 'd.user_email';
    // The team of the day, else the mapping's in force (one the store never recorded the person in).
    let team = 'coalesce(h.team, m.team, $unassigned)';
    let joins = '';
    const text: Record<'model' | 'tier' | 'level', string> = {
      model: 'd.primary_model',
      tier: 'd.primary_model_tier',
      level: 'd.delegation_level',
    };
    let names = 'SELECT code, name FROM language';
    try {
      if (view.person || view.rewrite) {
        // Each person of the scope as the reader is shown them, and each team.
        const rewrite = view.rewrite ?? ((s: string) => s);
        const pid: number[] = [];
        const shownId: string[] = [];
        for await (const part of a.rowParts<{ pid: number; user_id: string }>(
          `SELECT pid, user_id FROM person WHERE ${sel.where}`,
          sel.params,
          sel.types,
        ))
          for (const r of part) {
            pid.push(r.pid);
            shownId.push(view.person ? view.person.name(r.user_id) : rewrite(r.user_id));
          }
        const people = `scratch.export_people_${n}`;
        scratch.push(people);
        await scratchTable(people, [
          ['pid', 'INTEGER', pid],
          ['shown_id', 'VARCHAR', shownId],
        ]);
        const teams = (
          await a.rows<{ team: string }>(
            'SELECT team FROM member UNION SELECT team FROM member_history UNION SELECT $unassigned',
            { unassigned: UNASSIGNED },
          )
        ).map((r) => r.team);
        const shownTeam = teams.map((t) => {
          const shown = view.person ? view.person.team(t) : t;
          return shown === null ? null : rewrite(shown);
        });
        const teamsShown = `scratch.export_teams_${n}`;
        scratch.push(teamsShown);
        await scratchTable(teamsShown, [
          ['team', 'VARCHAR', teams],
          ['shown_team', 'VARCHAR', shownTeam],
        ]);
        joins += ` JOIN ${people} v ON v.pid = d.pid LEFT JOIN ${teamsShown} t ON t.team = ${team}`;
        id = 'v.shown_id';
        team = 't.shown_team';
        if (view.person) email = 'NULL::VARCHAR';
      }
      if (view.rewrite) {
        // Every other text of the rows an email could be in (the emails given, the models, tiers, levels and
        // languages: few), each that the rewrite changes beside what it becomes.
        const given = await a.rows<{ t: string }>(
          `SELECT DISTINCT t FROM (
               SELECT unnest([${view.person ? '' : 'user_email, '}primary_model, primary_model_tier, delegation_level]) AS t
               FROM person_day WHERE day BETWEEN $start AND $end AND ${sel.where}
               UNION ALL SELECT name FROM language) WHERE t IS NOT NULL`,
          params,
          sel.types,
        );
        const changed = given.flatMap(({ t }) => {
          const shown = view.rewrite!(t);
          return shown === t ? [] : [[t, shown] as const];
        });
        if (changed.length > 0) {
          const texts = `scratch.export_texts_${n}`;
          scratch.push(texts);
          await scratchTable(texts, [
            ['t', 'VARCHAR', changed.map(([t]) => t)],
            ['shown', 'VARCHAR', changed.map(([, s]) => s)],
          ]);
          for (const [k, sql] of Object.entries(text) as [keyof typeof text, string][]) {
            joins += ` LEFT JOIN ${texts} x_${k} ON x_${k}.t = ${sql}`;
            text[k] = `coalesce(x_${k}.shown, ${sql})`;
          }
          if (!view.person) {
            joins += ` LEFT JOIN ${texts} x_email ON x_email.t = d.user_email`;
            email = 'coalesce(x_email.shown, d.user_email)';
          }
          names = `SELECT code, coalesce(x.shown, name) AS name FROM language LEFT JOIN ${texts} x ON x.t = name`;
        }
      }
      const csv = format === 'csv';
      const cell = (sql: string) => (csv ? inert(sql) : sql);
      // The day's languages by name, in the order the service gave them (a list; a text in a CSV).
      const languages = `list_transform(d.languages, lambda c: l.names[c])`;
      const select = `
          SELECT d.day AS date, ${cell(id)} AS user_id, ${cell(`nullif(${email}, '')`)} AS user_email,
            ${cell(team)} AS team, ${PERSON_NUMBERS.map((c) => `d.${c}`).join(', ')},
            ${cell(text.model)} AS primary_model, ${cell(text.tier)} AS primary_model_tier,
            ${cell(text.level)} AS delegation_level,
            ${csv ? cell(`array_to_string(${languages}, ', ')`) : languages} AS languages
          FROM person_day d JOIN person p USING (pid) LEFT JOIN member m USING (pid)
            ASOF LEFT JOIN (SELECT pid, from_day::DATE AS from_day, team FROM member_history) h
              ON d.pid = h.pid AND d.day >= h.from_day${joins},
            (SELECT map_from_entries(list((code, name))) AS names FROM (${names})) l
          WHERE d.day BETWEEN $start AND $end AND ${sel.where}
          ORDER BY d.day, ${id}`;
      // Text cells quoted whatever they hold: a spreadsheet may split an unquoted one on `;` or a tab.
      const options = csv
        ? `FORMAT csv, HEADER true, FORCE_QUOTE (${TEXTS.join(', ')})`
        : 'FORMAT parquet, COMPRESSION zstd';
      await a.rows(
        `COPY (${select}\n) TO ${literal(file)} (${options})`,
        // A parameter the query does not name is refused.
        { ...params, unassigned: UNASSIGNED },
        types,
      );
    } finally {
      for (const t of scratch) await a.rows(`DROP TABLE IF EXISTS ${t}`).catch(() => undefined);
    }
  }
}
