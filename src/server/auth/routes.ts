/**
 * OpenID Connect sign-in (authorization code with PKCE, through openid-client) and the gate every
 * request passes when sign-in is configured: pages send an unknown reader to the provider, the API
 * answers 401, and each API request is decided by `access.ts` for the signed-in viewer, or for the
 * person whose personal API token it carries (`tokens.ts`). Every sign-in, refusal and per-user view
 * is written to the log as one JSON line (who, what, when, and which token), never a token or a cookie.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Kysely } from 'kysely';
import * as client from 'openid-client';
import { errorResponse, faultResponse, peerInContext } from '../core/errors';
import { errorText, type Logger } from '../core/log';
import { json, send, type HttpResponse } from '../core/response';
import type { Schema } from '../store/schema';
import { FRICTION_PATH } from '../../api/friction';
import {
  actAs,
  actingAs,
  canonicalEmail,
  decide,
  foldedInto,
  MCP_PATH,
  scopeOfViewer,
  setScope,
  viewerOf,
  type AccessRule,
  type Managers,
  type PersonRows,
  type Viewer,
} from './access';
import { cursorSealer } from './cursor';
import { smallTeamRefusal } from './privacy';
import { bearerTokenOf, createTokenCheck, tokenRefusal, type TokenCheck } from './tokens';
import type { AuthConfig } from './config';
import { createSessions, safeReturnTo, type Revocations } from './session';

export interface AuthOptions {
  cfg: AuthConfig;
  logger: Logger;
  /** The team mapping's managers, as it stands when asked. */
  managers: () => Managers | undefined;
  /** Whether a manager may see this user (their teams' people), from the store's email of the user. */
  inTeams: (viewer: Viewer, userId: string) => Promise<boolean>;
  /** A manager's people, as the mapping stands (for the rows of the service's per-user answers). */
  peopleOf: (viewer: Viewer) => (userId: string, email: string | null) => boolean;
  /** The email the store knows for a user id (a viewer may open their own page only). */
  emailOf: (userId: string) => Promise<string | null>;
  /** The user id the store knows for an email (the reader's own page), or null. */
  userIdOf: (email: string) => Promise<string | null>;
  /** The sessions signed out of; give the store's for a sign-out to hold on every replica (default: this process's). */
  revoked?: Revocations;
  /** The access rule of the dashboard's own route a request would reach (its route table's), if any. */
  ruleFor: (method: string, path: string) => AccessRule | undefined;
  /** The store, where personal API tokens are kept; without one, tokens are refused. */
  tokens?: Kysely<Schema>;
  /** Whether privacy mode shows a team for k (auth/privacy.ts `shownTeams`); none without teams. */
  teamShown?: (team: string, k: number) => Promise<boolean>;
}

/** The routes that name people to an admin in privacy mode: each such view is written to the audit log. */
const NAMED_PEOPLE = new Set([
  '/api/users',
  '/api/users.csv',
  '/api/export/person-days',
  '/api/teams/top-users',
  '/api/highlights',
]);

const html = (status: number, title: string, body: string) => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  body: `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.5"><h1 style="font-size:1.25rem">${title}</h1>${body}</body></html>`,
});

