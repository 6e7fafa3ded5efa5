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
  /**
   * A proxy relayed the request and the server cannot tell from whom: a forwarding header (`Forwarded`, `Via`,
   * `X-Real-IP`, any `X-Forwarded-*`…) from a peer it does not trust, or from a trusted one that names no client.
   */
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

/**
 * The headers by which proxies say they relayed a request (the standard ones, nginx's, the CDNs' and load
 * balancers'): a proxy on the same machine that sends any of them is not a reader on that machine.
 */
const RELAYED =
  /^(forwarded|via|x-forwarded-.+|x-real-ip|x-client-ip|client-ip|true-client-ip|cf-connecting-ip|fastly-client-ip|x-cluster-client-ip|x-original-forwarded-for|x-originating-ip|x-remote-addr|x-remote-ip)$/;

/** Whether the request carries a header a proxy adds when it relays one. */
const relayed = (req: IncomingMessage) => Object.keys(req.headers).some((name) => RELAYED.test(name));

export function peerOf(req: IncomingMessage, trust: ProxyTrust | undefined): Peer {
  const connected = req.socket.remoteAddress ?? '';
  if (!trust || !trust(connected, 0)) return { address: connected, hidden: relayed(req) };
  const proto = first(req.headers['x-forwarded-proto'])?.toLowerCase();
  const host = first(req.headers['x-forwarded-host']);
  return {
    address: proxyaddr(req, trust),
    // A trusted proxy names its client in `X-Forwarded-For`; one that relays without it leaves the client unknown.
    hidden: req.headers['x-forwarded-for'] === undefined && relayed(req),
    proto: proto === 'https' || proto === 'http' ? proto : undefined,
    // A host as a `Host` header gives it (a name or address, a port): anything else is not taken.
    host: host && /^[A-Za-z0-9.:[\]-]{1,255}$/.test(host) ? host : undefined,
  };
}
