import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

/**
 * Uses Debian's Chromium when it is installed (this project's machines cannot
 * download browsers); elsewhere Playwright's own browser. CHROMIUM_PATH wins.
 */
const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const executablePath = process.env.CHROMIUM_PATH || systemChromium;

const PORT = Number(process.env.E2E_PORT || 5310);
/** A pinned demo clock makes every number on screen reproducible. */
export const E2E_TODAY = '2026-06-01';

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  reporter: [['list']],
  timeout: 60_000,
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
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
        launchOptions: {
          executablePath,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: {
    command: 'NODE_ENV=production npx tsx src/server/main.ts',
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { PORT: String(PORT), DEMO_TODAY: E2E_TODAY, DEMO_SEED: 'acme', TZ: 'Pacific/Kiritimati' },
  },
});
