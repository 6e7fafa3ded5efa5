/** The dashboard server's own settings, read once from the environment. */
import { readFileSync } from 'node:fs';
import type { Day } from '../../lib/dates';
import { parseHolidays } from '../../lib/holidays';
import { readBasePath } from './base-path';
import { readEgress, type EgressSettings } from './egress';
import { readTrustProxy, type ProxyTrust } from './forwarded';
import { urlHost } from './hosts';

export interface CoreConfig {
  port: number;
  host: string;
  /** Upstream bases; both undefined means the embedded demo service. */
  analyticsBaseUrl: URL | undefined;
  readinessBaseUrl: URL | undefined;
  /** A server-held key; it replaces whatever the browser sends and never reaches it. */
  apiKey: string | undefined;
  upstreamTimeoutMs: number;
  /** Retries of 429, 502, 503 and 504 answers (honouring Retry-After). */
  upstreamRetries: number;
  /** Upstream requests in flight at once, at most. */
  upstreamConcurrency: number;
  /** The team mapping (CSV or JSON by its extension), read again when it changes. */
  teamsFile: string | undefined;
  /** The price list (JSON, src/server/spend/prices.ts), read again when it changes; without it, credits only. */
  pricesFile: string | undefined;
  /** Where the weekly digest is posted (Slack-compatible JSON); never logged. */
  digestWebhookUrl: URL | undefined;
  /** When the digest is posted: a cron expression read in UTC (default Mondays 08:00). */
  digestSchedule: string;
  /** Where alerts are posted (ALERT_WEBHOOK_URL); never logged. */
  alertWebhookUrl: URL | undefined;
  /** The alerts' message format (ALERT_WEBHOOK_FORMAT); unset: chosen by the address (src/server/alerts/webhook.ts). */
  alertWebhookFormat: 'slack' | 'teams' | undefined;
  /** The path the dashboard is served under (BASE_PATH): '' at the root, else like `/dashboard` (core/base-path.ts). */
  basePath: string;
  /**
   * Where readers reach the dashboard, for the digest's links and sign-in (PUBLIC_URL, else the server's own
   * address): its origin and the base path, always ending in `/` (`https://corp.example/dashboard/`).
   */
  publicUrl: URL;
  /** More host names the server answers for, comma-separated (a proxy's); `*` for any (core/hosts.ts). */
  allowedHosts: string | undefined;
  /** A bearer token `/metrics` asks for, when set. */
  metricsToken: string | undefined;
  /** How long a stop (SIGTERM) waits for the answers in flight. */
  shutdownTimeoutMs: number;
  /** Which peers' `X-Forwarded-*` headers are believed (TRUST_PROXY, core/forwarded.ts); none by default. */
  trustProxy: ProxyTrust | undefined;
  /** The forward proxy outgoing requests go through (HTTPS_PROXY, HTTP_PROXY, NO_PROXY), if any. */
  egress: EgressSettings | undefined;
  production: boolean;
  /** The organization's holidays (HOLIDAYS and HOLIDAYS_FILE), UTC days: hidden with the weekends on daily charts. */
  holidays: Day[];
}

/** An absolute http(s) URL, or undefined when unset (a message names the setting, never its value). */
function httpUrl(raw: string | undefined, name: string): URL | undefined {
  if (!raw) return undefined;
  const u = URL.parse(raw);
  if (!u) throw new Error(`${name} must be an absolute http(s) URL`);
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`${name} must be an http(s) URL`);
  return u;
}

/** An upstream's base: an http(s) URL without a query, a fragment or credentials. */
function baseUrl(env: NodeJS.ProcessEnv, name: string): URL | undefined {
  const u = httpUrl(env[name], name);
  if (u && (u.search || u.hash || u.username || u.password))
    throw new Error(`${name} must not carry a query, fragment or credentials`);
  return u;
}

function webhookFormat(raw: string | undefined): 'slack' | 'teams' | undefined {
  if (!raw) return undefined;
  if (raw !== 'slack' && raw !== 'teams')
    throw new Error('ALERT_WEBHOOK_FORMAT must be "slack" or "teams" (or unset: chosen by the address)');
  return raw;
}

function publicUrl(raw: string | undefined): URL | undefined {
  if (!raw) return undefined;
  const u = URL.parse(raw);
  if (u?.protocol !== 'https:' && u?.protocol !== 'http:')
    throw new Error('PUBLIC_URL must be an absolute http(s) URL, like https://dashboard.example.com');
  return u;
}

