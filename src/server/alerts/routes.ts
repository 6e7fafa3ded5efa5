/**
 * The alerts' endpoints (their list and shapes: src/api/alerts.ts). Admins see and set every rule; a manager
 * the rules of their teams (sub-teams included), and the organization's alerts when they see its figures
 * (not the person-day ones: those name people outside their teams); a viewer none. Without sign-in everyone
 * reads, and changes come from the machine the dashboard runs on (as the budgets').
 *
 * Privacy mode, to a reader who is not an admin: a team of fewer than k members (sub-teams included, as the gate
 * counts them) has no rules or alerts shown, and a rule on it is refused (403 naming the mode); an admin's rule
 * there opens alerts the alerts page shows to admins, and the webhook is not told of (check.ts). A person-day
 * alert names its person by pseudonym, and who set a rule or acknowledged an alert is said only to themself.
 *
 * The check now and its preview read the rules the reader sets (an admin's: every rule), as the daily check reads
 * them: the preview stores and posts nothing; the check opens, resolves and posts those rules' alerts only.
 */
import type { IncomingMessage } from 'node:http';
import {
  ALERT_KIND_INFO,
  ALERT_KINDS,
  alertPreviewSchema,
  alertRuleInputSchema,
  alertRuleSchema,
  alertRulesSchema,
  alertSchema,
  alertsCheckSchema,
  alertsSchema,
  type Alert,
  type AlertKind,
  type AlertRule,
} from '../../api/alerts';
import { setsFor, type AccessRule, type ViewScope } from '../auth/access';
import { smallTeamRefusal, type PrivacyLens } from '../auth/privacy';
import { errorResponse, HttpError } from '../core/errors';
import type { Logger } from '../core/log';
import { json, type HttpResponse } from '../core/response';
import { canonicalEmail, readJson } from '../core/text';
import { quote } from '../http/query';
import { decodedParam, requireEditor, route, type Route } from '../http/router';
import {
  acknowledgeAlert,
  addAlertRule,
  deleteAlertRule,
  listAlerts,
  readAlert,
  readAlertRule,
  readAlertRules,
  updateAlertRule,
  type AlertRow,
  type AlertRuleRow,
  type RuleFields,
} from '../store/alerts-queries';
import type { StoreDb } from '../store/db';
import type { MappingSource } from '../teams/source';
import { UNASSIGNED, withAncestors } from '../teams/tree';
import { ruleView, type AlertChecker, type AlertWords, type RuleChoice } from './check';
import { pseudonymous } from './rules';

/** Past alerts listed at most (the most recently resolved first). */
const PAST_LIMIT = 200;

const refuse = (detail: string) => ({ allow: false as const, status: 403 as const, detail });

/** Who may call the alerts' routes, besides admins (who may call every route). */
export const ALERTS_ACCESS = {
  alerts: ((v) =>
    v.role === 'viewer'
      ? refuse('The alerts name teams and people: they are shown to managers and admins.')
      : { allow: true }) as AccessRule,
  rules: ((v) =>
    v.role === 'viewer'
      ? refuse('The alert rules are set by managers (for their teams) and admins.')
      : { allow: true }) as AccessRule,
  check: ((v) =>
    v.role === 'viewer'
      ? refuse('The alerts check is run by managers (for their teams’ rules) and admins.')
      : { allow: true }) as AccessRule,
};

export interface AlertsRoutesOptions {
  store: StoreDb;
  teams: MappingSource;
  checker: AlertChecker;
  /** Whether alerts are posted to a webhook (ALERT_WEBHOOK_URL): the page says why one is not posted. */
  webhook: boolean;
  /** Whether privacy mode shows a team for k (auth/privacy.ts `shownTeams`): the alerts of the others are left out. */
  teamShown: (team: string, k: number) => Promise<boolean>;
  signIn: boolean;
  logger: Logger;
}

const alertView = (a: AlertRow): Alert => ({
  id: a.id,
  ruleId: a.rule_id,
  kind: a.kind as AlertKind,
  scope: a.scope,
  key: a.key,
  summary: a.summary,
  link: a.link,
  openedDay: a.opened_day,
  openedAt: a.opened_at,
  resolvedAt: a.resolved_at,
  acknowledgedBy: a.acknowledged_by,
  acknowledgedAt: a.acknowledged_at,
  posted: Number(a.posted) === 1,
});

/**
 * Who set a rule or acknowledged an alert, as the reader may see people: in privacy mode, a reader who is not an
 * admin is told only their own email (another's names a person the mode does not name).
 */
const whoFor = (scope: ViewScope | undefined, email: string | null) =>
  !scope?.privacy || (email !== null && canonicalEmail(email) === scope.email) ? email : null;

/** An alert as the reader is shown it: in privacy mode, a person-day alert names the person by their pseudonym. */
function shownTo(scope: ViewScope | undefined, a: AlertRow): Alert {
  const v = { ...alertView(a), acknowledgedBy: whoFor(scope, a.acknowledged_by) };
  return scope?.privacy ? pseudonymous(v, scope.privacy.name) : v;
}

const idOf = (match: readonly string[]) => decodedParam(match, 'The id in the path is not validly encoded.');

