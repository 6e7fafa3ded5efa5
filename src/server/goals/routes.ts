/**
 * Goals per team (their shapes: src/api/goals.ts): a share to reach by a date, kept in the store for the
 * organization ('') or a team, one each, with its progress per whole week (`progress.ts`, lib/goals.ts).
 *
 * Who reads: a team's goal as its figures (its managers and admins); the organization's whoever reads the
 * organization's figures. Who writes: admins any goal; a manager their teams' and sub-teams', never the
 * organization's; a viewer none; without sign-in, the machine the dashboard runs on (as marks: `requireEditor`).
 * In privacy mode a team the mode does not show has no progress for a reader it applies to: asked by name, a 403.
 */
import type { IncomingMessage } from 'node:http';
import {
  GOAL_AHEAD_DAYS,
  GOAL_KINDS,
  GOAL_SOONEST_DAYS,
  GOALS_PATH,
  goalChangeSchema,
  goalInputSchema,
  goalRemovedSchema,
  goalSchema,
  goalsAnswerSchema,
  type Goal,
  type GoalKind,
} from '../../api/goals';
import { addDays, isDay, type Day, type DayRange } from '../../lib/dates';
import { lastWholeWeek } from '../../lib/goals';
import { setsFor, type AccessRule, type Decision, type ViewScope } from '../auth/access';
import { smallTeamRefusal } from '../auth/privacy';
import type { FiguresPrivacy, FiguresRunner } from '../analytics/figures';
import { errorResponse, HttpError } from '../core/errors';
import { json } from '../core/response';
import { canonicalEmail, readJson } from '../core/text';
import { queryParser, quote } from '../http/query';
import { requireEditor, fromThisMachine, route, type Route } from '../http/router';
import type { StoreDb } from '../store/db';
import { addGoal, deleteGoal, readGoal, readGoals, updateGoal, type StoredGoal } from '../store/goals-queries';
import type { MappingSource } from '../teams/source';
import { isWithin, withAncestors } from '../teams/tree';
import { progressOf } from './progress';

export interface GoalsRoutesOptions {
  store: StoreDb;
  teams: MappingSource;
  latestDay: () => Day;
  signIn: boolean;
  /** The figures runner (analytics/figures.ts): each week's active people and the members. */
  runner: Promise<FiguresRunner>;
  /** Fills the `/users` days of a range from the service first, as the other figures' routes do. */
  fill: (r: DayRange) => Promise<void>;
}

const MAX_BODY = 4 * 1024;

const refuse = (detail: string): Decision => ({ allow: false, status: 403, detail });

/** The gate's rule (auth/access.ts applies it before the route): reads as a team's figures, writes for managers and admins. */
export const goalsAccess: AccessRule = (v, _cfg, { method, search }) => {
  if (method !== 'GET' && method !== 'HEAD')
    return v.role === 'viewer'
      ? refuse('Goals are set by managers, for their teams, and by admins (ADMIN_EMAILS).')
      : { allow: true };
  const asked = search.getAll('team');
  if (asked.length === 0) return { allow: true };
  if (v.role === 'viewer') return refuse('A team’s goal is shown to its managers and admins.');
  const outside = asked.find((t) => !v.teams.some((m) => isWithin(t, m)));
  return outside === undefined
    ? { allow: true }
    : refuse(
        `You see the goals of ${v.teams.join(', ')} and their sub-teams; ${JSON.stringify(outside)} is not one of them.`,
      );
};

const who = (team: string) => (team === '' ? 'The organization' : quote(team));