const safeDecode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** A redirect that is not kept (sign-in's steps, and where a reader goes to sign in). */
const redirect = (res: ServerResponse, to: string) => {
  res.statusCode = 302;
  res.setHeader('location', to);
  res.setHeader('cache-control', 'no-store');
  res.end();
};

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function createAuth(opts: AuthOptions) {
  const { cfg, logger } = opts;
  /**
   * Where the reader reached the dashboard: PUBLIC_URL (and the base path); without it, the scheme and host a
   * trusted proxy forwarded (TRUST_PROXY, core/forwarded.ts), else the request's own `Host` over http.
   */
  const dashboardAt = (req: IncomingMessage): URL => {
    if (cfg.publicUrl) return cfg.publicUrl;
    const peer = peerInContext();
    return new URL(`${cfg.basePath}/`, `${peer?.proto ?? 'http'}://${peer?.host ?? req.headers.host ?? 'localhost'}`);
  };
  const sessions = createSessions(cfg, opts.revoked, (req) => dashboardAt(req).protocol === 'https:');
  const cursors = cursorSealer(cfg.sessionSecret);
  // Under the base path: the redirect (`PUBLIC_URL` + BASE_PATH + `/auth/callback`), this server's own links and
  // redirects, and where a reader returns after sign-in (`returnTo` is a path of the app, below the base).
  const redirectUri = (req: IncomingMessage) => new URL('auth/callback', dashboardAt(req)).href;
  const at = (path: string) => `${cfg.basePath}${path}`;
  // Each line names the client's address (behind a trusted proxy, the one it forwarded).
  const audit = (event: string, fields: Record<string, unknown>) =>
    logger.info('audit', { event, ...fields, client: peerInContext()?.address });

  // Discovery once, on first use; a failure is tried again by the next sign-in.
  let discovered: Promise<client.Configuration> | undefined;
  const configuration = () => {
    const loopback =
      cfg.issuer.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(cfg.issuer.hostname);
    discovered ??= client
      .discovery(
        cfg.issuer,
        cfg.clientId,
        cfg.clientSecret,
        undefined,
        loopback ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((e: unknown) => {
        discovered = undefined;
        throw e;
      });
    return discovered;
  };

  async function login(req: IncomingMessage, res: ServerResponse, url: URL) {
    const config = await configuration();
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    await sessions.keepState(res, {
      state,
      nonce,
      codeVerifier,
      returnTo: safeReturnTo(url.searchParams.get('returnTo')),
    });
    const to = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri(req),
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    redirect(res, to.href);
  }

  async function callback(req: IncomingMessage, res: ServerResponse, url: URL) {
    const kept = await sessions.takeState(req, res);
    const again = `<p><a href="${at('/auth/login')}">Sign in again</a></p>`;
    /** A sign-in refused: why, in the audit log; the reader's page (`status`, `title`, `body`). */
    const refuse = (why: Record<string, unknown>, status: number, title: string, body: string) => {
      audit('sign-in refused', why);
      send(res, html(status, title, body));
    };
    if (!kept) {
      const body = `<p>It expired, was already used, or was started in another browser.</p>${again}`;
      const reason = 'no sign-in under way (expired, used, or started elsewhere)';
      return refuse({ reason }, 400, 'This sign-in is not valid any more', body);
    }
    let claims: { sub?: string; email?: unknown; email_verified?: unknown; name?: unknown } | undefined;
    try {
      const config = await configuration();
      // The address the provider redirected to (its query holds the code): openid-client sends it, without the
      // query, as the redirect_uri of the code's exchange.
      const tokens = await client.authorizationCodeGrant(config, new URL(`${redirectUri(req)}${url.search}`), {
        pkceCodeVerifier: kept.codeVerifier,
        expectedState: kept.state,
        expectedNonce: kept.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
      // Providers that keep the ID token small give the email (or whether it is verified) at the userinfo endpoint only.
      if (claims && (typeof claims.email !== 'string' || claims.email_verified === undefined)) {
        claims = { ...claims, ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub!)) };
      }
    } catch (e) {
      const body = `<p>The identity provider’s answer was refused.</p>${again}`;
      return refuse({ reason: errorText(e) }, 400, 'The sign-in did not complete', body);
    }
    const email = typeof claims?.email === 'string' ? claims.email : null;
    const said = claims?.email_verified;
    if (!email || !(said === true || (said === undefined && cfg.allowUnverifiedEmail))) {
      const reason = !email
        ? 'no email from the identity provider'
        : said === undefined
          ? 'the identity provider did not say the email is verified (OIDC_ALLOW_UNVERIFIED_EMAIL=1 if it never does)'
          : 'email not verified';
      const body = '<p>The identity provider gave no verified email for this account.</p>';
      return refuse({ reason, sub: claims?.sub }, 403, 'No verified email', body);
    }
    const name = typeof claims?.name === 'string' ? claims.name : null;
    const folded = foldedInto(email, cfg, opts.managers());
    const who = canonicalEmail(email);
    if (folded) {
      const reason = `the address matches ${folded}, who may sign in here, only by Unicode folding`;
      const body = `<p>${escape(email)} matches an address allowed here only once its characters are folded (Unicode compatibility forms or case), so it is refused. Sign in with the address exactly as it is allowed.</p>`;
      return refuse({ who, reason }, 403, 'This address is not the one allowed here', body);
    }
    const viewer = viewerOf({ email, name }, cfg, opts.managers());
    if (!viewer) {
      const reason = 'not an admin, a manager in the mapping, or an allowed email';
      const body = `<p>${escape(email)} may not sign in here. Ask an administrator of the dashboard to allow your email.</p>`;
      return refuse({ who, reason }, 403, 'This dashboard is not open to you', body);
    }
    await sessions.start(res, { email: viewer.email, name });
    audit('sign-in', { who: viewer.email, role: viewer.role, teams: viewer.teams });
    redirect(res, at(kept.returnTo));
  }

  /**
   * Whether a state-changing request comes from the dashboard's own pages: its Origin is the dashboard's
   * origin (never compared with the request's own Host). Browsers send an Origin on every POST, and under
   * the pages' `Referrer-Policy: same-origin` their own requests carry their real one; a request with none,
   * or `null`, is refused.
   */
  const fromOwnPages = (req: IncomingMessage): boolean => req.headers.origin === dashboardAt(req).origin;

  /** The rows of the service's per-person answers a reader who is not an admin gets (routes shape them to it). */
  const rowsOf = (viewer: Viewer): PersonRows => ({
    sees:
      viewer.role === 'manager'
        ? opts.peopleOf(viewer)
        : (_: string, email: string | null) => canonicalEmail(email ?? '') === viewer.email,
    seal: cursors.seal,
    open: cursors.open,
  });

  /** The token each reader a token made came with (the MCP endpoint's requests carry the same reader). */
  const byToken = new WeakMap<Viewer, string>();
  /** A personal API token's check (auth/tokens.ts): the same for every path that takes one. */
  const checkToken = createTokenCheck({
    cfg,
    db: opts.tokens,
    managers: opts.managers,
    onTouchFailed: (e) => logger.error('noting an API token’s last use failed', { error: errorText(e) }),
  });

  /** The signed-in viewer of a request, or null (no valid session, or no longer allowed). */
  async function viewerOfRequest(req: IncomingMessage): Promise<Viewer | null> {
    const s = await sessions.read(req);
    return s ? viewerOf(s, cfg, opts.managers()) : null;
  }

  /**
   * Handles `/auth/…`, and decides every other request: true when it may go on (with `req.url`
   * limited to the viewer's teams where the rules say so), false when the answer was written here.
   */
  async function gate(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? '/', 'http://dashboard.invalid');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    /** An answer written here: the request goes no further. */
    const answered = (r: HttpResponse) => (send(res, r), false);
    // A personal API token is read here and goes no further: never to the service, nor to anything after the gate.
    const token = bearerTokenOf(req);
    if (token !== undefined) delete req.headers.authorization;
    if (path === '/auth/login') return (void (await login(req, res, url)), false);
    if (path === '/auth/callback') return (void (await callback(req, res, url)), false);
    if (path === '/auth/logout') {
      if (method !== 'POST') return answered(errorResponse(405, 'Sign out with POST.', { allow: 'POST' }));
      if (!fromOwnPages(req)) {
        audit('refused', { path, reason: 'sign-out from another site', origin: req.headers.origin });
        return answered(errorResponse(403, 'Sign out from the dashboard’s own pages.'));
      }
      try {
        const who = await sessions.end(req, res);
        if (who) audit('sign-out', { who });
      } catch (e) {
        return answered(faultResponse(e, logger, 'sign you out'));
      }
      const signIn = `<p><a href="${at('/auth/login')}">Sign in</a></p>`;
      return answered(html(200, 'Signed out', `<p>You are signed out of the dashboard.</p>${signIn}`));
    }
    if (path === '/api/health') return true;
    // The app's code and styles hold no data: served to anyone, so the sign-in page can load them. Nothing under
    // /api/ is an asset, whatever its name ends with (`/api/users/<id>.js` is a person's page).
    if (!path.startsWith('/api/') && /^\/assets\/|\.(js|css|ico|svg|png|woff2?|webmanifest|txt)$/.test(path))
      return true;

    // The MCP endpoint is asked as the API is; the requests its tools make in-process come as its caller.
    const api = path.startsWith('/api/') || path === MCP_PATH;
    let viewer: Viewer | null | undefined = actingAs(req);
    if (viewer === undefined && token !== undefined) {
      let checked: TokenCheck;
      try {
        checked = await checkToken(token);
      } catch (e) {
        return answered(faultResponse(e, logger, 'check your API token'));
      }
      if (!checked.ok) {
        audit('refused', { ...checked.why, path });
        return answered(checked.answer);
      }
      viewer = checked.viewer;
      byToken.set(viewer, checked.id);
      const refusal = tokenRefusal(method, path);
      if (refusal) {
        audit('refused', {
          who: viewer.email,
          role: viewer.role,
          path,
          credential: `api token ${checked.id}`,
          detail: refusal,
        });
        return answered(errorResponse(403, refusal));
      }
    }
    try {
      viewer ??= await viewerOfRequest(req);
    } catch (e) {
      return answered(faultResponse(e, logger, 'check your session'));
    }
    // The token a reader came with, on their request and on those the MCP endpoint makes as them.
    const id = viewer ? byToken.get(viewer) : undefined;
    const credential = id === undefined ? {} : { credential: `api token ${id}` };
    /** An audit line about what the reader asks for, naming the token when it came with one. */
    const seen = (event: string, fields: Record<string, unknown>) => audit(event, { ...fields, ...credential });
    if (!viewer) {
      if (api) return answered(errorResponse(401, 'Sign in first: open the dashboard to be sent to the sign-in page.'));
      redirect(res, at(`/auth/login?returnTo=${encodeURIComponent(url.pathname + url.search)}`));
      return false;
    }
    if (path === '/api/me') {
      const scope = scopeOfViewer(viewer, cfg, rowsOf(viewer));
      return answered(json(200, { ...viewer, userId: await opts.userIdOf(viewer.email), orgView: scope.orgView }));
    }
    if (!api) return true;
    actAs(req, viewer);
    setScope(req, scopeOfViewer(viewer, cfg, rowsOf(viewer)));
    const d = decide(viewer, cfg, method, path, url.searchParams, opts.ruleFor(method, path));
    if (d.allow === false) {
      seen('refused', { who: viewer.email, role: viewer.role, path, detail: d.detail });
      return answered(errorResponse(d.status, d.detail));
    }
    // Privacy mode: a person's page describes one person; it is shown to admins and to the person themself.
    const privacy = viewer.role === 'admin' ? undefined : cfg.privacy;
    if (d.allow === 'user') {
      const own = async () => canonicalEmail((await opts.emailOf(d.userId)) ?? '') === viewer.email;
      const may =
        viewer.role === 'admin' ||
        (viewer.role === 'viewer' || privacy ? await own() : await opts.inTeams(viewer, d.userId));
      if (!may) {
        seen('refused', { who: viewer.email, role: viewer.role, path, user: d.userId });
        return answered(
          errorResponse(
            403,
            privacy
              ? `Privacy mode (PRIVACY_MIN_GROUP=${privacy.minGroup}): a person’s page is shown to admins and to the person themself; their figures are in the users table under a pseudonym.`
              : 'This person’s page is shown to their managers and admins.',
          ),
        );
      }
      seen('view user', { who: viewer.email, role: viewer.role, user: d.userId });
      return true;
    }
    if ('teams' in d) {
      url.searchParams.delete('team');
      for (const t of d.teams) url.searchParams.append('team', t);
      req.url = `${url.pathname}?${url.searchParams}`;
    }
    // Privacy mode: a team not shown (fewer than k members, or singling out fewer than k beside its parent) is not
    // shown on its own (readiness is about repositories, not people; its friction is about people).
    if (privacy && opts.teamShown && (!path.startsWith('/api/readiness') || path === FRICTION_PATH)) {
      for (const team of new URLSearchParams(req.url?.split('?')[1] ?? '').getAll('team')) {
        if (await opts.teamShown(team, privacy.minGroup)) continue;
        const detail = smallTeamRefusal(team, privacy.minGroup);
        seen('refused', { who: viewer.email, role: viewer.role, path, detail });
        return answered(errorResponse(403, detail));
      }
    }
    // Privacy mode: each admin view of named people (a person's page, the users table or CSV, the top users, the
    // highlights) is written to the audit log.
    if (cfg.privacy && viewer.role === 'admin') {
      const page = /^\/api\/users\/([^/]+)$/.exec(path)?.[1];
      const person =
        page !== undefined
          ? safeDecode(page)
          : path === '/api/spend' || path === '/api/figures'
            ? url.searchParams.get('user')
            : null;
      if (person !== null) seen('view user', { who: viewer.email, role: viewer.role, path, user: person });
      else if (NAMED_PEOPLE.has(path) || (path === '/api/figures' && url.searchParams.get('by') === 'person'))
        seen('view people', { who: viewer.email, role: viewer.role, path, teams: url.searchParams.getAll('team') });
    }
    if (path === '/api/users.csv' || path === '/api/export/person-days')
      seen(path === '/api/users.csv' ? 'export users' : 'export person-days', {
        who: viewer.email,
        role: viewer.role,
        teams: url.searchParams.getAll('team'),
      });
    return true;
  }

  return { gate, viewerOfRequest, checkToken };
}

export type Auth = ReturnType<typeof createAuth>;