/**
 * The dashboard's public address: PUBLIC_URL's origin and the base path. PUBLIC_URL may be given as the
 * origin alone or with the base path (`https://corp.example/dashboard`); any other path is refused, since
 * the dashboard is served under BASE_PATH and nowhere else.
 */
export function dashboardUrl(given: URL, basePath: string): URL {
  const path = given.pathname.replace(/\/$/, '');
  if (path !== '' && path !== basePath)
    throw new Error(
      `PUBLIC_URL's path (${given.pathname}) must be BASE_PATH (${basePath || '/'}): give PUBLIC_URL as the origin${basePath ? '' : ', or set BASE_PATH to serve the dashboard under that path'}`,
    );
  return new URL(`${basePath}/`, given.origin);
}

/** A whole-number setting from `lo` to `hi`, `dflt` when unset. */
export function intSetting(env: NodeJS.ProcessEnv, name: string, dflt: number, lo: number, hi: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < lo || n > hi) throw new Error(`${name} must be an integer from ${lo} to ${hi}`);
  return n;
}

/** A duration setting in milliseconds, 0 to 10 minutes. */
function millis(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const v = Number(env[name] || fallback);
  if (!Number.isInteger(v) || v < 0 || v > 600_000)
    throw new Error(`${name} must be a number of milliseconds (0–600000)`);
  return v;
}

/** HOLIDAYS (days separated by commas) and the days of HOLIDAYS_FILE, together; a bad entry stops the start, named. */
function readHolidays(env: NodeJS.ProcessEnv): Day[] {
  const listed = parseHolidays(env.HOLIDAYS ?? '', 'HOLIDAYS');
  const file = env.HOLIDAYS_FILE;
  if (!file) return listed;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`HOLIDAYS_FILE (${file}) cannot be read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  return [...new Set([...listed, ...parseHolidays(text, `HOLIDAYS_FILE (${file})`)])].sort();
}

/**
 * The host a server listening on `host` is reached at from its own machine, as it goes in a URL: a wildcard address
 * (the image's 0.0.0.0) is no address to follow, so 127.0.0.1; an IPv6 address in brackets (`http://::1:5173` is no URL).
 */
const reachedAt = (host: string) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : urlHost(host));

export function readCoreConfig(env: NodeJS.ProcessEnv = process.env): CoreConfig {
  const analyticsBaseUrl = baseUrl(env, 'ANALYTICS_BASE_URL');
  // The readiness host is often the same as the analytics one.
  const readinessBaseUrl = baseUrl(env, 'READINESS_BASE_URL') ?? analyticsBaseUrl;
  const port = Number(env.PORT || 5173);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('PORT must be a port number');
  const basePath = readBasePath(env);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    analyticsBaseUrl,
    readinessBaseUrl,
    apiKey: env.API_KEY || undefined,
    upstreamTimeoutMs: Number(env.UPSTREAM_TIMEOUT_MS || 30_000),
    upstreamRetries: Number(env.UPSTREAM_RETRIES ?? 2),
    upstreamConcurrency: Number(env.UPSTREAM_CONCURRENCY || 8),
    teamsFile: env.TEAMS_FILE || undefined,
    pricesFile: env.PRICES_FILE || undefined,
    // A webhook (the digest's, the alerts'): an http(s) URL.
    digestWebhookUrl: httpUrl(env.DIGEST_WEBHOOK_URL, 'DIGEST_WEBHOOK_URL'),
    digestSchedule: env.DIGEST_SCHEDULE || '0 8 * * 1',
    alertWebhookUrl: httpUrl(env.ALERT_WEBHOOK_URL, 'ALERT_WEBHOOK_URL'),
    alertWebhookFormat: webhookFormat(env.ALERT_WEBHOOK_FORMAT),
    basePath,
    publicUrl: dashboardUrl(
      publicUrl(env.PUBLIC_URL) ?? new URL(`http://${reachedAt(env.HOST || '127.0.0.1')}:${port}`),
      basePath,
    ),
    allowedHosts: env.ALLOWED_HOSTS || undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    shutdownTimeoutMs: millis(env, 'SHUTDOWN_TIMEOUT_MS', 10_000),
    trustProxy: readTrustProxy(env),
    egress: readEgress(env),
    production: env.NODE_ENV === 'production',
    holidays: readHolidays(env),
  };
}

/** No upstream configured: the server answers from the embedded demo service instead. */
export const usesDemo = (c: CoreConfig): boolean =>
  c.analyticsBaseUrl === undefined && c.readinessBaseUrl === undefined;
