/**
 * `GET /api/reconciliation` (its shape and parts: src/api/reconciliation.ts): per day, the service's organization
 * totals beside the dashboard's sum over people, the difference split into parts that add up (reconcile.ts).
 *
 * The service's totals are its own day rows (`/activity`, `/productivity`, `/tokens`), filled into the store as any
 * page's; the dashboard's are the figures runner's over the people the store holds. Its `/users` days are not filled
 * here: a day the store does not hold is what the page reports (not yet synced), not something it hides by asking.
 *
 * Who sees what: an admin the organization (or any teams' share); a manager their teams' share, beside the
 * organization's totals, so not under RESTRICT_ORG_VIEW; a viewer none. In privacy mode a manager's groups that the
 * mode does not show (teams/tree.ts `shownTeams`) are left out of the dashboard's figure and counted with the
 * people outside the teams, never on their own; the answer says how many people that is.
 */
import { RECONCILED, RECONCILIATION_PATH, reconciliationSchema, SERVICE_FIELDS } from '../../api/reconciliation';
import type { Reconciliation, Reconciled } from '../../api/reconciliation';
import { eachDay, type Day, type DayRange } from '../../lib/dates';
import type { FiguresRunner } from '../analytics/figures';
import { actingAs, type AccessRule, type Decision } from '../auth/access';
import { json } from '../core/response';
import { queryParser } from '../http/query';
import { route, type Route } from '../http/router';
import type { StoreDb } from '../store/db';
import * as q from '../store/queries';
import type { Mapping } from '../teams/mapping';
import type { MappingSource } from '../teams/source';
import { isWithin, parentOf, withAncestors } from '../teams/tree';
import { reconcile, type DayValues } from './reconcile';

export interface ReconcileRoutesOptions {
  store: StoreDb;
  runner: Promise<FiguresRunner>;
  source: MappingSource;
  /** Fills the range's organization day rows of `/activity`, `/productivity` and `/tokens` (not `/users`). */
  fillOrg: (r: DayRange) => Promise<void>;
  /** The organization's `/tokens` day rows of the range, without their split per person. */
  orgTokens: (r: DayRange) => Promise<Record<string, unknown>[]>;
}

const refuse = (detail: string): Decision => ({ allow: false, status: 403, detail });

/**
 * Admins any scope; a manager their teams' share (a team asked for within theirs), beside the organization's totals,
 * which RESTRICT_ORG_VIEW keeps from them; a viewer none (the page is about teams and the people outside them).
 */
export const reconciliationAccess: AccessRule = (v, cfg, { search }) => {
  if (v.role === 'viewer') return refuse('The reconciliation is shown to managers (their teams’ share) and admins.');
  if (cfg.restrictOrgView)
    return refuse(
      'The reconciliation sets the dashboard beside the service’s organization totals, which are not shown to managers here (RESTRICT_ORG_VIEW).',
    );
  const outside = search.getAll('team').find((t) => !v.teams.some((m) => isWithin(t, m)));
  return outside === undefined
    ? { allow: true }
    : refuse(
        `You see the figures of ${v.teams.join(', ')} and their sub-teams; ${JSON.stringify(outside)} is not one of them.`,
      );
};

export const reconciliationQuery = queryParser({ range: 'optional', teams: true });

/** The teams of a list not within another of it. */
const outermost = (teams: readonly string[]) => teams.filter((t) => !teams.some((o) => o !== t && isWithin(t, o)));

/** The mapping's top-level teams: everyone the mapping names, each person once. */
const topLevel = (mapping: Mapping | null) => withAncestors(mapping?.teams ?? []).filter((t) => parentOf(t) === null);

const numberOf = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : 0);

