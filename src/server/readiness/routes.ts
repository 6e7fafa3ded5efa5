/**
 * The readiness endpoints of the dashboard's server (their shapes: src/api/readiness.ts): the stored
 * reports with each repository's owning team by the mapping in force, for the organization or for
 * chosen teams, and the criteria whose fix brings those below the target level up to it (CSV, and the
 * weekly digest's line). The level rules are lib/readiness.ts's, the SPA's own.
 */
import { CRITERIA_BY_ID } from '../../api/criteria';
import { UNASSIGNED } from '../../api/teams';
import { readinessReportSchema, type ReadinessReport } from '../../api/schemas';
import {
  READINESS_FIXES_CSV_PATH,
  READINESS_PATH,
  READINESS_STALE_DAYS,
  readinessAnswerSchema,
  type ReadinessRepo,
} from '../../api/readiness';
import { toCsv } from '../../lib/csv';
import { fixesForSet, type SetFix } from '../../lib/readiness';
import { repoKey } from '../../lib/repos';
import { ACCESS } from '../auth/access';
import { jsonText, type HttpResponse } from '../core/response';
import { queryParser } from '../http/query';
import { route, type Route } from '../http/router';
import type { StoreDb } from '../store/db';
import { readAlertRules } from '../store/alerts-queries';
import { allReports, reportsVersion } from '../store/queries';
import { repoOwner, type Mapping } from '../teams/mapping';
import type { MappingSource } from '../teams/source';
import { inSelection } from '../teams/tree';

export interface ReadinessRoutesOptions {
  store: StoreDb;
  source: MappingSource;
  /** Brings the stored reports up to date first (the service is asked again after a few minutes). */
  refresh: () => Promise<void>;
}

interface Stored {
  key: string;
  body: string;
  report: ReadinessReport;
}

