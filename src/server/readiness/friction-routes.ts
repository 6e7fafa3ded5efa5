/**
 * `GET /api/readiness/friction` (its shape: src/api/friction.ts): readiness priced in friction and delegation headroom,
 * the repositories' latest reports joined to their owning teams' figures of the range (analytics/friction.ts).
 *
 * Who sees what: the teams' figures are shown as the teams summary shows them, to admins (any teams) and managers
 * (their teams, RESTRICT_ORG_VIEW or not); a viewer none. In privacy mode the runner's lens applies: a team the mode
 * does not show is on no side and in no list.
 */
import { frictionAnswerSchema, FRICTION_PATH } from '../../api/friction';
import type { DayRange } from '../../lib/dates';
import { askFriction, type OwnedRepo } from '../analytics/friction';
import type { FiguresRunner } from '../analytics/figures';
import { ACCESS } from '../auth/access';
import { json } from '../core/response';
import { queryParser } from '../http/query';
import { route, type Route } from '../http/router';
import type { PriceList } from '../spend/prices';
import type { MappingSource } from '../teams/source';
import type { ReadinessSelection } from './routes';

export interface FrictionRoutesOptions {
  runner: Promise<FiguresRunner>;
  source: MappingSource;
  /** The repositories of the teams asked for (all: none asked), with their reports oldest first. */
  selection: (teams: readonly string[]) => Promise<ReadinessSelection>;
  prices: () => PriceList | null;
  /** Fills the range's days of a source from the service first. */
  fill: (r: DayRange, from: 'users' | 'tokens') => Promise<void>;
}

export const frictionQuery = queryParser({ range: 'optional', teams: true });

export function createFrictionRoutes(opts: FrictionRoutesOptions) {
  const routes: Route[] = [
    route({
      method: 'GET',
      path: FRICTION_PATH,
      query: frictionQuery,
      access: ACCESS.teamsSummary,
      what: 'readiness priced in friction',
      response: frictionAnswerSchema,
      async handle({ query: { range, teams }, scope }) {
        const prices = opts.prices();
        const [s] = await Promise.all([
          opts.selection(teams),
          opts.fill(range, 'users'),
          prices ? opts.fill(range, 'tokens') : undefined,
        ]);
        // Each repository's latest report (the reports come oldest first).
        const latest = new Map(s.reports.map((r) => [r.key, r.report]));
        const repos: OwnedRepo[] = s.repos.flatMap((r) => {
          const report = latest.get(r.key);
          return report ? [{ key: r.key, team: r.team, report }] : [];
        });
        const lens = scope?.privacy;
        const answer = await askFriction(await opts.runner, {
          mapping: opts.source.current().mapping,
          repos,
          range,
          prices,
          ...(lens && { privacy: { minGroup: lens.minGroup, name: lens.name } }),
        });
        return json(200, answer);
      },
    }),
  ];
  return { routes };
}
