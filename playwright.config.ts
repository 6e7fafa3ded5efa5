import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './scripts/chromium';

/** A pinned demo clock makes every number on screen reproducible. */
export const E2E_TODAY = '2026-06-01';
export const PORTS = {
  main: 5310,
  faults: 5311,
  hostile: 5312,
  keyless: 5313,
  upstream: 5314,
  oidc: 5315,
  signIn: 5316,
  spend: 5317,
  /** A reverse proxy that forwards `/dashboard/…` unchanged (and nothing else) to the `basePath` dashboard. */
  proxy: 5318,
  basePath: 5319,
  /** Sign-in with privacy mode (PRIVACY_MIN_GROUP, e2e/privacy.spec.ts). */
  privacy: 5320,
};

/** The privacy dashboard's smallest group shown (e2e/privacy.spec.ts). */
export const PRIVACY_MIN_GROUP = 5;

/** The prefix the `basePath` dashboard is served under, behind the proxy (e2e/base-path.spec.ts). */
export const BASE_PATH = '/dashboard';

/**
 * Each test server must be reached only by the spec written for it: the
 * faults server counts requests to decide which ones fail.
 */
export const FAULTS = [
  // The browser does not retry an answer of our server, nor ask again for a query that failed before
  // its widget mounted (one retry policy: the server's), so a fault injected once is what the page sees
  // and Retry recovers. The server itself retries a 429 twice; the browser retries a body cut off in
  // transit twice.
  'tokens.model=500x1',
  'activity.client=429x3',
  // Two: the page asks for the range and for the previous period.
  'productivity=malformedx2',
  'tools.tool_name=truncatedx3',
  'users=schemax1',
  'readiness=hangx1',
].join(',');

// Every dashboard server answers from a store of its own (in memory: nothing left behind).
const base = {
  DEMO_TODAY: E2E_TODAY,
  DEMO_SEED: 'acme',
  TZ: 'Pacific/Kiritimati',
  NODE_ENV: 'production',
  DATA_DIR: ':memory:',
};
const dashboard = (port: number, env: Record<string, string> = {}) => ({
  // The compiled server, as production runs it (`npm run build` comes first in `npm test`).
  command: 'node --enable-source-maps dist-server/main.js',
  url: `http://127.0.0.1:${port}/api/health`,
  reuseExistingServer: false,
  timeout: 60_000,
  env: { ...base, PORT: String(port), ...env },
});

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  timeout: 60_000,
  // The suite runs two workers and five servers on a 2-core machine: allow for load.
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORTS.main}`,
    // A zone behind UTC, where a day parsed as UTC midnight shows as the day before.
    timezoneId: 'America/Los_Angeles',
    locale: 'en-US',
    trace: 'retain-on-failure',
    acceptDownloads: true,
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: { executablePath: chromiumPath, args: CHROMIUM_ARGS },
      },
    },
  ],
  webServer: [
    dashboard(PORTS.main),
    // No background sync here: the faults count requests, and only the specs' own may meet them.
    dashboard(PORTS.faults, { DEMO_FAULTS: FAULTS, UPSTREAM_TIMEOUT_MS: '800', SYNC_BACKGROUND: '0' }),
    dashboard(PORTS.hostile, { DEMO_HOSTILE: '1' }),
    {
      command: 'npx tsx src/server/demo/main.ts',
      url: `http://127.0.0.1:${PORTS.upstream}/api/v1/analytics/tokens`,
      reuseExistingServer: false,
      timeout: 60_000,
      // A real clock, as a real service has: the keyless dashboard asks for yesterday UTC.
      env: { ...base, DEMO_TODAY: '', PORT: String(PORTS.upstream) },
    },
    dashboard(PORTS.keyless, { ANALYTICS_BASE_URL: `http://127.0.0.1:${PORTS.upstream}` }),
    // Spend, budgets and highlights: the example price list (e2e/spend.spec.ts sets the budgets).
    dashboard(PORTS.spend, { PRICES_FILE: 'docs/prices.example.json' }),
    // Sign-in: a real OpenID provider (oidc-provider, any password) and a dashboard that requires it.
    {
      command: 'npx tsx scripts/oidc-provider.ts',
      url: `http://127.0.0.1:${PORTS.oidc}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: String(PORTS.oidc),
        REDIRECT_URI: [
          `http://127.0.0.1:${PORTS.signIn}/auth/callback`,
          `http://127.0.0.1:${PORTS.proxy}${BASE_PATH}/auth/callback`,
          `http://127.0.0.1:${PORTS.privacy}/auth/callback`,
        ].join(','),
      },
    },
    dashboard(PORTS.signIn, {
      OIDC_ISSUER: `http://127.0.0.1:${PORTS.oidc}`,
      OIDC_CLIENT_ID: 'dashboard',
      OIDC_CLIENT_SECRET: 'dashboard-secret',
      PUBLIC_URL: `http://127.0.0.1:${PORTS.signIn}`,
      SESSION_SECRET: 'an-end-to-end-session-secret-of-32-chars',
      ADMIN_EMAILS: 'admin@acme.example',
      ALLOWED_DOMAINS: 'acme.example',
    }),
    // The same sign-in with privacy mode: managers see pseudonyms and no group under PRIVACY_MIN_GROUP.
    dashboard(PORTS.privacy, {
      OIDC_ISSUER: `http://127.0.0.1:${PORTS.oidc}`,
      OIDC_CLIENT_ID: 'dashboard',
      OIDC_CLIENT_SECRET: 'dashboard-secret',
      PUBLIC_URL: `http://127.0.0.1:${PORTS.privacy}`,
      SESSION_SECRET: 'an-end-to-end-session-secret-of-32-chars',
      ADMIN_EMAILS: 'admin@acme.example',
      ALLOWED_DOMAINS: 'acme.example',
      PRIVACY_MIN_GROUP: String(PRIVACY_MIN_GROUP),
    }),
    // Under a base path, behind a reverse proxy that keeps the prefix, with sign-in: readers reach it at
    // PUBLIC_URL, the proxy's address (given with the base path, as PUBLIC_URL may be).
    dashboard(PORTS.basePath, {
      BASE_PATH,
      OIDC_ISSUER: `http://127.0.0.1:${PORTS.oidc}`,
      OIDC_CLIENT_ID: 'dashboard',
      OIDC_CLIENT_SECRET: 'dashboard-secret',
      PUBLIC_URL: `http://127.0.0.1:${PORTS.proxy}${BASE_PATH}`,
      SESSION_SECRET: 'an-end-to-end-session-secret-of-32-chars',
      ADMIN_EMAILS: 'admin@acme.example',
    }),
    {
      command: 'node scripts/base-path-proxy.ts',
      url: `http://127.0.0.1:${PORTS.proxy}${BASE_PATH}/livez`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { PORT: String(PORTS.proxy), TARGET: `http://127.0.0.1:${PORTS.basePath}`, PREFIX: BASE_PATH },
    },
  ],
});
