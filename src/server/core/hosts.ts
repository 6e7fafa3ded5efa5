/**
 * Which names the server answers for. A server on loopback that answered any `Host` could be read by a page
 * served under another name that resolves to 127.0.0.1 (DNS rebinding): so it answers only the loopback
 * names, the name it listens on (`HOST`), `PUBLIC_URL`'s and those an operator lists in `ALLOWED_HOSTS` (the
 * names a proxy in front sends). A state-changing request must come from the dashboard's own pages: its
 * `Origin` (scheme, name and port) is one the server is reached at, never compared with the `Host` it came with.
 */
import type { IncomingMessage } from 'node:http';
import { peerInContext } from './errors';
import type { Peer } from './forwarded';

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
  /**
   * Whether a state-changing request may come from where its `Origin` and `Sec-Fetch-Site` say; behind a trusted
   * proxy, `peer` (core/forwarded.ts) says the scheme and host the reader used.
   */
  originAllowed(req: IncomingMessage, peer?: Peer): boolean;
}

/** An http(s) origin (its `origin`: scheme, name and port, a default port left out); null if it is none. */
function originOf(text: string): URL | null {
  try {
    const u = new URL(text);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.pathname === '/' && !u.username ? u : null;
  } catch {
    return null;
  }
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
    originAllowed(req, peer = peerInContext()) {
      const site = req.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
      // No Origin: not a browser's cross-site request (browsers send one on every cross-origin POST; our pages'
      // `Referrer-Policy: same-origin` keeps it the real origin, not `null`).
      if (req.headers.origin === undefined) return true;
      const origin = originOf(req.headers.origin);
      if (!origin || !allowed(origin.hostname)) return false;
      // PUBLIC_URL; the scheme and host a trusted proxy says the reader used; or one of the names at the port the
      // request reached (the server itself speaks http): another program on another port is another site.
      if (origin.origin === opts.publicUrl?.origin) return true;
      if (peer?.proto || peer?.host) {
        const publicAt = originOf(`${peer.proto ?? 'http'}://${peer.host ?? req.headers.host ?? ''}`);
        if (origin.origin === publicAt?.origin) return true;
      }
      const port = req.socket?.localPort;
      return origin.protocol === 'http:' && port !== undefined && Number(origin.port || 80) === port;
    },
  };
}