const ruleOut = (scope: ViewScope | undefined, r: AlertRuleRow): AlertRule => ({
  ...ruleView(r),
  createdBy: whoFor(scope, r.created_by),
});

/** Whether the reader may see a rule's or an alert's scope (no scope: without sign-in, everything). */
function sees(scope: ViewScope | undefined, team: string, kind?: string): boolean {
  if (!scope || scope.admin) return true;
  if (team === '') return scope.orgView && kind !== 'person-day';
  return scope.seesTeamDetails(team);
}

/** An alert a check or its preview words, as the reader is shown it (privacy mode: a person by their pseudonym). */
const wordsFor = <T extends AlertWords>(scope: ViewScope | undefined, a: T): T =>
  scope?.privacy ? pseudonymous(a, scope.privacy.name) : a;

export function createAlertsRoutes(o: AlertsRoutesOptions) {
  const { store, teams, checker } = o;

  /**
   * Privacy mode: whether a team has fewer than k members, as the gate counts them (a team the gate refuses
   * alone). Its rules are neither shown to nor set by a reader who is not an admin: what they would alert on is
   * a figure about fewer than k people.
   */
  const small = async (lens: PrivacyLens, team: string) => team !== '' && !(await o.teamShown(team, lens.minGroup));
  /** Whether the reader sets (and sees) a rule of this scope. */
  const sets = async (scope: ViewScope | undefined, team: string) =>
    setsFor(scope, team) && !(scope?.privacy && (await small(scope.privacy, team)));

  /** The rules a check or its preview reads for the reader: an admin's (and without sign-in) every one. */
  const theirs = (scope: ViewScope | undefined): RuleChoice | undefined =>
    !scope || scope.admin ? undefined : (r) => sets(scope, r.scope);

  /** The rule the body says, or a 400 naming what is wrong. */
  function parseRule(body: unknown): RuleFields {
    const b = (body ?? {}) as Record<string, unknown>;
    if (typeof b.kind !== 'string' || !(ALERT_KINDS as readonly string[]).includes(b.kind))
      throw new HttpError(400, `"kind" must be one of ${ALERT_KINDS.map((k) => `"${k}"`).join(', ')}.`);
    const kind = b.kind as AlertKind;
    const info = ALERT_KIND_INFO[kind];
    const scope = typeof b.scope === 'string' ? b.scope.trim() : b.scope === undefined ? '' : null;
    if (scope === null) throw new HttpError(400, '"scope" must be a team’s path, or "" for the organization.');
    const known = new Set(['', ...withAncestors(teams.current().mapping?.teams ?? []), UNASSIGNED]);
    if (!known.has(scope)) throw new HttpError(400, `No team is called ${quote(scope)} in the mapping in force.`);
    if (info.orgOnly && scope !== '')
      throw new HttpError(400, `A “${info.label}” rule is for the organization: the sync is the organization’s.`);
    let threshold: number | null = null;
    if (info.threshold) {
      const t = info.threshold;
      // NaN fails both comparisons, and no infinity is within the bounds.
      if (typeof b.threshold !== 'number' || !(b.threshold >= t.min && b.threshold <= t.max))
        throw new HttpError(400, `"threshold" (${t.label.toLowerCase()}) must be a number from ${t.min} to ${t.max}.`);
      threshold = b.threshold;
    } else if (b.threshold !== undefined && b.threshold !== null)
      throw new HttpError(400, `A “${info.label}” rule takes no threshold.`);
    if (b.enabled !== undefined && typeof b.enabled !== 'boolean')
      throw new HttpError(400, '"enabled" must be true or false.');
    return { kind, scope, threshold, enabled: b.enabled !== false };
  }

  /** A change of the rules: refused without sign-in from elsewhere than the machine itself. */
  const writer = (req: IncomingMessage) =>
    requireEditor(req, o.signIn, 'the alert rules', 'elsewhere, sign-in makes admins and managers able to');

  async function saveRule(req: IncomingMessage, scope: ViewScope | undefined, id?: string): Promise<HttpResponse> {
    writer(req);
    const fields = parseRule(
      await readJson(req, 64 * 1024, {
        unsupported: 'Send the rule as JSON: {"kind": "budget-spent", "scope": "", "threshold": 80}.',
        tooLarge: 'The rule is larger than 64 KB.',
        invalid: 'The body is not valid JSON: send {"kind": "…", "scope": "…", "threshold": N}.',
      }),
    );
    const old = id === undefined ? undefined : await readAlertRule(store.db, id);
    if (id !== undefined && (!old || !(await sets(scope, old.scope)))) return errorResponse(404, 'No such alert rule.');
    if (!setsFor(scope, fields.scope))
      return errorResponse(403, 'You set alert rules for your teams and their sub-teams; an admin sets the others.');
    const lens = scope?.privacy;
    if (lens && (await small(lens, fields.scope)))
      return errorResponse(403, `${smallTeamRefusal(fields.scope, lens.minGroup)} Its alert rules are set by admins.`);
    const same = (await readAlertRules(store.db)).find(
      (r) => r.id !== id && r.kind === fields.kind && r.scope === fields.scope,
    );
    if (same)
      return errorResponse(
        400,
        `${fields.scope === '' ? 'The organization' : quote(fields.scope)} has a “${ALERT_KIND_INFO[fields.kind as AlertKind].label}” rule already: change that one.`,
      );
    if (id === undefined) {
      const row = await addAlertRule(store.db, fields, scope?.email ?? null);
      o.logger.info('alert rule added', { kind: row.kind });
      return json(201, ruleOut(scope, row));
    }
    await updateAlertRule(store.db, id, fields);
    return json(200, ruleOut(scope, (await readAlertRule(store.db, id))!));
  }

  const ruleId = /^\/api\/alert-rules\/([^/]+)$/;
  const routes: Route[] = [
    route({
      method: 'GET',
      path: '/api/alerts',
      access: ALERTS_ACCESS.alerts,
      what: 'the alerts',
      response: alertsSchema,
      handle: async ({ scope }) => {
        const { open, past } = await listAlerts(store.db, PAST_LIMIT);
        // Privacy mode: a team of fewer than k members is not shown alone, its alerts with it.
        const lens = scope?.privacy;
        const hidden = new Set<string>();
        if (lens)
          for (const t of new Set([...open, ...past].map((a) => a.scope))) if (await small(lens, t)) hidden.add(t);
        const mine = (l: AlertRow[]) =>
          l.filter((a) => sees(scope, a.scope, a.kind) && !hidden.has(a.scope)).map((a) => shownTo(scope, a));
        return json(200, { open: mine(open), past: mine(past), webhook: o.webhook });
      },
    }),
    route({
      method: 'POST',
      path: /^\/api\/alerts\/([^/]+)\/ack$/,
      label: '/api/alerts/:id/ack',
      access: ALERTS_ACCESS.alerts,
      what: 'the acknowledgement',
      body: 'none',
      response: alertSchema,
      handle: async ({ req, match, scope }) => {
        writer(req);
        const id = idOf(match);
        const a = await readAlert(store.db, id);
        if (!a || !sees(scope, a.scope, a.kind) || (scope?.privacy && (await small(scope.privacy, a.scope))))
          return errorResponse(404, 'No such alert.');
        await acknowledgeAlert(store.db, id, scope?.email ?? '');
        return json(200, shownTo(scope, (await readAlert(store.db, id))!));
      },
    }),
    route({
      method: 'POST',
      path: '/api/alerts/check',
      access: ALERTS_ACCESS.check,
      what: 'the alerts check',
      body: 'none',
      response: alertsCheckSchema,
      handle: async ({ req, scope }) => {
        writer(req);
        const r = await checker.check({ only: theirs(scope) });
        return json(200, {
          ...r,
          opened: r.opened.map((a) => wordsFor(scope, a)),
          resolved: r.resolved.map((a) => wordsFor(scope, a)),
        });
      },
    }),
    route({
      method: 'GET',
      path: '/api/alerts/preview',
      access: ALERTS_ACCESS.rules,
      what: 'the alerts preview',
      response: alertPreviewSchema,
      handle: async ({ scope }) => {
        const p = await checker.preview(theirs(scope));
        return json(200, {
          day: p.day,
          rules: p.rules.map((r) => ({
            ...r,
            holding: r.holding.map((a) => wordsFor(scope, a)),
            resolving: r.resolving.map((a) => wordsFor(scope, a)),
          })),
          webhook: o.webhook,
        });
      },
    }),
    route({
      method: 'GET',
      path: '/api/alert-rules',
      access: ALERTS_ACCESS.rules,
      what: 'the alert rules',
      response: alertRulesSchema,
      handle: async ({ scope }) => {
        const all = await readAlertRules(store.db);
        const shown = await Promise.all(all.map((r) => sets(scope, r.scope)));
        return json(200, { rules: all.filter((_, i) => shown[i]).map((r) => ruleOut(scope, r)) });
      },
    }),
    route({
      method: 'POST',
      path: '/api/alert-rules',
      access: ALERTS_ACCESS.rules,
      what: 'the alert rule',
      body: alertRuleInputSchema,
      response: { status: 201, schema: alertRuleSchema },
      handle: ({ req, scope }) => saveRule(req, scope),
    }),
    route({
      method: 'PUT',
      path: ruleId,
      label: '/api/alert-rules/:id',
      access: ALERTS_ACCESS.rules,
      what: 'the alert rule',
      body: alertRuleInputSchema,
      response: alertRuleSchema,
      handle: ({ req, scope, match }) => saveRule(req, scope, idOf(match)),
    }),
    route({
      method: 'DELETE',
      path: ruleId,
      label: '/api/alert-rules/:id',
      access: ALERTS_ACCESS.rules,
      what: 'the alert rule',
      response: { status: 204 },
      handle: async ({ req, scope, match }) => {
        writer(req);
        const id = idOf(match);
        const old = await readAlertRule(store.db, id);
        if (!old || !(await sets(scope, old.scope))) return errorResponse(404, 'No such alert rule.');
        await deleteAlertRule(store.db, id);
        return { status: 204, headers: {}, body: '' };
      },
    }),
  ];
  return { routes };
}
