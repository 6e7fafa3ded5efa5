/**
 * A real OpenID provider for the tests (the `oidc-provider` package) on loopback, with its own
 * sign-in and consent pages (its development interactions: any password is taken) and test accounts
 * named by their email, and a cookie-keeping HTTP walk through a sign-in, as a browser would do it.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestProvider {
  issuer: string;
  close: () => Promise<void>;
}

/**
 * Accounts: the login is the email; `unverified@…` has an unverified email. The client may redirect to each of
 * `redirectUris`. With `tls`, over https under `tls.name` (a name only a test's forward proxy resolves, say).
 */
export async function startProvider(
  redirectUris: string | readonly string[],
  clientId = 'dashboard',
  clientSecret = 'dashboard-secret',
  port = 0,
  tls?: { key: string; cert: string; name: string },
) {
  const server: Server = tls ? createTlsServer({ key: tls.key, cert: tls.cert }) : createServer();
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', () => ok()));
  const at = (server.address() as AddressInfo).port;
  const issuer = tls ? `https://${tls.name}:${at}` : `http://127.0.0.1:${at}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: typeof redirectUris === 'string' ? [redirectUris] : [...redirectUris],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['test-provider-cookie-key'] },
    async findAccount(_ctx: unknown, id: string) {
      return {
        accountId: id,
        async claims() {
          return { sub: id, email: id, email_verified: !id.startsWith('unverified@'), name: id.split('@')[0] };
        },
      };
    },
  });
  provider.on('server_error', () => undefined);
  server.on('request', provider.callback());
  return {
    issuer,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  } satisfies TestProvider;
}

/** Cookies by origin, as a browser keeps them (enough for these tests: no paths, no expiry). */
/** The test session secret (at least 32 characters). */
export const TEST_SESSION_SECRET = 'a-session-secret-of-at-least-32-characters!';

/** A dashboard's sign-in settings against the test provider: admin@acme.example admin, acme.example allowed. */
export const signInEnv = (issuer: string, publicUrl: string) => ({
  OIDC_ISSUER: issuer,
  OIDC_CLIENT_ID: 'dashboard',
  OIDC_CLIENT_SECRET: 'dashboard-secret',
  PUBLIC_URL: publicUrl,
  SESSION_SECRET: TEST_SESSION_SECRET,
  ADMIN_EMAILS: 'admin@acme.example',
  ALLOWED_DOMAINS: 'acme.example',
});

export class CookieJar {
  private jars = new Map<string, Map<string, string>>();
  header(url: URL): string {
    return [...(this.jars.get(url.host) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  take(url: URL, res: Response) {
    const jar = this.jars.get(url.host) ?? new Map<string, string>();
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    this.jars.set(url.host, jar);
  }
  get(host: string, name: string): string | undefined {
    return this.jars.get(host)?.get(name);
  }
  set(host: string, name: string, value: string) {
    const jar = this.jars.get(host) ?? new Map<string, string>();
    jar.set(name, value);
    this.jars.set(host, jar);
  }
}

export interface Step {
  url: URL;
  res: Response;
  body: string;
}

/** One request with the jar's cookies, without following redirects. */
export async function request(jar: CookieJar, url: URL, init: RequestInit = {}): Promise<Step> {
  const res = await fetch(url, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: jar.header(url) },
  });
  jar.take(url, res);
  return { url, res, body: await res.text() };
}

/** A new reader of the dashboard at `base`, signed in as `email` through the test provider. */
export async function signedIn(base: string, email: string): Promise<CookieJar> {
  const jar = new CookieJar();
  await walkSignIn(jar, new URL('/auth/login', base), email);
  return jar;
}

/**
 * Follows a sign-in from `start` through the provider's pages (filling `login` with the email) until
 * a response comes back from `until`'s host that is not a redirect into the provider; returns the
 * redirect to the dashboard's callback unfollowed when `stopAtCallback` is set.
 */
export async function walkSignIn(jar: CookieJar, start: URL, email: string, opts: { stopAtCallback?: boolean } = {}) {
  let step = await request(jar, start);
  for (let i = 0; i < 20; i++) {
    const location = step.res.headers.get('location');
    if (location) {
      const next = new URL(location, step.url);
      if (opts.stopAtCallback && next.pathname.endsWith('/auth/callback')) return { callback: next, step };
      step = await request(jar, next);
      continue;
    }
    const form = /<form[^>]*action="([^"]+)"[^>]*method="post"/i.exec(step.body);
    if (!form) return { step };
    const fields = new URLSearchParams();
    for (const m of step.body.matchAll(/<input[^>]*name="([^"]+)"(?:[^>]*value="([^"]*)")?/gi))
      fields.set(m[1]!, m[2] ?? '');
    if (fields.has('login')) fields.set('login', email);
    if (fields.has('password')) fields.set('password', 'any');
    step = await request(jar, new URL(form[1]!.replace(/&amp;/g, '&'), step.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
    });
  }
  throw new Error('the sign-in did not end');
}
