/**
 * Behind a proxy in front (one that terminates TLS, a load balancer): `TRUST_PROXY` says which peers' forwarded
 * headers are believed, as a hop count (`1`: the peer that connects is the proxy) or a list of addresses and
 * ranges (`10.0.0.0/8, loopback`; proxy-addr's names: loopback, linklocal, uniquelocal). From a trusted peer the
 * server takes `X-Forwarded-For` (the client's address, for the audit log and the request log),
 * `X-Forwarded-Proto` and `X-Forwarded-Host` (the scheme and host the reader used: the host check, and without
 * PUBLIC_URL the sign-in's redirect and its cookies). Off by default: then those headers are ignored, since
 * anyone can send them. proxy-addr (Express's) walks the `X-Forwarded-For` chain.
 */
import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';
import { errorText } from './log';

/** Whether the `hop`-th address from this server (0: the peer that connects) is a trusted proxy. */
export type ProxyTrust = (address: string, hop: number) => boolean;

export function readTrustProxy(env: NodeJS.ProcessEnv): ProxyTrust | undefined {
  const raw = env.TRUST_PROXY?.trim() ?? '';
  if (raw === '' || raw === '0' || raw === 'false') return undefined;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 20)
      throw new Error('TRUST_PROXY must be a number of proxies from 0 to 20, or a list of their addresses');
    return (_address, hop) => hop < hops;
  }
  try {
    return proxyaddr.compile(raw.split(',').map((s) => s.trim()));
  } catch (e) {
    throw new Error(
      `TRUST_PROXY must be a number of proxies, or a comma-separated list of their addresses and ranges ` +
        `(10.0.0.0/8, loopback, uniquelocal): ${errorText(e)}`,
    );
  }
}

/** Who a request comes from, as far as the server can tell. */
export interface Peer {
  /** The client's address: the connection's, or the one trusted proxies forwarded. */
  address: string;
  /** The request names a hop the server does not trust (an `X-Forwarded-For` from an untrusted peer): the client is unknown. */
  hidden: boolean;
  /** The scheme the reader used, when a trusted proxy said so (`X-Forwarded-Proto`). */
  proto?: 'http' | 'https';
  /** The host the reader asked for, when a trusted proxy said so (`X-Forwarded-Host`). */
  host?: string;
}

/** A proxy's header's first value (a list's leftmost: the one the reader's side added). */
function first(value: string | string[] | undefined): string | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim();
  return v || undefined;
}

export function peerOf(req: IncomingMessage, trust: ProxyTrust | undefined): Peer {
  const connected = req.socket.remoteAddress ?? '';
  const forwardedFor = req.headers['x-forwarded-for'] !== undefined;
  if (!trust || !trust(connected, 0)) return { address: connected, hidden: forwardedFor };
  const proto = first(req.headers['x-forwarded-proto'])?.toLowerCase();
  const host = first(req.headers['x-forwarded-host']);
  return {
    address: proxyaddr(req, trust),
    hidden: false,
    proto: proto === 'https' || proto === 'http' ? proto : undefined,
    // A host as a `Host` header gives it (a name or address, a port): anything else is not taken.
    host: host && /^[A-Za-z0-9.:[\]-]{1,255}$/.test(host) ? host : undefined,
  };
}