export function createGoalsRoutes(opts: GoalsRoutesOptions) {
  const { store, teams: source, latestDay } = opts;

  /** Whether the reader reads this scope's goal: the organization's with its figures, a team's as its figures. */
  const mayRead = (scope: ViewScope | undefined, team: string) =>
    !scope || scope.admin || (team === '' ? scope.orgView : scope.seesTeamDetails(team));

  /** Who set a goal, as the reader may see people (as a mark's author: routes of server/marks). */
  const authorFor = (g: StoredGoal, scope: ViewScope | undefined) => {
    if (scope?.privacy) return g.author !== null && canonicalEmail(g.author) === scope.email ? g.author : null;
    return setsFor(scope, g.team) ? g.author : null;
  };

  const editor = (req: IncomingMessage) =>
    requireEditor(req, opts.signIn, 'goals', 'elsewhere, configure sign-in (managers then set their teams’ goals)');
  const fromHere = (req: IncomingMessage) => opts.signIn || fromThisMachine(req);

  /** Why a goal has no progress for this reader, or null when it has: a team gone from the mapping, privacy mode. */
  async function reasonNone(g: StoredGoal, scope: ViewScope | undefined): Promise<string | null> {
    const mapping = source.current().mapping;
    if (g.team !== '' && !withAncestors(mapping?.teams ?? []).includes(g.team))
      return `No team is called ${quote(g.team)} in the mapping in force: this goal has no progress until it names a team again.`;
    const lens = scope?.privacy;
    if (lens && g.team !== '' && !(await (await opts.runner).shown(mapping, lens.minGroup)).has(g.team))
      return smallTeamRefusal(g.team, lens.minGroup);
    return null;
  }

  const figuresOf = (g: StoredGoal) => ({
    team: g.team,
    kind: g.kind as GoalKind,
    target: g.target,
    by: g.by_day,
    startWeek: g.start_week,
  });

  /** A stored goal for the reader, with its progress when they may see it. */
  async function view(g: StoredGoal, req: IncomingMessage, scope: ViewScope | undefined): Promise<Goal> {
    const reason = await reasonNone(g, scope);
    const lens = scope?.privacy;
    const progress =
      reason === null
        ? await progressOf(await opts.runner, {
            goal: figuresOf(g),
            latest: latestDay(),
            mapping: source.current().mapping,
            fill: opts.fill,
            ...(lens && { privacy: { minGroup: lens.minGroup, name: lens.name } }),
          })
        : null;
    return {
      id: g.id,
      team: g.team,
      kind: g.kind as GoalKind,
      target: g.target,
      by: g.by_day,
      startWeek: g.start_week,
      author: authorFor(g, scope),
      updatedAt: g.updated_at,
      editable: fromHere(req) && setsFor(scope, g.team),
      progress,
      reason,
    };
  }

  /** What a goal sets (its kind, target and date), checked; else throws the 400 (or 415, 413) saying what is wrong. */
  async function readInput(req: IncomingMessage, withTeam: boolean) {
    const example = `{${withTeam ? '"team": "" or a team’s path, ' : ''}"kind": "${GOAL_KINDS.join('" or "')}", "target": 0.8, "by": "2026-06-30"}`;
    const body = await readJson(req, MAX_BODY, {
      unsupported: `Send the goal as JSON: ${example}.`,
      tooLarge: 'A goal is at most 4 KB of JSON.',
      invalid: `The body is not valid JSON: send ${example}.`,
    });
    const b = (body ?? {}) as Record<string, unknown>;
    const bad = (detail: string) => new HttpError(400, detail);
    let team = '';
    if (withTeam) {
      if (typeof b.team !== 'string') throw bad('"team" must be a team’s path, or "" for the whole organization.');
      team = b.team.trim();
      if (team !== '' && !withAncestors(source.current().mapping?.teams ?? []).includes(team))
        throw bad(`No team is called ${quote(team)} in the mapping in force.`);
    }
    if (typeof b.kind !== 'string' || !(GOAL_KINDS as readonly string[]).includes(b.kind))
      throw bad(`"kind" must be one of ${GOAL_KINDS.join(', ')}; got ${quote(b.kind)}.`);
    const t = b.target;
    if (typeof t !== 'number' || !Number.isFinite(t))
      throw bad(`"target" must be a share from 0 to 1 (80 % is 0.8); got ${quote(t)}.`);
    if (t > 1 && t <= 100)
      throw bad(`"target" is a share from 0 to 1, not a percentage: for ${t} % send ${Number((t / 100).toFixed(4))}.`);
    if (t <= 0 || t > 1) throw bad(`"target" must be a share above 0 % and at most 100 % (0 to 1); got ${quote(t)}.`);
    const latest = latestDay();
    if (typeof b.by !== 'string' || !isDay(b.by)) throw bad(`"by" must be a day (YYYY-MM-DD), got ${quote(b.by)}.`);
    const soonest = addDays(latest, GOAL_SOONEST_DAYS);
    if (b.by < soonest)
      throw bad(
        b.by <= latest
          ? `"by" (${b.by}) is in the past: the latest day with data is ${latest}; give a day from ${soonest} on.`
          : `"by" (${b.by}) is too soon: a goal is read in whole weeks, so give a day from ${soonest} on (a whole week after the latest day with data, ${latest}).`,
      );
    if (b.by > addDays(latest, GOAL_AHEAD_DAYS))
      throw bad(
        `"by" (${b.by}) is more than a year after the latest day with data (${latest}): give a day up to ${addDays(latest, GOAL_AHEAD_DAYS)}.`,
      );
    return { team, fields: { kind: b.kind, target: t, by_day: b.by, start_week: lastWholeWeek(latest) } };
  }

  /** Throws the 403 unless the reader may set this scope's goal. */
  const mayWriteOrRefuse = (scope: ViewScope | undefined, team: string) => {
    if (setsFor(scope, team)) return;
    throw new HttpError(
      403,
      team === ''
        ? 'The organization’s goal is set by admins (ADMIN_EMAILS); a manager sets their teams’ goals.'
        : `You set the goals of your teams and their sub-teams; ${quote(team)} is not one of them.`,
    );
  };

  const one = /^\/api\/goals\/([^/]+)$/;
  const idOf = (match: readonly string[]) => {
    try {
      return decodeURIComponent(match[0]!);
    } catch {
      return '';
    }
  };

  /** The goal at the path when the reader may change it from here; else throws why not (one unseen is not said to exist). */
  async function changeable(req: IncomingMessage, match: readonly string[], scope: ViewScope | undefined) {
    editor(req);
    const g = await readGoal(store.db, idOf(match));
    if (!g || !mayRead(scope, g.team)) throw new HttpError(404, 'No such goal: it may have been removed.');
    mayWriteOrRefuse(scope, g.team);
    return g;
  }

  const listQuery = queryParser({ teams: true });

  const routes: Route[] = [
    route({
      method: 'GET',
      path: GOALS_PATH,
      query: listQuery,
      access: goalsAccess,
      what: 'the goals',
      response: goalsAnswerSchema,
      handle: async ({ req, query: q, scope }) => {
        const asked = q.teams.length > 0 ? q.teams : null;
        const lens = scope?.privacy;
        // A team asked by name that privacy mode does not show is refused, as its other figures are.
        if (asked && lens) {
          const shown = await (await opts.runner).shown(source.current().mapping, lens.minGroup);
          const hidden = asked.find((t) => !shown.has(t));
          if (hidden !== undefined) return errorResponse(403, smallTeamRefusal(hidden, lens.minGroup));
        }
        const stored = (await readGoals(store.db, asked)).filter((g) => mayRead(scope, g.team));
        const goals: Goal[] = [];
        for (const g of stored) goals.push(await view(g, req, scope));
        return json(200, { latest: latestDay(), goals });
      },
    }),
    route({
      method: 'POST',
      path: GOALS_PATH,
      access: goalsAccess,
      what: 'the goal',
      body: goalInputSchema,
      response: { status: 201, schema: goalSchema },
      handle: async ({ req, scope }) => {
        editor(req);
        const { team, fields } = await readInput(req, true);
        mayWriteOrRefuse(scope, team);
        const g = await addGoal(store.db, team, fields, scope?.email ?? null);
        if (!g)
          return errorResponse(
            409,
            `${who(team)} has a goal already: change it (PUT ${GOALS_PATH}/<its id>) or remove it before setting another.`,
          );
        return json(201, await view(g, req, scope));
      },
    }),
    route({
      method: 'PUT',
      path: one,
      label: '/api/goals/:id',
      access: goalsAccess,
      what: 'the goal',
      body: goalChangeSchema,
      response: goalSchema,
      handle: async ({ req, match, scope }) => {
        const old = await changeable(req, match, scope);
        const { fields } = await readInput(req, false);
        // Changed, a goal is set anew: its line starts from the latest whole week.
        const g = await updateGoal(store.db, old.id, fields, scope?.email ?? old.author);
        return g ? json(200, await view(g, req, scope)) : errorResponse(404, 'No such goal: it may have been removed.');
      },
    }),
    route({
      method: 'DELETE',
      path: one,
      label: '/api/goals/:id',
      access: goalsAccess,
      what: 'the goal',
      response: goalRemovedSchema,
      handle: async ({ req, match, scope }) => {
        const old = await changeable(req, match, scope);
        await deleteGoal(store.db, old.id);
        return json(200, { removed: old.id });
      },
    }),
  ];

  /**
   * The progress of a scope's goal as a check of the alerts reads it (`privacy`: the channel's, in privacy mode); null
   * when the scope has no goal, or its team is gone from the mapping.
   */
  async function progressOfScope(team: string, privacy?: FiguresPrivacy) {
    const [g] = await readGoals(store.db, [team]);
    if (!g || (await reasonNone(g, undefined)) !== null) return null;
    const progress = await progressOf(await opts.runner, {
      goal: figuresOf(g),
      latest: latestDay(),
      mapping: source.current().mapping,
      fill: opts.fill,
      ...(privacy && { privacy }),
    });
    return { kind: g.kind as GoalKind, target: g.target, by: g.by_day, progress };
  }

  return { routes, progressOfScope };
}
