/**
 * The dashboard server's alerts (with a store): rules set per team or for the organization, checked after
 * each daily sync, and the alerts they opened, each open until its condition clears.
 *
 *   GET    /api/alerts                  open and past alerts the reader may see, open first
 *   POST   /api/alerts/:id/ack          acknowledges an alert
 *   GET    /api/alerts/preview          what each of the reader's rules would open and resolve now (nothing kept)
 *   POST   /api/alerts/check            checks the rules now: an admin's every rule, a manager's their teams' (without
 *                                       sign-in, from the machine itself)
 *   GET    /api/alert-rules             the rules the reader may see (admins: all; managers: their teams')
 *   POST   /api/alert-rules {kind, scope, threshold, enabled}   adds a rule
 *   PUT    /api/alert-rules/:id {kind, scope, threshold, enabled}   changes one
 *   DELETE /api/alert-rules/:id         removes one (its open alerts resolve)
 */
import * as z from 'zod/mini';
import { READINESS_STALE_DAYS } from './readiness';

export const ALERT_PATHS = {
  alerts: '/api/alerts',
  check: '/api/alerts/check',
  preview: '/api/alerts/preview',
  rules: '/api/alert-rules',
} as const;

export const ALERT_KINDS = [
  'budget-spent',
  'budget-forecast',
  'active-drop',
  'person-day',
  'no-data',
  'readiness-drop',
  'criterion-failing',
  'readiness-stale',
  'goal-off-course',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** Each kind in words, and what its threshold N is (null: the kind takes none). */
export const ALERT_KIND_INFO: Record<
  AlertKind,
  {
    label: string;
    /** What an alert of the kind is, without its rule's threshold (the alerts list). */
    name: string;
    /** The rules screen offers `default` as N when the kind is chosen. */
    threshold: { label: string; min: number; max: number; default?: number } | null;
    orgOnly?: boolean;
  }
> = {
  'budget-spent': {
    label: 'Month to date passes N % of the budget',
    name: 'Budget share passed',
    threshold: { label: 'Percent of the budget', min: 1, max: 1000, default: 90 },
  },
  'budget-forecast': {
    label: 'The forecast’s high end passes the budget',
    name: 'Forecast above the budget',
    threshold: null,
  },
  'active-drop': {
    label: 'Active people fall N % week over week',
    name: 'Active people fell week over week',
    threshold: { label: 'Percent fall', min: 1, max: 100 },
  },
  'person-day': { label: 'A person’s day far above their usual', name: 'A day far above usual', threshold: null },
  'no-data': {
    label: 'No data synced for N days',
    name: 'No data synced',
    threshold: { label: 'Days without data', min: 1, max: 365 },
    orgOnly: true,
  },
  // The readiness kinds are about the repositories a scope's teams own (the mapping's `repos`), by their reports.
  'readiness-drop': {
    label: 'A repository’s readiness level drops',
    name: 'Readiness level dropped',
    threshold: null,
  },
  'criterion-failing': {
    label: 'A readiness criterion starts failing',
    name: 'Readiness criterion newly failing',
    threshold: null,
  },
  'readiness-stale': {
    label: 'A readiness report older than N days',
    name: 'Readiness report stale',
    threshold: { label: 'Days since the report', min: 1, max: 365, default: READINESS_STALE_DAYS },
  },
  // The scope's own goal (server/goals): open while its projection, or once its week is over its value, misses it.
  'goal-off-course': {
    label: 'The goal’s projection misses its target',
    name: 'Goal off course',
    threshold: null,
  },
};

export const alertRuleSchema = z.object({
  id: z.string(),
  kind: z.enum(ALERT_KINDS),
  /** '' for the organization, else a team's path. */
  scope: z.string(),
  threshold: z.nullable(z.number()),
  enabled: z.boolean(),
  /** Who set it; in privacy mode a reader who is not an admin is told only their own (else null). */
  createdBy: z.nullable(z.string()),
});
export type AlertRule = z.infer<typeof alertRuleSchema>;
/** What `POST /api/alert-rules` and `PUT /api/alert-rules/:id` take. */
export const alertRuleInputSchema = z.object({
  kind: z.enum(ALERT_KINDS),
  /** '' for the organization, else a team's path. */
  scope: z.string(),
  /** The kind's N (ALERT_KIND_INFO), or null for a kind that takes none. */
  threshold: z.optional(z.nullable(z.number())),
  enabled: z.optional(z.boolean()),
});

export const alertRulesSchema = z.object({ rules: z.array(alertRuleSchema) });

export const alertSchema = z.object({
  id: z.string(),
  ruleId: z.string(),
  kind: z.enum(ALERT_KINDS),
  scope: z.string(),
  /**
   * What the alert is about within its scope: a person's id for the person-day rule, a repository's key
   * (`host/owner/name`) for the readiness rules (with `#` and the criterion's id for a criterion newly failing),
   * else ''.
   */
  key: z.string(),
  summary: z.string(),
  /** The dashboard page that shows it: an app path with its query (`/teams/Eng?start=…`). */
  link: z.string(),
  openedDay: z.string(),
  openedAt: z.string(),
  resolvedAt: z.nullable(z.string()),
  /** Who acknowledged it; in privacy mode a reader who is not an admin is told only their own (else null). */
  acknowledgedBy: z.nullable(z.string()),
  acknowledgedAt: z.nullable(z.string()),
  posted: z.boolean(),
});
export type Alert = z.infer<typeof alertSchema>;
export const alertsSchema = z.object({
  open: z.array(alertSchema),
  past: z.array(alertSchema),
  /** Whether the server posts alerts to a webhook (ALERT_WEBHOOK_URL). */
  webhook: z.optional(z.boolean()),
});
export type Alerts = z.infer<typeof alertsSchema>;

/** An alert as a check or its preview words it: its rule's kind and scope, what it is about, its summary and link. */
const alertWordsSchema = z.object({
  kind: z.enum(ALERT_KINDS),
  scope: z.string(),
  key: z.string(),
  summary: z.string(),
  link: z.string(),
});

/** `GET /api/alerts/preview`: what each of the reader's rules would do if checked now; nothing is stored or posted. */
export const alertPreviewSchema = z.object({
  /** The day the rules are checked on: the latest complete day. */
  day: z.string(),
  rules: z.array(
    z.object({
      ruleId: z.string(),
      /** Whether the rule's figures could be read now: when not, a check leaves its alerts as they are. */
      known: z.boolean(),
      /** What its condition holds for now: each an alert that would open, or one already open (`openId`). */
      holding: z.array(z.extend(alertWordsSchema, { openId: z.nullable(z.string()) })),
      /** Its open alerts that would resolve. */
      resolving: z.array(z.extend(alertWordsSchema, { id: z.string() })),
    }),
  ),
  /** Whether the server posts alerts to a webhook (ALERT_WEBHOOK_URL). */
  webhook: z.boolean(),
});
export type AlertPreview = z.infer<typeof alertPreviewSchema>;

/** What `POST /api/alerts/check` answers: the alerts the check opened and resolved, and what the webhook took. */
export const alertsCheckSchema = z.object({
  day: z.string(),
  opened: z.array(alertWordsSchema),
  resolved: z.array(z.extend(alertWordsSchema, { id: z.string() })),
  /** Alerts the webhook took (earlier ones that had failed included). */
  posted: z.number(),
  /** Open alerts still waiting for the webhook (it failed, or there is none). */
  unposted: z.number(),
  /** Alerts kept from the webhook: privacy mode's, of a team under its smallest group. */
  withheld: z.number(),
});
export type CheckResult = z.infer<typeof alertsCheckSchema>;
