/**
 * Which names the server answers for. A server on loopback that answered any `Host` could be read by a page
 * served under another name that resolves to 127.0.0.1 (DNS rebinding): so it answers only the loopback
 * names, the name it listens on (`HOST`), `PUBLIC_URL`'s and those an operator lists in `ALLOWED_HOSTS` (the
 * names a proxy in front sends). The same names decide whether a state-changing request comes from the
 * dashboard's own pages: its `Origin` is compared with them, never with the `Host` it came with.
 */
import type { IncomingMessage } from 'node:http';

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD = new Set(['0.0.0.0', '[::]']);

/** A host as it goes in a URL: an IPv6 address in brackets. */
export const urlHost = (host: string): string =>
  host.split(':').length > 2 && !host.startsWith('[') ? `[${host}]` : host;

/** The host name (lower case, punycode, IPv6 in brackets; no port) a `Host` header, a name or an origin names. */
function nameOf(hostOrUrl: string): string | null {
  try {
    const u = new URL(hostOrUrl.includes('://') ? hostOrUrl : `http://${urlHost(hostOrUrl.trim())}`);
    return u.hostname && (u.pathname === '/' || !hostOrUrl.includes('://')) ? u.hostname : null;
  } catch {
    return null;
  }
}

export interface HostGuard {
  /** The names answered for (`*` alone when ALLOWED_HOSTS turns the check off). */
  names: readonly string[];
  /**
   * Whether the request's `Host` is one the server answers for; behind a trusted proxy, the host the reader
   * asked the proxy for (`X-Forwarded-Host`, core/forwarded.ts) when it says one.
   */
  hostAllowed(req: IncomingMessage, forwardedHost?: string): boolean;
  /** Whether a state-changing request may come from where its `Origin` and `Sec-Fetch-Site` say. */
  originAllowed(req: IncomingMessage): boolean;
}

export function createHostGuard(opts: { host: string; publicUrl?: URL; allowedHosts?: string }): HostGuard {
  const listed = (opts.allowedHosts ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const any = listed.includes('*');
  const names = new Set(LOOPBACK);
  for (const name of [...listed.filter((s) => s !== '*'), opts.host, opts.publicUrl?.host ?? '']) {
    const n = nameOf(name);
    if (n && !WILDCARD.has(n)) names.add(n);
  }
  const allowed = (name: string | null) => name !== null && (any || names.has(name.toLowerCase()));
  return {
    names: any ? ['*'] : [...names],
    hostAllowed: (req, forwardedHost) => allowed(nameOf(forwardedHost ?? req.headers.host ?? '')),
    originAllowed(req) {
      const site = req.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
      const origin = req.headers.origin;
      // No Origin: not a browser's cross-site request (browsers send one on every cross-origin POST; our pages'
      // `Referrer-Policy: same-origin` keeps it the real origin, not `null`).
      return origin === undefined || allowed(nameOf(origin));
    },
  };
}
