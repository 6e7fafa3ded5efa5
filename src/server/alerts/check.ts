/**
 * The alerts' check: the rules read from the store, the figures of the latest day, the pure evaluation
 * (rules.ts), then the alerts opened and resolved in the store and the open ones not yet posted sent to the
 * webhook. Stored first (unposted), posted, then marked: a crash in between leaves them to the next check, and
 * a check run twice for the same day opens nothing twice. Replicas sharing a store check one at a time.
 * The webhook's channel is told what a reader who is not an admin is (privacy mode, PSEUDONYMIZE=1): people by
 * pseudonym, and no alert of a team of fewer than k members.
 */
import type { TeamSpendRow } from '../../api/spend';
import type { AlertKind } from '../../api/alerts';
import type { ReadinessReport } from '../../api/schemas';
import { addDays, HISTORY_START, maxDay, type Day, type DayRange } from '../../lib/dates';
import { SPIKE_WINDOW, weekSpikes } from '../analytics/insights';
import { weekTo, type FiguresRunner } from '../analytics/figures';
import type { Analytics } from '../analytics/engine';
import type { ChannelView } from '../auth/privacy';
import { errorText, type Logger } from '../core/log';
import { postWebhook, type PostOptions } from '../digest/digest';
import {
  applyAlertChanges,
  newestUsersDay,
  openAlerts,
  readAlertRules,
  markPosted,
  unpostedAlerts,
  type AlertRuleRow,
} from '../store/alerts-queries';
import type { StoreDb } from '../store/db';
import type { MappingSource } from '../teams/source';
import {
  evaluate,
  holds,
  pseudonymous,
  type Figures,
  type Holding,
  type RepoReports,
  type RuleView,
  type ScopeFigures,
} from './rules';
import { alertMessage, type WebhookFormat } from './webhook';

/** Spikes named at most per rule and day. */
const MAX_SPIKES = 100;

export const ruleView = (r: AlertRuleRow): RuleView => ({
  id: r.id,
  kind: r.kind as AlertKind,
  scope: r.scope,
  threshold: r.threshold === null ? null : Number(r.threshold),
  enabled: Number(r.enabled) === 1,
});

export interface FiguresSources {
  store: StoreDb;
  analytics: Promise<Analytics>;
  /** The figures runner (analytics/figures.ts): the week's active people. */
  runner: Promise<FiguresRunner>;
  teams: MappingSource;
  latestDay: () => Day;
  /** Fills the `/users` days of a range from the service first (what is already stored is not asked again). */
  fillUsers: (r: DayRange) => Promise<void>;
  budgetStates: () => Promise<{ currency: string; rows: TeamSpendRow[] }>;
  /**
   * The stored readiness reports of the repositories the teams own (none: every repository), oldest first, each
   * under its repository's key: the readiness routes' selection (readiness/routes.ts).
   */
  readiness: (teams: readonly string[]) => Promise<{ reports: readonly { key: string; report: ReadinessReport }[] }>;
  /** A scope's goal and its progress to the latest day (server/goals), or null when it has none; without it, unknown. */
  goal?: (scope: string) => Promise<ScopeFigures['goal']>;
  logger: Logger;
}

