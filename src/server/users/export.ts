/**
 * The bulk export of the dashboard's server:
 *
 *   GET /api/export/person-days?start&end&format=parquet|csv[&team=…]
 *       every person-day row of the range (the service's `/users` fields) with each person's team on the day, as
 *       Parquet or CSV: written by the analytics engine to a temporary file, streamed, then removed.
 *
 * Admins export everyone (or the teams asked); a manager their teams' people, as the users table shows them: in
 * privacy mode by pseudonym, in the team shown for theirs, and nothing when the rows are about fewer than k people;
 * with PSEUDONYMIZE=1 every email rewritten. Viewers are refused (the route's rule). The range's days are read from
 * the service first when the store lacks them (503 with Retry-After while they are).
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod/mini';
import type { Analytics } from '../analytics/engine';
import { EXPORT_FORMATS, EXPORT_PATH } from '../../api/export';
import { createExport, type ExportView } from '../analytics/export';
import type { MemberHistory } from '../analytics/member-history';
import { ACCESS } from '../auth/access';
import { errorResponse } from '../core/errors';
import { silentLogger, type Logger } from '../core/log';
import type { Answer } from '../core/response';
import { queryParser, quote } from '../http/query';
import { route, type Route } from '../http/router';
import type { StoreDb } from '../store/db';
import type { SyncEngine } from '../sync/engine';
import type { Mapping } from '../teams/mapping';
import { shownTeamOf } from '../teams/tree';
import { createRangeFiller } from './fill';

const CONTENT_TYPES = { parquet: 'application/vnd.apache.parquet', csv: 'text/csv; charset=utf-8' } as const;

const exportQuery = queryParser({
  range: 'required',
  teams: true,
  shape: {
    format: z.enum(EXPORT_FORMATS, {
      error: (iss) =>
        iss.input === undefined
          ? `Give format=${EXPORT_FORMATS.join(' or format=')}.`
          : `format must be one of ${EXPORT_FORMATS.join(', ')}, got ${quote(iss.input)}.`,
    }),
  },
});

export interface ExportRoutesOptions {
  store: StoreDb;
  engine: SyncEngine;
  analytics: Promise<Analytics>;
  /** Who was in which team when (analytics/member-history.ts): the store's record, shared with the funnel. */
  history?: Promise<MemberHistory>;
  /** The mapping in force (none: everyone is Unassigned). */
  mapping: () => Mapping | null;
  /** Privacy mode: the teams shown for k (auth/privacy.ts `shownTeams`). */
  shownTeams: (k: number) => Promise<{ teams: ReadonlySet<string> }>;
  /** How long a request waits for the walk of its range before answering 503. */
  fillWaitMs?: number;
  /** Where the files are written before they are sent (the system's temporary folder by default). */
  tempDirectory?: string;
  logger?: Logger;
}

/**
 * A file's bytes, a piece at a time, and the folder holding it removed once they are read or the reader goes away
 * (a stream's iterator ended early, even before its first piece).
 */
function fileThenGone(file: string, folder: string): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const bytes = createReadStream(file, { highWaterMark: 256 * 1024 })[Symbol.asyncIterator]();
      const gone = () => rm(folder, { recursive: true, force: true });
      return {
        async next() {
          try {
            const r = (await bytes.next()) as IteratorResult<Uint8Array>;
            if (r.done) await gone();
            return r;
          } catch (e) {
            await gone();
            throw e;
          }
        },
        async return() {
          await bytes.return?.();
          await gone();
          return { done: true, value: undefined };
        },
      };
    },
  };
}

export function createExportRoutes(opts: ExportRoutesOptions) {
  const logger = opts.logger ?? silentLogger;
  const filler = createRangeFiller(opts.store, opts.engine, opts.fillWaitMs ?? 1500, logger);
  const exporter = Promise.all([opts.analytics, opts.history]).then(([a, h]) => createExport(a, h));
  const folder = opts.tempDirectory ?? tmpdir();

  const personDays = route({
    method: 'GET',
    path: EXPORT_PATH,
    query: exportQuery,
    access: ACCESS.peopleRows,
    what: 'the export',
    response: { file: [CONTENT_TYPES.parquet, 'text/csv'] },
    async handle({ req, query: { range, teams, params }, scope }): Promise<Answer> {
      const lens = scope?.privacy;
      const state = await filler.ensure(range);
      if (!state.complete) return errorResponse(503, state.progress.detail, { 'retry-after': '1' });
      let view: ExportView | undefined;
      if (lens) {
        const shown = (await opts.shownTeams(lens.minGroup)).teams;
        view = { person: { name: lens.name, team: (t) => shownTeamOf(t, shown) } };
      }
      if (scope?.pseudonymize) view = { ...view, rewrite: scope.pseudonymize };
      // A manager's teams are put in `team` by the gate: they see no one else's rows.
      const question = { range, mapping: opts.mapping(), scope: { people: teams.length > 0 ? teams : null }, view };
      const x = await exporter;
      if (lens?.tooFew(await x.people(question)))
        return errorResponse(
          422,
          `Privacy mode (PRIVACY_MIN_GROUP=${lens.minGroup}): these rows are about fewer than ${lens.minGroup} people, so they are not exported.`,
        );
      const headers = {
        'content-type': CONTENT_TYPES[params.format],
        'content-disposition': `attachment; filename="person-days-${range.start}-${range.end}.${params.format}"`,
      };
      const answer = { status: 200, headers, pseudonymized: true };
      if (req.method === 'HEAD') return { ...answer, pieces: [] };
      const dir = await mkdtemp(join(folder, 'dashboard-export-'));
      const file = join(dir, `person-days.${params.format}`);
      try {
        await x.write(question, params.format, file);
      } catch (e) {
        await rm(dir, { recursive: true, force: true });
        throw e;
      }
      return { ...answer, pieces: fileThenGone(file, dir) };
    },
  });

  return { routes: [personDays] as Route[] };
}