export function createReconcileRoutes(opts: ReconcileRoutesOptions) {
  const { db } = opts.store;

  /** The service's totals of each day, from its stored day rows (one row a day, not grouped). */
  async function serviceTotals(range: DayRange): Promise<Map<Day, DayValues>> {
    const [activity, productivity, tokens] = await Promise.all([
      q.readDays(db, 'activity', '', range.start, range.end),
      q.readDays(db, 'productivity', '', range.start, range.end),
      opts.orgTokens(range),
    ]);
    const rows: Record<'tokens' | 'activity' | 'productivity', Map<string, Record<string, unknown>>> = {
      activity: new Map(),
      productivity: new Map(),
      tokens: new Map(tokens.map((r) => [String(r.date), r])),
    };
    for (const [endpoint, days] of [
      ['activity', activity],
      ['productivity', productivity],
    ] as const)
      for (const d of days)
        for (const r of JSON.parse(d.body) as Record<string, unknown>[]) rows[endpoint].set(String(r.date), r);
    return new Map(
      eachDay(range.start, range.end).map((day) => [
        day,
        Object.fromEntries(
          RECONCILED.map((m) => [m, numberOf(rows[SERVICE_FIELDS[m].endpoint].get(day)?.[SERVICE_FIELDS[m].field])]),
        ) as DayValues,
      ]),
    );
  }

  /** The days whose per-person rows the store holds, and those of them no answer of will change. */
  async function syncState(range: DayRange) {
    const [users, ...org] = await Promise.all([
      q.storedUserDays(db, range.start, range.end),
      ...(['activity', 'productivity', 'tokens'] as const).map((e) => q.storedDays(db, e, '', range.start, range.end)),
    ]);
    const synced = new Set(users.map((d) => d.day));
    const open = new Set([...users, ...org.flat()].filter((d) => !d.final).map((d) => d.day));
    const final = new Set(users.map((d) => d.day).filter((d) => !open.has(d)));
    return { synced, final };
  }

  const routes: Route[] = [
    route({
      method: 'GET',
      path: RECONCILIATION_PATH,
      memo: true,
      query: reconciliationQuery,
      access: reconciliationAccess,
      what: 'the reconciliation',
      response: reconciliationSchema,
      async handle({ req, query: { range, teams }, scope }) {
        const mapping = opts.source.current().mapping;
        // A manager asking for no team: their teams (the gate let them through without naming them).
        const asked = teams.length > 0 ? teams : scope && !scope.admin ? (actingAs(req)?.teams ?? []) : [];
        const roots = outermost(asked);
        const lens = scope?.privacy;
        await opts.fillOrg(range);
        const runner = await opts.runner;
        const shown = lens ? await runner.shown(mapping, lens.minGroup) : undefined;
        const withheld = shown ? roots.filter((t) => !shown.has(t)) : [];
        const counted = roots.length > 0 ? roots.filter((t) => !withheld.includes(t)) : topLevel(mapping);
        const byDay = async (people: readonly string[] | null): Promise<Map<Day, DayValues>> => {
          if (people !== null && people.length === 0) return new Map();
          const answer = await runner.ask({ mapping, measures: RECONCILED, range, by: 'day', scope: { people } });
          return new Map(
            answer.rows.map((r) => [
              r.key,
              Object.fromEntries(RECONCILED.map((m) => [m, r.current[m] ?? 0])) as Record<Reconciled, number>,
            ]),
          );
        };
        const [service, state, everyone, dashboard, members] = await Promise.all([
          serviceTotals(range),
          syncState(range),
          byDay(null),
          byDay(counted),
          withheld.length > 0 ? runner.memberCounts(mapping) : undefined,
        ]);
        const body: Reconciliation = {
          range,
          // A group privacy mode does not show is not named, even to its manager: every team named is one shown.
          teams: roots.length > 0 ? counted : [],
          mapping: mapping !== null,
          outside: roots.length > 0 ? 'teams' : 'mapping',
          withheld: lens
            ? {
                minGroup: lens.minGroup,
                groups: withheld.length,
                people: withheld.reduce((n, t) => n + (members?.get(t) ?? 0), 0),
              }
            : null,
          days: reconcile({
            days: eachDay(range.start, range.end),
            service,
            ...state,
            everyone,
            counted: dashboard,
          }),
        };
        return json(200, body);
      },
    }),
  ];
  return { routes };
}
