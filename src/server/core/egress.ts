/**
 * The way out of a corporate network: every request the server makes (the service, the OpenID provider,
 * the digest's webhook) goes through the forward proxy `HTTPS_PROXY` / `HTTP_PROXY` name (lower-case
 * spellings too), except to hosts in `NO_PROXY` and to loopback, which is always direct. Node does the
 * proxying itself (`http.setGlobalProxyFromEnv`, for `fetch` and `http.request` alike); this module reads the
 * settings once, applies them, and says which proxy a request went through, so that a proxy that refuses or
 * cannot be reached is named, without its credentials.
 */
import { setGlobalProxyFromEnv } from 'node:http';

export interface EgressSettings {
  https: string | undefined;
  http: string | undefined;
  /** NO_PROXY as given, with loopback added. */
  noProxy: string;
}

const LOOPBACK = ['localhost', '127.0.0.1', '::1', '[::1]'];

export function readEgress(env: NodeJS.ProcessEnv): EgressSettings | undefined {
  const https = env.HTTPS_PROXY || env.https_proxy || undefined;
  const http = env.HTTP_PROXY || env.http_proxy || undefined;
  if (!https && !http) return undefined;
  for (const [name, value] of [
    ['HTTPS_PROXY', https],
    ['HTTP_PROXY', http],
  ] as const) {
    if (value && !/^https?:$/.test(URL.parse(value)?.protocol ?? ''))
      throw new Error(`${name} must be a proxy URL, like http://proxy.example.com:3128`);
  }
  const given = env.NO_PROXY ?? env.no_proxy ?? '';
  return { https, http, noProxy: [given, ...LOOPBACK].filter(Boolean).join(',') };
}

/** A proxy's address for a log or an answer: its credentials replaced. */
export function redactProxy(url: string): string {
  const u = new URL(url);
  if (u.username || u.password) {
    u.username = '***';
    u.password = '';
  }
  return u.href.replace(/\/$/, '');
}

/** Whether NO_PROXY sends `target` direct: `*`, a host name (its subdomains too), `.domain`, with an optional port. */
function bypasses(noProxy: string, target: URL): boolean {
  const host = target.hostname.toLowerCase();
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  return noProxy.split(/[\s,]+/).some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (!entry) return false;
    if (entry === '*') return true;
    // `name`, `name:port`, `[v6]`, `[v6]:port`, or a bare IPv6 address (no port).
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    const parts = bracketed
      ? [bracketed[1]!, bracketed[2]]
      : entry.split(':').length === 2
        ? entry.split(':')
        : [entry];
    const name = parts[0]!.replace(/^\*?\./, '');
    if (parts[1] && parts[1] !== port) return false;
    return host === name || host === `[${name}]` || host.endsWith(`.${name}`);
  });
}

/** The proxy (redacted) a request to `target` goes through, or undefined when it goes direct. */
export function proxyFor(settings: EgressSettings | undefined, target: URL): string | undefined {
  if (!settings || bypasses(settings.noProxy, target)) return undefined;
  const proxy = target.protocol === 'https:' ? settings.https : settings.http;
  return proxy && redactProxy(proxy);
}

/** Routes the process's outgoing requests through the proxy; returns what undoes it (tests). */
export function applyEgress(settings: EgressSettings | undefined): () => void {
  if (!settings) return () => undefined;
  return setGlobalProxyFromEnv({
    ...(settings.https ? { HTTPS_PROXY: settings.https } : {}),
    ...(settings.http ? { HTTP_PROXY: settings.http } : {}),
    NO_PROXY: settings.noProxy,
  });
}

/** At a process's start: the proxy applied, and said in the log (without credentials), with any extra CAs. */
export function startEgress(
  settings: EgressSettings | undefined,
  logger: { info(msg: string, f?: Record<string, unknown>): void },
  env: NodeJS.ProcessEnv = process.env,
): void {
  applyEgress(settings);
  if (settings)
    logger.info('outgoing requests go through a proxy', {
      https: settings.https && redactProxy(settings.https),
      http: settings.http && redactProxy(settings.http),
      direct: settings.noProxy,
    });
  // Node reads NODE_EXTRA_CA_CERTS itself at start (a TLS-inspecting proxy's CA): say that it did.
  if (env.NODE_EXTRA_CA_CERTS) logger.info('extra certificate authorities loaded', { file: env.NODE_EXTRA_CA_CERTS });
}
