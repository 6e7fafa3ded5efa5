/**
 * The dashboard's HTTP handler, and the composition root of the server: the
 * core (responses, security headers), the upstream proxy, and the embedded
 * demo service when no upstream is configured. It is the one module that
 * knows both the proxy and the demo. The same handler runs under `npm start`
 * and inside Vite's dev server.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import * as z from 'zod/mini';
import { clientConfigSchema, syncStatusSchema, type ClientConfig } from '../api/schemas';
import pkg from '../../package.json' with { type: 'json' };
import { HISTORY_START, lastDays, previousPeriod, yesterdayUtc } from '../lib/dates';
import { DEFAULT_DAYS } from '../lib/url-state';
import type { ServerConfig } from './config';
import { stripBase } from './core/base-path';
import { errorResponse, incomingRequestId, peerInContext, withRequest } from './core/errors';
import { peerOf } from './core/forwarded';
import { createHostGuard } from './core/hosts';
import { createMetrics, type Metrics } from './core/metrics';
import { renderPage } from './page';
import { createProbes } from './probes';
import { errorText, silentLogger, type Logger } from './core/log';
import { json, send, type Answer, type HttpResponse } from './core/response';
import { setSecurityHeaders } from './core/security';
import { embeddedOrigin } from './demo/embedded';
import { createDemoService } from './demo/service';
import { writeDemoResponse } from './demo/transport';
import type { StoreDb } from './store/db';
import { dataVersion } from './store/queries';
import { storeRevocations } from './store/revocations';
import type { StoreConfig } from './store/config';
import { httpOrigin } from './upstream/client';
import { demoTeamsCsv } from './demo/teams';
import { ACCESS, MCP_PATH } from './auth/access';
import { createMcpEndpoint } from './mcp/endpoint';
import { createAuth } from './auth/routes';
import { bearerTokenOf } from './auth/tokens';
import { TOKENS_NEED_SIGN_IN } from '../api/api-tokens';
import { createTokensRoutes } from './tokens/routes';
import { filePricesSource, NO_PRICES } from './spend/source';
import { createQuiet } from './core/quiet';
import { emailOf } from './store/teams-queries';
import { inSelection, UNASSIGNED } from './teams/tree';
import { openApiDocument } from './http/openapi';
import { createRouter, route, type Route } from './http/router';
import { createStoreFeatures } from './features';
import type { PostOptions } from './digest/digest';
import { mappingInForce, placeOf } from './teams/source';
import type { Origin } from './upstream/proxy';
import { createServiceRoutes } from './service/routes';
import { answerCache } from './core/cache';
import type { DemoResponse } from './demo/faults';

type Handler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

export { openAppStore, upstreamIdentity } from './app-store';
import { createStoreSide } from './app-store';

interface AppOptions {
  logger?: Logger;
  /** Where the app counts what Prometheus scrapes (one a process, made by main.ts); else its own. */
  metrics?: Metrics;
  /** An open store (see `openAppStore`): the documented paths are answered from it. */
  store?: StoreDb;
  storeConfig?: StoreConfig;
  /** The alerts' posts' retries (tests shorten the waits). */
  alertPost?: PostOptions;
}

