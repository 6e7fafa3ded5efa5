/**
 * The session and the sign-in's short-lived state, each in a cookie sealed with authenticated
 * encryption (a JWE, `dir` + A256GCM, through jose): nobody can read it, and any change to it makes it
 * refused. The key is derived from SESSION_SECRET; each seal carries its purpose, the issuer and an
 * expiry, so a state cookie is never taken for a session, and a session of another issuer (after the
 * identity provider changes) or an expired one is refused. A session also carries its own id (`jti`):
 * signing out revokes that id on the server, so a copy of the cookie kept from before is refused too.
 */
import { hkdfSync, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseCookies, serialize } from 'cookie';
import { EncryptJWT, jwtDecrypt, type JWTPayload } from 'jose';
import type { AuthConfig } from './config';

export interface Session {
  email: string;
  name: string | null;
  /** Seconds since the epoch. */
  expiresAt: number;
}

/** What the sign-in keeps between sending the reader to the provider and the provider's answer. */
export interface SignInState {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** A path of this dashboard only (checked when the sign-in starts). */
  returnTo: string;
}

const STATE_SECONDS = 10 * 60;

/**
 * The sessions signed out of, by id, each kept until its cookie would have expired anyway. Shared by
 * every replica (the store's) for a sign-out to hold on all of them; `memoryRevocations` holds in this
 * process only.
 */
export interface Revocations {
  /** `until`: seconds since the epoch. */
  add(id: string, until: number): Promise<void> | void;
  has(id: string): Promise<boolean> | boolean;
}

export function memoryRevocations(): Revocations {
  const until = new Map<string, number>();
  const now = () => Date.now() / 1000;
  return {
    add(id, expires) {
      for (const [k, t] of until) if (t < now()) until.delete(k);
      until.set(id, expires);
    },
    has: (id) => (until.get(id) ?? 0) >= now(),
  };
}

/**
 * `secureOf` says whether a request reached the dashboard over https (PUBLIC_URL's scheme, or a trusted
 * proxy's `X-Forwarded-Proto`): its cookies are then `Secure`, and named to match.
 */
export function createSessions(
  cfg: AuthConfig,
  revoked: Revocations = memoryRevocations(),
  secureOf: (req: IncomingMessage) => boolean = () => cfg.publicUrl?.protocol === 'https:',
) {
  const key = new Uint8Array(hkdfSync('sha256', cfg.sessionSecret, 'agent-usage-dashboard', 'session cookie', 32));
  // The cookies go with requests under the base path only (RFC 6265's path match: `/dashboard` covers
  // `/dashboard` and `/dashboard/…`, never `/dashboardx`).
  const path = cfg.basePath || '/';
  // Over https: `__Host-` binds the cookie to this host, but only with `Path=/`; under a base path,
  // `__Secure-` (a Secure cookie, no Domain set either way).
  const namesOf = (secure: boolean) => {
    const prefix = !secure ? '' : cfg.basePath ? '__Secure-' : '__Host-';
    return { secure, session: `${prefix}session`, state: `${prefix}signin` };
  };
  const plain = namesOf(false);
  const tls = namesOf(true);
  const names = (req: IncomingMessage) => (secureOf(req) ? tls : plain);
  const issuer = cfg.issuer.href;

  async function seal(purpose: string, payload: JWTPayload, seconds: number): Promise<string> {
    return new EncryptJWT({ ...payload, purpose })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setIssuer(issuer)
      .setIssuedAt()
      .setExpirationTime(`${seconds}s`)
      .encrypt(key);
  }

  async function open(purpose: string, token: string | undefined): Promise<JWTPayload | null> {
    if (!token) return null;
    try {
      const { payload } = await jwtDecrypt(token, key, {
        issuer,
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
      });
      return payload.purpose === purpose ? payload : null;
    } catch {
      return null; // tampered, expired, another issuer, another key: not a session
    }
  }

  const cookie = (secure: boolean, name: string, value: string, maxAge: number) =>
    serialize(name, value, { httpOnly: true, secure, sameSite: 'lax', path, maxAge });

  const cookiesOf = (req: IncomingMessage) => parseCookies(req.headers.cookie ?? '');

  function append(res: ServerResponse, value: string) {
    const prior = res.getHeader('set-cookie');
    const list = prior === undefined ? [] : Array.isArray(prior) ? prior : [String(prior)];
    res.setHeader('set-cookie', [...list, value]);
  }

  return {
    /** The cookies' names for a request (prefixed over https). */
    names,
    /** The request's session; null without one, or when it is not valid (a revoked one among them). */
    async read(req: IncomingMessage): Promise<Session | null> {
      const p = await open('session', cookiesOf(req)[names(req).session]);
      if (!p || typeof p.jti !== 'string' || typeof p.email !== 'string' || typeof p.exp !== 'number') return null;
      if (await revoked.has(p.jti)) return null;
      return { email: p.email, name: typeof p.name === 'string' ? p.name : null, expiresAt: p.exp };
    },
    async start(res: ServerResponse, s: { email: string; name: string | null }) {
      const sealed = await seal('session', { ...s, jti: randomUUID() }, cfg.sessionSeconds);
      const n = names(res.req);
      append(res, cookie(n.secure, n.session, sealed, cfg.sessionSeconds));
    },
    /**
     * Revokes the session, so that no copy of its cookie is taken any more, then clears the cookie; the
     * session's email. A revocation that fails throws before the cookie is cleared: the reader keeps it to
     * sign out with again.
     */
    async end(req: IncomingMessage, res: ServerResponse): Promise<string | null> {
      const n = names(req);
      const p = await open('session', cookiesOf(req)[n.session]);
      if (typeof p?.jti === 'string' && typeof p.exp === 'number') await revoked.add(p.jti, p.exp);
      append(res, cookie(n.secure, n.session, '', 0));
      return typeof p?.email === 'string' ? p.email : null;
    },
    async keepState(res: ServerResponse, s: SignInState) {
      const n = names(res.req);
      append(res, cookie(n.secure, n.state, await seal('signin', { ...s }, STATE_SECONDS), STATE_SECONDS));
    },
    /** The sign-in state, once: the cookie is cleared whatever it held, so a code is never redeemed twice here. */
    async takeState(req: IncomingMessage, res: ServerResponse): Promise<SignInState | null> {
      const n = names(req);
      const p = await open('signin', cookiesOf(req)[n.state]);
      append(res, cookie(n.secure, n.state, '', 0));
      if (!p) return null;
      const { state, nonce, codeVerifier, returnTo } = p as Partial<Record<keyof SignInState, unknown>>;
      if (typeof state !== 'string' || typeof nonce !== 'string' || typeof codeVerifier !== 'string') return null;
      return { state, nonce, codeVerifier, returnTo: typeof returnTo === 'string' ? returnTo : '/' };
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;

const HERE = 'http://dashboard.invalid';

/**
 * Where to go after sign-in: a path of this dashboard, never another site. The path is normalised
 * first, as a browser would (`/.//evil.example` becomes `//evil.example`, `\` becomes `/`), and
 * taken only when both what was asked and what it became lead to this dashboard; anything else
 * (`//evil.example`, `/\evil.example`, `https://…`, `javascript:…`, no leading `/`) becomes `/`.
 */
export function safeReturnTo(raw: string | null | undefined): string {
  const u = raw?.startsWith('/') && raw.length <= 2000 ? URL.parse(raw, HERE) : null;
  const path = u?.origin === HERE ? `${u.pathname}${u.search}${u.hash}` : '/';
  return URL.parse(path, HERE)?.origin === HERE ? path : '/';
}
