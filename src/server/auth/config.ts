/**
 * Sign-in settings, read once from the environment. Sign-in is on when `OIDC_ISSUER` is set; then the
 * client's id and secret, the dashboard's public address and a session secret are required, and a
 * half-configured server refuses to start naming what is missing.
 */
import { readBasePath } from '../core/base-path';
import { dashboardUrl, intSetting, type CoreConfig } from '../core/config';
import { canonicalEmail } from '../core/text';
import { readPrivacyConfig, type PrivacyConfig } from './privacy';

export interface AuthConfig {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  /**
   * Where the dashboard is reached: PUBLIC_URL's origin and the base path, ending in `/`
   * (`https://corp.example/dashboard/`); the redirect is `auth/callback` under it. Without PUBLIC_URL (allowed
   * with TRUST_PROXY only), each request's: the scheme and host a trusted proxy forwarded.
   */
  publicUrl: URL | undefined;
  /** The path the dashboard is served under (BASE_PATH): '' at the root, else like `/dashboard`. */
  basePath: string;
  /** At least 32 characters; the session cookie's key is derived from it. */
  sessionSecret: string;
  /**
   * Emails (as `canonicalEmail` gives them: trimmed, ASCII letters lowercased, nothing else folded) that see
   * everything and edit the team mapping.
   */
  admins: ReadonlySet<string>;
  /** Email domains (ASCII letters lowercased, as the emails are) whose people may sign in and see organization-wide figures. */
  allowedDomains: ReadonlySet<string>;
  allowedEmails: ReadonlySet<string>;
  /** Managers see only their teams' figures, not the organization's. */
  restrictOrgView: boolean;
  /** Emails are replaced with stable pseudonyms for everyone but admins. */
  pseudonymize: boolean;
  /** Privacy mode (PRIVACY_MIN_GROUP, src/server/auth/privacy.ts); undefined when off. */
  privacy: PrivacyConfig | undefined;
  /** How long a session lasts after sign-in. */
  sessionSeconds: number;
  /**
   * `OIDC_ALLOW_UNVERIFIED_EMAIL=1`: take the provider's email when it does not say whether it is
   * verified (no `email_verified` claim in the ID token or at userinfo), for a provider that never
   * sends the claim and whose accounts' emails it controls itself. Off by default: the email must come
   * with `email_verified: true`, since anyone could claim an admin's address at a provider that lets
   * people type their own. An email said unverified (`false`) is refused either way.
   */
  allowUnverifiedEmail: boolean;
  /** How many requests a minute each personal API token may make (API_TOKEN_RATE), on each replica. */
  tokenRatePerMinute: number;
}

/** A list of emails (or domains) as sign-in compares them (`canonicalEmail`), never lowercased in full Unicode. */
const list = (v: string | undefined) =>
  new Set(
    (v ?? '')
      .split(/[,\s;]+/)
      .map(canonicalEmail)
      .filter(Boolean),
  );

function url(name: string, raw: string): URL {
  try {
    const u = new URL(raw);
    if (u.protocol === 'https:' || u.protocol === 'http:') return u;
  } catch {
    /* reported below */
  }
  throw new Error(`${name} must be an absolute http(s) URL, got ${JSON.stringify(raw.slice(0, 80))}`);
}

/** The sign-in settings, or undefined when sign-in is not configured (no `OIDC_ISSUER`). */
export function readAuthConfig(env: NodeJS.ProcessEnv = process.env): AuthConfig | undefined {
  if (!env.OIDC_ISSUER) {
    // Without sign-in there are no roles: nobody could be told apart from an admin, or be shown their own page.
    if (env.PRIVACY_MIN_GROUP)
      throw new Error(
        'PRIVACY_MIN_GROUP needs sign-in (OIDC_ISSUER): privacy mode decides what managers see and admins see, and without sign-in there are no roles',
      );
    const stray = ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'SESSION_SECRET', 'ADMIN_EMAILS'].filter((k) => env[k]);
    if (stray.length > 0)
      throw new Error(`${stray.join(', ')} set without OIDC_ISSUER: set OIDC_ISSUER to turn sign-in on`);
    return undefined;
  }
  // The public address is PUBLIC_URL, or what a trusted proxy in front forwards with each request.
  const needed = ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', ...(env.TRUST_PROXY ? [] : ['PUBLIC_URL']), 'SESSION_SECRET'];
  const missing = needed.filter((k) => !env[k]);
  if (missing.length > 0) throw new Error(`Sign-in (OIDC_ISSUER) needs ${missing.join(', ')} as well`);
  const secret = env.SESSION_SECRET!;
  if (secret.length < 32)
    throw new Error('SESSION_SECRET must be at least 32 characters (e.g. `openssl rand -base64 32`)');
  const hours = Number(env.SESSION_HOURS ?? 12);
  if (!Number.isFinite(hours) || hours <= 0 || hours > 24 * 30)
    throw new Error('SESSION_HOURS must be a number of hours from 0 to 720');
  const basePath = readBasePath(env);
  return {
    issuer: url('OIDC_ISSUER', env.OIDC_ISSUER),
    clientId: env.OIDC_CLIENT_ID!,
    clientSecret: env.OIDC_CLIENT_SECRET!,
    publicUrl: env.PUBLIC_URL ? dashboardUrl(url('PUBLIC_URL', env.PUBLIC_URL), basePath) : undefined,
    basePath,
    sessionSecret: secret,
    admins: list(env.ADMIN_EMAILS),
    allowedDomains: new Set([...list(env.ALLOWED_DOMAINS)].map((d) => d.replace(/^@/, ''))),
    allowedEmails: list(env.ALLOWED_EMAILS),
    restrictOrgView: env.RESTRICT_ORG_VIEW === '1',
    pseudonymize: env.PSEUDONYMIZE === '1',
    privacy: readPrivacyConfig(env, secret),
    sessionSeconds: Math.round(hours * 3600),
    allowUnverifiedEmail: env.OIDC_ALLOW_UNVERIFIED_EMAIL === '1',
    tokenRatePerMinute: intSetting(env, 'API_TOKEN_RATE', 120, 1, 100_000),
  };
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);
export const isLoopbackHost = (host: string): boolean => LOOPBACK_HOSTS.has(host) || /^127\./.test(host);

/**
 * Why the server must not start, or undefined: a server that holds `API_KEY` and listens beyond
 * loopback shows every user's email and usage to whoever reaches it, so without sign-in it refuses
 * unless told `ALLOW_ANONYMOUS=1`.
 */
export function anonymousRefusal(
  core: CoreConfig,
  auth: AuthConfig | undefined,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (auth || !core.apiKey || isLoopbackHost(core.host) || env.ALLOW_ANONYMOUS === '1') return undefined;
  return (
    `Refusing to start: this server holds API_KEY and listens on ${core.host}, beyond this machine, without sign-in, ` +
    'so anyone who reaches it would see every user’s email and usage. Configure sign-in (OIDC_ISSUER, OIDC_CLIENT_ID, ' +
    'OIDC_CLIENT_SECRET, PUBLIC_URL, SESSION_SECRET), or listen on 127.0.0.1 (HOST), or set ALLOW_ANONYMOUS=1 to run it open on purpose.'
  );
}