/** The repositories asked for, their reports (oldest first) and whether the mapping names repositories. */
export interface ReadinessSelection {
  ownership: boolean;
  repos: ReadinessRepo[];
  reports: Stored[];
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function createReadinessRoutes(opts: ReadinessRoutesOptions) {
  const { store, source } = opts;
  let kept: { version: string; reports: Stored[] } | undefined;

  /** Every stored report, parsed once per version of the store's reports, oldest first. */
  async function stored(): Promise<Stored[]> {
    await opts.refresh();
    if (kept?.version !== (await reportsVersion(store.db))) {
      const all = await allReports(store.db);
      const reports = all.bodies.flatMap((body) => {
        // Each body passed the service's schema when it was stored; parsing again gives its defaults.
        const r = readinessReportSchema.safeParse(JSON.parse(body));
        return r.success ? [{ key: repoKey(r.data.repoUrl), body, report: r.data }] : [];
      });
      reports.sort((a, b) => a.report.createdAt - b.report.createdAt || byId(a.report.reportId, b.report.reportId));
      kept = { version: all.version, reports };
    }
    return kept.reports;
  }

  let owned: { mapping: Mapping | null; reports: Stored[]; owners: Map<string, string | null> } | undefined;

  /**
   * Each stored repository's owning team, found once per mapping and per version of the stored reports: a
   * request while neither changes matches no pattern.
   */
  function ownersOf(mapping: Mapping | null, reports: Stored[]): Map<string, string | null> {
    if (owned?.mapping !== mapping || owned.reports !== reports) {
      const owner = repoOwner(mapping);
      const owners = new Map<string, string | null>();
      for (const r of reports) if (!owners.has(r.key)) owners.set(r.key, owner(r.report.repoUrl));
      owned = { mapping, reports, owners };
    }
    return owned.owners;
  }

  /**
   * After how many days a repository's latest report is stale, by its owning team: the fewest days of the enabled
   * `readiness-stale` alert rules covering it (the organization's, its team's or one above it; Unassigned's for a
   * repository no team owns), so the pages call stale what those rules alert on; else the default.
   */
  async function staleness(): Promise<(team: string | null) => number> {
    const rules = (await readAlertRules(store.db)).filter(
      (r) => r.kind === 'readiness-stale' && Number(r.enabled) === 1,
    );
    return (team) => {
      let days = Infinity;
      for (const r of rules) {
        const covers = r.scope === '' || (team === null ? r.scope === UNASSIGNED : inSelection(team, [r.scope]));
        if (covers && r.threshold !== null) days = Math.min(days, Number(r.threshold));
      }
      return days === Infinity ? READINESS_STALE_DAYS : days;
    };
  }

  /**
   * The repositories of the teams asked for (sub-teams included; Unassigned: those no team owns), or
   * every repository when none is asked for.
   */
  async function selection(teams: readonly string[]): Promise<ReadinessSelection> {
    const mapping = source.current().mapping;
    const reports = await stored();
    const owners = ownersOf(mapping, reports);
    const chosen = (team: string | null) =>
      teams.length === 0 || (team === null ? teams.includes(UNASSIGNED) : inSelection(team, teams));
    const staleAfter = await staleness();
    const repos = [...owners]
      .filter(([, team]) => chosen(team))
      .map(([key, team]) => ({ key, team, staleAfter: staleAfter(team) }))
      .sort((a, b) => byId(a.key, b.key));
    const keys = new Set(repos.map((r) => r.key));
    return {
      ownership: (mapping?.repos.length ?? 0) > 0,
      repos,
      reports: reports.filter((r) => keys.has(r.key)),
    };
  }

  /** The criteria whose fix brings the selection's repositories below level 3 up to it, each by its latest report. */
  async function fixes(teams: readonly string[]): Promise<{ repositories: number; fixes: SetFix[] }> {
    const s = await selection(teams);
    const latest = new Map<string, ReadinessReport>();
    for (const r of s.reports) latest.set(r.key, r.report);
    return {
      repositories: latest.size,
      fixes: fixesForSet(
        [...latest].map(([key, report]) => ({ key, report })),
        (id) => CRITERIA_BY_ID.get(id)?.level,
      ),
    };
  }

  const teamsQuery = queryParser({ teams: true });
  const routes: Route[] = [
    route({
      method: 'GET',
      path: READINESS_PATH,
      query: teamsQuery,
      access: ACCESS.readiness,
      what: 'the repositories’ readiness',
      response: readinessAnswerSchema,
      async handle({ query }): Promise<HttpResponse> {
        const s = await selection(query.teams);
        // The reports go out as the service gave them: their stored bodies, unchanged.
        const body = `{"ownership":${s.ownership},"repos":${JSON.stringify(s.repos)},"reports":[${s.reports.map((r) => r.body).join(',')}]}`;
        return jsonText(200, body);
      },
    }),
    route({
      method: 'GET',
      path: READINESS_FIXES_CSV_PATH,
      query: teamsQuery,
      access: ACCESS.readiness,
      what: 'what to fix next',
      response: { file: 'text/csv' },
      async handle({ query }): Promise<HttpResponse> {
        const { fixes: rows } = await fixes(query.teams);
        const csv = toCsv(
          [
            'criterion',
            'name',
            'level',
            'pillar',
            'repositories',
            'lifted_alone',
            'repository_keys',
            'lifted_alone_keys',
          ],
          rows.map((f) => {
            const known = CRITERIA_BY_ID.get(f.id);
            return [
              f.id,
              known?.name ?? f.id,
              known?.level ?? null,
              known?.pillar ?? 'Other',
              f.helps.length,
              f.lifts.length,
              f.helps.join(';'),
              f.lifts.join(';'),
            ];
          }),
        );
        const tag = query.teams.length === 0 ? 'organization' : query.teams.length === 1 ? 'team' : 'teams';
        return {
          status: 200,
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="readiness-fixes-${tag}.csv"`,
          },
          body: csv,
        };
      },
    }),
  ];

  return { routes, selection, fixes };
}
