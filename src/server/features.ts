/**
 * The features a store makes possible, made once the app has its store, its sync and its analytics engine:
 * the teams pages, spend and budgets, the highlights and cohorts, readiness by team, the marks on the charts,
 * and the weekly digest built from them. app.ts serves their routes.
 */
import type { DayRange } from '../lib/dates';
import { channelView } from './auth/privacy';
import type { Analytics } from './analytics/engine';
import { createSpend } from './analytics/spend';
import { createTeamFigures } from './analytics/teams';
import { createFigures } from './analytics/figures';
import { createMemberHistory } from './analytics/member-history';
import type { ServerConfig } from './config';
import { errorText, type Logger } from './core/log';
import { createAlertChecker, storeFigures } from './alerts/check';
import { createAlertsRoutes } from './alerts/routes';
import { webhookFormat } from './alerts/webhook';
import { buildDigest, toSlack, type DigestSources, type PostOptions } from './digest/digest';
import { createFiguresRoutes } from './figures/routes';
import { createInsightsRoutes } from './insights/routes';
import { createGoalsRoutes } from './goals/routes';
import { createMarksRoutes } from './marks/routes';
import { createFrictionRoutes } from './readiness/friction-routes';
import { createReadinessRoutes } from './readiness/routes';
import { createReconcileRoutes } from './reconcile/routes';
import { keptAnswers } from './analytics/kept';
import { createSpendRoutes } from './spend/routes';
import type { PricesSource } from './spend/source';
import type { StoreDb } from './store/db';
import { storedThresholds } from './store/intensity-queries';
import { storedMembership } from './store/membership-queries';
import type { SyncEngine } from './sync/engine';
import { READINESS_MAX_AGE_MS } from './sync/serve';
import { createTeamsRoutes } from './teams/routes';
import { createExportRoutes } from './users/export';
import type { EditableMappingSource, MappingSource } from './teams/source';

export interface StoreFeaturesOptions {
  store: StoreDb;
  sync: SyncEngine;
  analytics: Promise<Analytics>;
  teams: MappingSource;
  editable: EditableMappingSource | undefined;
  prices: PricesSource;
  latestDay: () => string;
  logger: Logger;
  config: Pick<ServerConfig, 'auth' | 'publicUrl' | 'alertWebhookUrl' | 'alertWebhookFormat'> &
    Partial<Pick<ServerConfig, 'onboardingGraceDays'>>;
  /** The alerts' posts' retries (the digest's by default). */
  alertPost?: PostOptions;
  /** How often the mapping in force is recorded in the members' history (none: only when a figure needs it). */
  recordMembershipMs?: number;
  /** What readers' pages read for a mapping, made once one is saved or removed here (teams/routes.ts `changed`). */
  mappingChanged?: () => Promise<void>;
}