/** Reads the figures the rules need from the store and the analytics engine; a figure that fails is left out. */
export function storeFigures(s: FiguresSources): (rules: readonly RuleView[]) => Promise<Figures> {
  const attempt = async <T>(what: string, fn: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await fn();
    } catch (e) {
      s.logger.error('alerts: a figure could not be read; its rules wait for the next check', {
        figure: what,
        error: errorText(e),
      });
      return undefined;
    }
  };
  return async (all) => {
    const rules = all.filter((r) => r.enabled);
    const day = s.latestDay();
    const scopes = new Map<string, ScopeFigures>();
    const at = (scope: string) => scopes.get(scope) ?? scopes.set(scope, {}).get(scope)!;
    const of = (...kinds: AlertKind[]) => [...new Set(rules.filter((r) => kinds.includes(r.kind)).map((r) => r.scope))];
    const figures: Figures = { day, scopes };

    const budgetScopes = of('budget-spent', 'budget-forecast');
    if (budgetScopes.length > 0) {
      const b = await attempt('budgets', s.budgetStates);
      if (b)
        for (const scope of budgetScopes) {
          const row = b.rows.find((r) => r.team === scope);
          const st = row?.month.budget;
          at(scope).budget =
            row && st
              ? {
                  budget: st.budget,
                  monthToDate: row.month.monthToDate,
                  forecastHigh: row.month.forecast?.high ?? null,
                  currency: b.currency,
                }
              : null;
        }
    }

    const activeScopes = of('active-drop');
    const spikeScopes = of('person-day');
    if (activeScopes.length + spikeScopes.length > 0) {
      // What the store lacks of the five weeks read is asked for first; without the service, the store's days are read.
      await attempt('people’s days', () =>
        s.fillUsers({ start: maxDay(HISTORY_START, addDays(day, -(SPIKE_WINDOW + 13))), end: day }),
      );
      const a = await attempt('the analytics copy', () => s.analytics);
      const runner = await attempt('the figures runner', () => s.runner);
      const mapping = s.teams.current().mapping;
      const { week, before } = weekTo(day);
      // The week's active people against the week before's, as the highlights count them (a team with its sub-teams).
      const weekOver = (by: 'total' | 'team') =>
        runner!.ask({ mapping, measures: ['active'], range: week, compare: before, by, scope: { people: null } });
      if (runner && activeScopes.includes('')) {
        const total = await attempt('active people', () => weekOver('total'));
        const row = total?.rows[0];
        if (row) at('').active = { before: row.previous?.active ?? 0, now: row.current.active ?? 0 };
      }
      const teamScopes = activeScopes.filter((t) => t !== '');
      if (runner && mapping && teamScopes.length > 0) {
        const teams = await attempt('active people by team', () => weekOver('team'));
        if (teams) {
          const byTeam = new Map(teams.rows.map((r) => [r.key, r]));
          for (const t of teamScopes) {
            const r = byTeam.get(t);
            if (r) at(t).active = { before: r.previous?.active ?? 0, now: r.current.active ?? 0 };
          }
        }
      }
      for (const scope of spikeScopes) {
        if (!a || (scope !== '' && !mapping)) continue;
        const sp = await attempt('spikes', () =>
          weekSpikes(a, mapping, scope === '' ? [] : [scope], { start: day, end: day }, MAX_SPIKES),
        );
        if (sp) at(scope).spikes = sp.top;
      }
    }

    // The readiness rules read each scope's repositories: the organization's every one, a team's those its sub-tree
    // owns (Unassigned: those no team owns), as the readiness page of that scope lists them.
    for (const scope of of('readiness-drop', 'criterion-failing', 'readiness-stale')) {
      const sel = await attempt('readiness reports', () => s.readiness(scope === '' ? [] : [scope]));
      if (!sel) continue;
      const byRepo = new Map<string, RepoReports['reports'][number][]>();
      for (const r of sel.reports) {
        const list = byRepo.get(r.key);
        if (list) list.push(r.report);
        else byRepo.set(r.key, [r.report]);
      }
      at(scope).repos = [...byRepo].map(([key, reports]) => ({ key, reports }));
    }

    for (const scope of of('goal-off-course')) {
      const g = s.goal && (await attempt('the goal’s progress', () => s.goal!(scope)));
      if (g !== undefined) at(scope).goal = g;
    }

    if (of('no-data').length > 0)
      figures.newestDataDay = await attempt('the newest day stored', () => newestUsersDay(s.store.db));
    return figures;
  };
}

export interface CheckerOptions {
  store: StoreDb;
  figures: (rules: readonly RuleView[]) => Promise<Figures>;
  webhook: { url: URL; format: WebhookFormat } | undefined;
  publicUrl: URL;
  logger: Logger;
  /** The posts' retries (the digest's by default). */
  post?: PostOptions;
  /**
   * What the webhook's channel is told (privacy mode, PSEUDONYMIZE=1): people by pseudonym, and no alert of a team
   * privacy mode does not show (`hidden`: under k members, or one a small group is the difference of).
   */
  channel?: ChannelView & { hidden: (team: string) => Promise<boolean> };
}

/** An alert as a check or a preview gives it: its rule's kind and scope, what it is about, its words and link. */
export interface AlertWords extends Holding {
  kind: AlertKind;
  scope: string;
}

export interface CheckResult {
  day: Day;
  /** Alerts opened (or, dry, that would open). */
  opened: AlertWords[];
  /** Alerts resolved (or, dry, that would resolve). */
  resolved: (AlertWords & { id: string })[];
  /** Alerts the webhook took in this check (earlier ones that had failed included). */
  posted: number;
  /** Open alerts still waiting for the webhook (it failed, or there is none: the next check tries again). */
  unposted: number;
  /** Alerts kept from the webhook in this check: privacy mode's, of a team of fewer than k members. */
  withheld: number;
}

/** What one rule would do if checked now. */
export interface RulePreview {
  ruleId: string;
  /** Whether its figures could be read: when not, a check leaves its alerts as they are. */
  known: boolean;
  /** What its condition holds for now: each an alert that would open, or one open already (`openId`). */
  holding: (AlertWords & { openId: string | null })[];
  /** Its open alerts that would resolve (the condition cleared, or the rule is off). */
  resolving: (AlertWords & { id: string })[];
}

/**
 * Which rules a check or a preview reads (a manager's: those of their teams); without it, every rule, and the
 * open alerts of rules no longer there resolve.
 */
export type RuleChoice = (rule: RuleView) => boolean | Promise<boolean>;

const words = (o: { kind: string; scope: string; key: string; summary: string; link: string }): AlertWords => ({
  kind: o.kind as AlertKind,
  scope: o.scope,
  key: o.key,
  summary: o.summary,
  link: o.link,
});