export function createApp(config: ServerConfig, opts: AppOptions = {}) {
  const logger = opts.logger ?? silentLogger;
  const metrics = opts.metrics ?? createMetrics();
  const hosts = createHostGuard({ host: config.host, publicUrl: config.publicUrl, allowedHosts: config.allowedHosts });
  // With a store in front, the store is the cache: the demo keeps no bodies of its own (each span is asked once).
  const demo = config.demo
    ? createDemoService(opts.store ? { ...config.demo, cacheChars: 0 } : config.demo)
    : undefined;
  const latestDay = () => (demo ? demo.latestDay() : yesterdayUtc());

  // The demo's answers may carry transport faults that only its own writer carries out.
  const service: Origin<HttpResponse> = demo ? embeddedOrigin(demo, config.upstreamTimeoutMs) : httpOrigin(config);
  // Every answer of the service counted by endpoint and status, retries apart.
  const origin: Origin<HttpResponse> = async (target) => {
    const answer = await service(target);
    metrics.upstream(target, target.path, answer);
    return answer;
  };
  // The demo's answers may cut their body short on purpose: only its own writer carries that out.
  const toAnswer = (r: HttpResponse): Answer =>
    demo && 'fault' in r && r.fault === 'truncated'
      ? { status: r.status, write: (res, head, encoding) => writeDemoResponse(res, r as DemoResponse, head, encoding) }
      : r;
  // The server's one cache of answers: the routes' kept answers and the store's answers to the service's paths.
  const answers = answerCache();

  /** Whether readers are being answered: what is made ahead of them waits for none to be. */
  const quiet = createQuiet();
  // The price list: spend beside credits (and budgets) only with one.
  const prices = config.pricesFile ? filePricesSource(config.pricesFile, logger) : NO_PRICES;
  // With a store: the sync, the store's answers, the analytics copy and the users pages (app-store.ts).
  const side = opts.store
    ? createStoreSide({
        store: opts.store,
        storeConfig: opts.storeConfig,
        config,
        origin,
        logger,
        latestDay,
        answers,
        quiet,
        prices,
        place: () => place(),
        features: () => features,
        ahead: () => readyAfterCopy(),
      })
    : undefined;
  const { sync, fromStore, scheduler, analytics, usersRoutes, status } = side ?? {};

  // The team mapping: TEAMS_FILE, else one uploaded and kept in the store, else the demo organization's own.
  const { teams, editable } = mappingInForce({
    file: config.teamsFile,
    store: opts.store,
    logger,
    demo: demo && (() => demoTeamsCsv(demo.people().users, config.demo!.seed, demo.people().readiness.repos)),
    // Built ahead below, once it is known to be needed.
    buildAhead: false,
  });
  const place = placeOf(teams);
  /** Whether a person is in any of the teams (sub-teams included) by the mapping in force. */
  const inTeamsOf = (chosen: readonly string[]) => (userId: string, email: string | null) =>
    inSelection(place()?.of(userId, email).team ?? UNASSIGNED, chosen);
  const teamsReady = editable?.ready ?? Promise.resolve();
  // The demo's mapping takes a moment to build (about 1 s at 5,000 people): a server that syncs in the background
  // builds it ahead, not on a reader's first page, but only when no mapping was kept in the store, and after the
  // demo's organization, so that neither holds the server's first seconds.
  if (demo && opts.storeConfig?.background) void Promise.all([teamsReady, demo.ready()]).then(() => teams.current());
  // The features a store makes possible (server/features.ts): teams, spend, highlights, readiness, the digest.
  const features: ReturnType<typeof createStoreFeatures> | undefined =
    opts.store && analytics && sync
      ? createStoreFeatures({
          store: opts.store,
          sync,
          analytics,
          teams,
          editable,
          prices,
          latestDay,
          logger,
          config,
          alertPost: opts.alertPost,
          recordMembershipMs: opts.storeConfig?.background ? 60_000 : undefined,
          // Each person's team and access, and who is in grace, for the mapping saved: the users pages read them. A
          // save while the copy first catches up (which that making waits for) is answered after 10 s all the same.
          mappingChanged: async () => {
            const made = usersRoutes
              ?.ahead()
              .catch((e: unknown) =>
                logger.error('making what the users pages read for the mapping failed', { error: errorText(e) }),
              );
            await Promise.race([made, delay(10_000, undefined, { ref: false })]);
          },
        })
      : undefined;
  /**
   * What a reader's first page needs beside the copy, made before `/readyz` first says ready: after the mapping and,
   * for the demo, its organization (which its own mapping is built from), never before them.
   */
  async function readyAfterCopy() {
    if (!features?.teams) return;
    await Promise.all([teamsReady, demo?.ready()]);
    await features.teams.warm();
    await usersRoutes?.ahead();
    // The presets' users tables too (their making beside a restarted server's first pages doubled them), each once
    // no reader is being answered, and the teams summary of the default range, the first page a manager opens there
    // (only once its days are stored: it never waits for a walk). A server asked without pause meanwhile, or slow to
    // make them, says it is ready after 15 s all the same.
    const teamsFirst = async () => {
      const r = lastDays(DEFAULT_DAYS, latestDay());
      const both = { start: previousPeriod(r)?.start ?? r.start, end: r.end };
      const stored = await Promise.all([
        usersRoutes!.stored(both),
        prices.current().prices ? sync!.daysStored('tokens', '', both) : true,
      ]);
      if (stored.every(Boolean)) await features!.teams.summaryAhead(r);
    };
    await Promise.race([Promise.all([usersRoutes?.warm(), teamsFirst()]), delay(15_000, undefined, { ref: false })]);
  }

  const clientConfig = (): ClientConfig => ({
    demo: demo !== undefined,
    keyRequired: demo === undefined && config.apiKey === undefined,
    signIn: config.auth !== undefined,
    teams: opts.store !== undefined,
    currency: (opts.store && prices.current().prices?.currency) || null,
    historyStart: HISTORY_START,
    latestDay: latestDay(),
    basePath: config.basePath,
    holidays: config.holidays,
    ...(config.auth?.privacy && { privacyMinGroup: config.auth.privacy.minGroup }),
  });

  /** `/api/sync`: what the store holds and what is being filled. */
  const syncRoute = route({
    method: 'GET',
    path: '/api/sync',
    access: ACCESS.everyone,
    what: 'what its store holds',
    response: z.union([syncStatusSchema, z.object({ store: z.null(), reason: z.string() })]),
    async handle({ scope }) {
      if (!status) return json(200, { store: null, reason: 'Each user brings a key: nothing is stored.' });
      // A reader kept to their teams (RESTRICT_ORG_VIEW) learns what is being filled, not the store's counts.
      if (scope?.orgView === false)
        return json(200, { store: opts.store!.engine, running: [...sync!.activity.running.values()] });
      return json(200, await status());
    },
  });
  /** The store's routes read the mapping: an uploaded one is read from the store once at start, and waited for. */
  const afterMapping = (r: Route): Route => ({
    ...r,
    run: async (...args) => {
      await teamsReady;
      return r.run(...args);
    },
  });
  /** `/api/openapi.json`: the table's routes (this one too) as an OpenAPI 3.1 document, made once. */
  let openApi: HttpResponse | undefined;
  const openApiRoute = route({
    method: 'GET',
    path: '/api/openapi.json',
    access: ACCESS.everyone,
    what: 'the API’s description',
    response: { file: 'application/json' },
    handle: async () =>
      (openApi ??= json(
        200,
        openApiDocument(routes, { version: pkg.version, basePath: config.basePath, signIn: config.auth !== undefined }),
      )),
  });
  // The dashboard's own endpoints (src/server/http): each route's query, who may call it, and its handler.
  const routes: Route[] = [
    openApiRoute,
    route({
      method: 'GET',
      path: '/api/config',
      access: ACCESS.everyone,
      what: 'the configuration',
      response: clientConfigSchema,
      handle: async () => json(200, clientConfig()),
    }),
    syncRoute,
    // The service's documented paths: answered from the store when it can, else asked of the service.
    ...createServiceRoutes({
      origin,
      apiKey: config.apiKey,
      retries: config.upstreamRetries,
      fromStore,
      toAnswer,
    }),
    ...[usersRoutes, ...(features?.routes ?? [])].flatMap((r) => r?.routes ?? []).map(afterMapping),
    // Personal API tokens' screen (server/tokens); the gate checks the tokens themselves.
    ...createTokensRoutes({ store: opts.store, signIn: config.auth !== undefined, logger }).routes,
  ];
  const router = createRouter(routes, {
    logger,
    cache: answers,
    signIn: config.auth !== undefined,
    context: () => ({ latest: latestDay(), mapping: teams.current().mapping }),
    // What the kept answers (a route's `memo`) come from: the store's days and budgets, the copy made of them,
    // the mapping, the price list and the latest day.
    version:
      opts.store && analytics
        ? async () =>
            JSON.stringify([
              await dataVersion(opts.store!.db),
              (await analytics!).generation(),
              place()?.version ?? '',
              prices.current().loadedAt,
              latestDay(),
            ])
        : undefined,
  });
  metrics.labelRoutes(router.labelOf);

  // Sign-in: every request passes the gate first (src/server/auth).
  const auth = config.auth
    ? createAuth({
        cfg: config.auth,
        logger,
        // A sign-out holds on every replica sharing the store.
        revoked: opts.store && storeRevocations(opts.store.db),
        managers: () => teams.current().mapping?.managers,
        inTeams: async (viewer, userId) =>
          inTeamsOf(viewer.teams)(userId, opts.store ? await emailOf(opts.store, userId) : null),
        peopleOf: (viewer) => inTeamsOf(viewer.teams),
        ruleFor: router.ruleFor,
        tokens: opts.store?.db,
        emailOf: async (userId) => (opts.store ? emailOf(opts.store, userId) : null),
        userIdOf: async (email) => (features ? features.teams.userIdOf(email) : null),
        ...(features && {
          teamShown: async (team: string, k: number) => (await teamsReady, features.teams.teamShown(team, k)),
        }),
      })
    : undefined;

  /** Set when the server is told to stop: `/readyz` then sends readers elsewhere. */
  let draining = false;
  const probes = createProbes({
    metrics,
    metricsToken: config.metricsToken,
    latestDay,
    store: opts.store,
    engine: sync,
    mappingLoaded: () => editable?.loaded() ?? true,
    // Only a server that catches its copy up at start waits for it (one with a store: each reader bringing a key has
    // no copy); elsewhere each read catches up its own days.
    copyCaughtUp: opts.storeConfig?.background ? side?.ready : undefined,
    stopping: () => draining,
    pricesFile: config.pricesFile,
    prices,
  });

  const handler: Handler = (req, res, next) =>
    withRequest(req.headers['x-request-id'], peerOf(req, config.trustProxy), () => {
      // A proxy's id goes back on every answer; one of ours is on the answers that needed one (errors).
      const id = incomingRequestId();
      if (id) res.setHeader('x-request-id', id);
      answer(req, res, next);
    });

  const answer: Handler = (req, res, next) => {
    metrics.observe(req, res);
    setSecurityHeaders(res, config.production);
    // Under BASE_PATH the prefix is taken off once, here: every route below sees the path it has at the root.
    const target = req.url ?? '/';
    const inner = stripBase(config.basePath, target);
    if (inner !== null) req.url = inner;
    // The probes answer at the root as well as under the base (an orchestrator probes the pod, not the proxy).
    if (probes(req, res)) return;
    if (inner === null)
      return send(res, errorResponse(404, `The dashboard is served under ${config.basePath}/ (BASE_PATH).`));
    // The base without its slash (`/dashboard`) is sent to the home page's address, the router's (`/dashboard/`).
    if (config.basePath && !target.startsWith(`${config.basePath}/`))
      return send(res, { status: 308, headers: { location: `${config.basePath}${inner}` }, body: '' });
    if (!hosts.hostAllowed(req, peerInContext()?.host))
      return send(
        res,
        errorResponse(421, 'This server does not answer for that host name; an operator can add it to ALLOWED_HOSTS.'),
      );
    if (req.method !== 'GET' && req.method !== 'HEAD' && !hosts.originAllowed(req))
      return send(res, errorResponse(403, 'Changes are accepted only from the dashboard’s own pages.'));
    // No id, cursor or parameter holds a NUL (PostgreSQL's text cannot): said before the gate or a route asks the store.
    if (/%00/i.test(target) || target.includes('\0'))
      return send(
        res,
        errorResponse(400, 'The address holds a NUL character (%00): no path or parameter may contain one.'),
      );
    if (!auth) {
      // Without sign-in there is no person for a token to act as: refused, and never passed on to the service.
      if (bearerTokenOf(req) !== undefined) return send(res, errorResponse(401, TOKENS_NEED_SIGN_IN));
      return serve(req, res, next);
    }
    auth.gate(req, res).then(
      (go) => go && serve(req, res, next),
      (e: unknown) => {
        logger.error('sign-in failure', { error: errorText(e) });
        if (!res.headersSent)
          send(res, errorResponse(502, 'The sign-in could not reach the identity provider; try again shortly.'));
      },
    );
  };

  // The MCP server (server/mcp): its tools ask the routes above in-process, through this same handler.
  const mcp = createMcpEndpoint({
    dispatch: (req, res) => handler(req, res, () => send(res, errorResponse(404, 'No such endpoint.'))),
    basePath: config.basePath,
    signIn: config.auth !== undefined,
    logger,
  });

  const serve: Handler = (req, res, next) => {
    const started = performance.now();
    const url = req.url ?? '/';
    const client = peerInContext()?.address;
    if (url.startsWith('/api/') || url.startsWith(MCP_PATH)) res.on('close', quiet.enter());
    res.on('finish', () => {
      if (url.startsWith('/api/') || url.startsWith(MCP_PATH)) {
        logger.info('request', {
          method: req.method,
          path: url.split('?')[0],
          status: res.statusCode,
          ms: Math.round(performance.now() - started),
          requestId: res.getHeader('x-request-id'),
          client,
        });
      }
    });
    // A path that only names an endpoint once cleaned up (a backslash, a dot segment) names none: a proxy in front
    // that cleans paths differently must not be talked into another endpoint than the one it checked.
    if (url.startsWith('/api/') && /\\|\/(\.|%2e){1,2}(\/|$)/i.test(url.split('?')[0]!))
      return send(res, errorResponse(404, 'No such endpoint.'), req.method === 'HEAD');
    const path = new URL(url, 'http://dashboard.invalid').pathname;
    if (path === MCP_PATH) return void mcp.handle(req, res);
    if (router.owns(path)) return void router.handle(req, res);
    if (url.startsWith('/api/')) return send(res, errorResponse(404, 'No such endpoint.'), req.method === 'HEAD');
    next();
  };

  const renderIndex = (html: string, url = '/') => renderPage(html, url, clientConfig());

  /** Stops what the app runs beside its answers (the users tables' upkeep, the analytics engine). */
  const close = async () => {
    usersRoutes?.stop();
    features?.stop();
    await (await analytics?.catch(() => undefined))?.close();
  };

  const drain = () => void (draining = true);

  const digest = features?.digest;
  const alerts = features?.alerts;
  return {
    handler,
    routes,
    demo,
    clientConfig,
    renderIndex,
    scheduler,
    sync,
    teams,
    prices,
    digest,
    alerts,
    drain,
    close,
  };
}