export function createStoreFeatures(o: StoreFeaturesOptions) {
  const { store, sync: filling, analytics: engine, teams, editable, prices, latestDay, logger, config } = o;
  /** What the alerts' webhook and the digest are told of people: channels, not admins (privacy mode, PSEUDONYMIZE). */
  const channel = channelView(config.auth);
  /** Whether a channel is told nothing of a team: privacy mode does not show it (auth/privacy.ts `shownTeams`). */
  const channelHides = async (team: string) =>
    channel?.minGroup !== undefined && !(await teamsRoutes.teamShown(team, channel.minGroup));
  /** Fills a range's days from the service before a figure is computed from them. */
  const fillUsers = async (r: DayRange) => void (await filling.fillUsers(r, false));
  const fillTokens = async (r: DayRange) => void (await filling.fillDays('tokens', '', r, false));
  /** Who was in which team when, as the store records each mapping that takes effect (analytics/member-history.ts). */
  const history = engine.then((a) => createMemberHistory(a, { keeper: storedMembership(store.db), latestDay }));
  /** Every figure about people is asked of one runner (analytics/figures.ts). */
  const runner = Promise.all([engine, history]).then(([a, h]) =>
    keptAnswers(
      createFigures(a, {
        thresholds: storedThresholds(store.db),
        latestDay,
        fill: fillUsers,
        funnel: { history: h, graceDays: config.onboardingGraceDays },
      }),
      a,
    ),
  );
  const spendRoutes = createSpendRoutes({
    store,
    spend: engine.then(createSpend),
    runner,
    fill: fillTokens,
    teams,
    prices,
    latestDay,
    logger,
    signIn: config.auth !== undefined,
  });
  const insightsOptions = {
    store,
    fill: fillUsers,
    analytics: engine,
    teams,
    latestDay,
    budgetStates: () => spendRoutes.budgetStates(),
    runner,
  };
  const insightsRoutes = createInsightsRoutes(insightsOptions);
  /** The budgets a channel is told of: in privacy mode, none of a team of fewer than k members (its spend is theirs). */
  const channelBudgets = async () => {
    const b = await spendRoutes.budgetStates();
    if (!channel) return b;
    const hidden = await Promise.all(b.rows.map((r) => (r.team === '' ? false : channelHides(r.team))));
    return { ...b, rows: b.rows.filter((_, i) => !hidden[i]) };
  };
  // The digest's highlights: the budgets among them as the digest is told of them.
  const digestInsights = channel
    ? createInsightsRoutes({ ...insightsOptions, budgetStates: channelBudgets })
    : insightsRoutes;
  const readinessRoutes = createReadinessRoutes({
    store,
    source: teams,
    refresh: () => filling.syncReadiness(READINESS_MAX_AGE_MS),
  });
  const sources: DigestSources = {
    readiness: () => readinessRoutes.fixes([]),
    weekFigures: async (before, now, measures) => {
      await fillUsers({ start: before.start, end: now.end });
      const [row] = (
        await (
          await runner
        ).ask({
          mapping: teams.current().mapping,
          measures,
          range: now,
          compare: before,
          by: 'total',
          scope: { people: null },
        })
      ).rows;
      return { now: row!.current, before: row!.previous! };
    },
    latestDay,
    // The digest's readers are a channel, not admins: its people are named as a manager is shown them.
    highlights: () => digestInsights.highlights([], { fill: true, ...(channel && { privacy: channel.lens }) }),
    spend: (range) => spendRoutes.spend({ range, teams: [], user: null }),
    budgetStates: channelBudgets,
    publicUrl: config.publicUrl,
  };
  const digest = async () => {
    const message = toSlack(await buildDigest(sources), config.publicUrl);
    return channel ? channel.told(message) : message;
  };
  const teamFigures = engine.then(createTeamFigures);
  const teamsRoutes = createTeamsRoutes({
    store,
    source: teams,
    editable,
    figures: teamFigures,
    runner,
    prices: () => prices.current().prices ?? null,
    fill: (r, from) => (from === 'tokens' ? fillTokens(r) : fillUsers(r)),
    signIn: config.auth !== undefined,
    changed: o.mappingChanged,
  });
  // Goals per team (server/goals): the alerts read whether each is on course.
  const goalsRoutes = createGoalsRoutes({
    store,
    teams,
    latestDay,
    signIn: config.auth !== undefined,
    runner,
    fill: fillUsers,
  });
  // The alerts: checked after each daily sync and on demand (src/server/alerts).
  const alerts = createAlertChecker({
    store,
    figures: storeFigures({
      store,
      analytics: engine,
      runner,
      teams,
      latestDay,
      fillUsers,
      budgetStates: () => spendRoutes.budgetStates(),
      readiness: (t) => readinessRoutes.selection(t),
      // In privacy mode a band's smallest group is the channel's k, as a manager's.
      goal: (scope) =>
        goalsRoutes.progressOfScope(
          scope,
          channel?.minGroup !== undefined ? { minGroup: channel.minGroup, name: channel.lens.name } : undefined,
        ),
      logger,
    }),
    webhook: config.alertWebhookUrl && {
      url: config.alertWebhookUrl,
      format: webhookFormat(config.alertWebhookUrl, config.alertWebhookFormat),
    },
    publicUrl: config.publicUrl,
    logger,
    post: o.alertPost,
    ...(channel && { channel: { ...channel, hidden: channelHides } }),
  });
  const alertsRoutes = createAlertsRoutes({
    store,
    teams,
    checker: alerts,
    webhook: config.alertWebhookUrl !== undefined,
    teamShown: (team, k) => teamsRoutes.teamShown(team, k),
    signIn: config.auth !== undefined,
    logger,
  });
  // A mapping takes effect the day it is first recorded: within a minute of its upload or its file's change, not when
  // a figure next needs the history (the stored mapping is read first, or the fallback would be recorded over it).
  const recordMembership = () =>
    void Promise.all([history, o.editable?.ready])
      .then(([h]) => h.record(teams.current().mapping))
      .catch((e: unknown) => logger.error('recording the members’ teams failed', { error: errorText(e) }));
  const timers = o.recordMembershipMs ? [setInterval(recordMembership, o.recordMembershipMs)] : [];
  for (const t of timers) t.unref?.();

  return {
    teams: teamsRoutes,
    digest,
    /** Stops what the features run beside their answers. */
    stop: () => timers.forEach((t) => clearTimeout(t)),
    alerts,
    /** The alerts checked on what a whole sync run stored (a failure logged: the next run checks again). */
    checkAlerts: () =>
      alerts.check().then(
        () => undefined,
        (e: unknown) => logger.error('the alerts check failed', { error: errorText(e) }),
      ),
    routes: [
      teamsRoutes,
      spendRoutes,
      insightsRoutes,
      readinessRoutes,
      alertsRoutes,
      goalsRoutes,
      // Marks on the charts (server/marks).
      createMarksRoutes({
        store,
        teams,
        prices,
        latestDay,
        signIn: config.auth !== undefined,
        runner,
        fill: (r, from) => (from === 'tokens' ? fillTokens(r) : fillUsers(r)),
      }),
      // Any figure about people, as the runner answers the pages (server/figures).
      createFiguresRoutes({
        store,
        runner,
        source: teams,
        prices: () => prices.current().prices ?? null,
        fill: (r, from) => (from === 'tokens' ? fillTokens(r) : fillUsers(r)),
        latestDay,
        signIn: config.auth !== undefined,
      }),
      // The service's organization totals beside the dashboard's, each difference explained (server/reconcile).
      createReconcileRoutes({
        store,
        runner,
        source: teams,
        fillOrg: async (r) =>
          void (await Promise.all(
            (['activity', 'productivity', 'tokens'] as const).map((e) => filling.fillDays(e, '', r, false)),
          )),
        orgTokens: async (r) => (await teamFigures).organizationTokenDays(r),
      }),
      // Readiness priced in friction and delegation headroom (server/readiness/friction-routes.ts).
      createFrictionRoutes({
        runner,
        source: teams,
        selection: (t) => readinessRoutes.selection(t),
        prices: () => prices.current().prices ?? null,
        fill: (r, from) => (from === 'tokens' ? fillTokens(r) : fillUsers(r)),
      }),
      // The bulk export of the person-day facts (server/users/export.ts).
      createExportRoutes({
        store,
        engine: filling,
        analytics: engine,
        history,
        mapping: () => teams.current().mapping,
        shownTeams: (k) => teamsRoutes.shownTeams(k),
        logger,
      }),
    ],
  };
}