export function createAlertChecker(o: CheckerOptions) {
  const { store, logger } = o;
  let queue: Promise<unknown> = Promise.resolve();

  async function evaluateNow(only?: RuleChoice) {
    const all = (await readAlertRules(store.db)).map(ruleView);
    const chosen = only ? await Promise.all(all.map(only)) : [];
    const rules = only ? all.filter((_, i) => chosen[i]) : all;
    const ids = new Set(rules.map((r) => r.id));
    const figures = await o.figures(rules);
    // A choice of rules resolves their alerts only: another's are its rule's business.
    const open = (await openAlerts(store.db)).filter((a) => !only || ids.has(a.rule_id));
    return {
      rules,
      figures,
      open,
      changes: evaluate(
        rules,
        figures,
        open.map((a) => ({ id: a.id, ruleId: a.rule_id, scope: a.scope, key: a.key })),
      ),
    };
  }

  /**
   * Posts the open alerts the webhook has not taken; gives how many it took, how many still wait and how many
   * were kept from it. The channel is no admin: in privacy mode an alert of a team of fewer than k members is
   * not posted at all (its team, kind and figure all describe fewer than k people); it is marked as the
   * webhook's part done, and the alerts page shows it to admins. With `rules`, only those rules' alerts are posted.
   */
  async function postPending(
    rules?: ReadonlySet<string>,
  ): Promise<{ posted: number; unposted: number; withheld: number }> {
    const pending = (await unpostedAlerts(store.db)).filter((a) => !rules || rules.has(a.rule_id));
    if (!o.webhook || pending.length === 0) return { posted: 0, unposted: o.webhook ? 0 : pending.length, withheld: 0 };
    const c = o.channel;
    const kept = new Set<string>();
    if (c) for (const a of pending) if (a.scope !== '' && (await c.hidden(a.scope))) kept.add(a.id);
    if (kept.size > 0) {
      await markPosted(store.db, [...kept]);
      logger.info('alerts kept from the webhook: privacy mode', { alerts: kept.size });
    }
    const told = pending.filter((a) => !kept.has(a.id));
    if (told.length === 0) return { posted: 0, unposted: 0, withheld: kept.size };
    const message = alertMessage(
      c ? told.map((a) => pseudonymous(a, c.lens.name)) : told,
      o.publicUrl,
      o.webhook.format,
    );
    const ok = await postWebhook(o.webhook.url, c ? c.told(message) : message, logger, {
      ...o.post,
      what: 'alert',
      next: 'the alerts are posted again after the next check',
    });
    if (!ok) return { posted: 0, unposted: told.length, withheld: kept.size };
    await markPosted(
      store.db,
      told.map((a) => a.id),
    );
    return { posted: told.length, unposted: 0, withheld: kept.size };
  }

  /**
   * Checks the rules now (`only`: those chosen): with `dryRun`, says what would open and resolve, and stores and
   * posts nothing.
   */
  async function check({ dryRun = false, only }: { dryRun?: boolean; only?: RuleChoice } = {}): Promise<CheckResult> {
    if (dryRun) {
      const { figures, open, changes } = await evaluateNow(only);
      return {
        day: figures.day,
        opened: changes.open.map(words),
        resolved: open.filter((a) => changes.resolve.includes(a.id)).map((a) => ({ id: a.id, ...words(a) })),
        posted: 0,
        unposted: 0,
        withheld: 0,
      };
    }
    // One check at a time in this process (the store's lock keeps the other replicas out).
    const mine = queue.then(() => store.exclusive('alerts', () => checkNow(only)));
    queue = mine.catch(() => undefined);
    return mine;
  }

  async function checkNow(only?: RuleChoice): Promise<CheckResult> {
    const { rules, figures, open, changes } = await evaluateNow(only);
    const opened = await applyAlertChanges(store.db, figures.day, changes.open, changes.resolve);
    if (opened.length > 0 || changes.resolve.length > 0)
      logger.info('alerts checked', { day: figures.day, opened: opened.length, resolved: changes.resolve.length });
    const p = await postPending(only && new Set(rules.map((r) => r.id)));
    return {
      day: figures.day,
      opened: opened.map(words),
      resolved: open.filter((a) => changes.resolve.includes(a.id)).map((a) => ({ id: a.id, ...words(a) })),
      ...p,
    };
  }

  /**
   * What each rule (`only`: those chosen) would do if checked now, read as a check reads it: nothing stored,
   * nothing posted.
   */
  async function preview(only?: RuleChoice): Promise<{ day: Day; rules: RulePreview[] }> {
    const { rules, figures, open, changes } = await evaluateNow(only);
    const resolving = new Set(changes.resolve);
    return {
      day: figures.day,
      rules: rules.map((r) => {
        const now = r.enabled ? holds(r, figures) : [];
        const mine = open.filter((a) => a.rule_id === r.id);
        return {
          ruleId: r.id,
          known: now !== undefined,
          holding: (now ?? []).map((h) => ({
            ...words({ ...h, kind: r.kind, scope: r.scope }),
            openId: mine.find((a) => a.scope === r.scope && a.key === h.key)?.id ?? null,
          })),
          resolving: mine.filter((a) => resolving.has(a.id)).map((a) => ({ id: a.id, ...words(a) })),
        };
      }),
    };
  }

  return { check, preview };
}

export type AlertChecker = ReturnType<typeof createAlertChecker>;
