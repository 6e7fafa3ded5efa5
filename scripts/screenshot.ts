/**
 * Screenshots of every page from the demo service, for the README:
 *   npm run screenshots                 starts its own server (after `npm run build`), writes docs/
 *   npm run screenshots -- <url> <dir>  against a running dashboard
 * WIDTH, COLOR_SCHEME (light|dark), PAGES (comma list) and SUFFIX adjust a run.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './chromium';

const own = !process.argv[2];
const base = process.argv[2] ?? 'http://127.0.0.1:5420';
const out = process.argv[3] ?? 'docs';
const pages = (process.env.PAGES ?? '/,/tools,/activity,/productivity,/users,/teams,/compare,/readiness').split(',');
mkdirSync(out, { recursive: true });

const server = own
  ? spawn(process.execPath, ['dist-server/main.js'], {
      // A store of its own, filled from the demo, with the example price list: spend and budgets show.
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: '5420',
        DEMO_TODAY: '2026-11-22',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'screenshots-')),
        PRICES_FILE: 'docs/prices.example.json',
      },
      stdio: 'ignore',
      detached: true,
    })
  : undefined;
for (let i = 0; own && i < 100; i++) {
  try {
    if ((await fetch(`${base}/api/health`)).ok) break;
  } catch {
    await new Promise((r) => setTimeout(r, 100));
  }
}

// Its store filled first (the pages would show their loading lines): until the sync has nothing running, 5 min at most.
for (let i = 0; own && i < 300; i++) {
  const sync = (await (await fetch(`${base}/api/sync`)).json()) as {
    running?: string[];
    stored?: { users?: { days: number } };
  };
  if (i > 5 && (sync.stored?.users?.days ?? 0) > 0 && (sync.running ?? []).length === 0) break;
  await new Promise((r) => setTimeout(r, 1000));
}

/** The team comparison of the demo's first three top-level teams. */
async function comparison(): Promise<string> {
  const { teams } = (await (await fetch(`${base}/api/teams`)).json()) as { teams: { path: string }[] };
  return `/compare?${teams
    .slice(0, 3)
    .map((t) => `team=${encodeURIComponent(t.path)}`)
    .join('&')}`;
}

const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
const variants = process.env.WIDTH
  ? [
      {
        width: Number(process.env.WIDTH),
        scheme: process.env.COLOR_SCHEME === 'dark' ? 'dark' : 'light',
        suffix: process.env.SUFFIX ?? '',
      },
    ]
  : [
      { width: 1440, scheme: 'light', suffix: '' },
      { width: 1440, scheme: 'dark', suffix: '-dark' },
      { width: 375, scheme: 'light', suffix: '-phone' },
      { width: 375, scheme: 'dark', suffix: '-phone-dark' },
    ];
try {
  for (const v of variants) {
    const page = await browser.newPage({
      viewport: { width: v.width, height: 900 },
      colorScheme: v.scheme as 'light' | 'dark',
    });
    for (const p of pages) {
      await page.goto(base + (p === '/compare' ? await comparison() : p));
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(400);
      const name = (p === '/' ? 'usage' : p.replace(/^\//, '').replace(/[/?=&%]/g, '-')) + v.suffix;
      await page.screenshot({ path: `${out}/${name}.png`, fullPage: v.width > 500 });
      console.log(`${out}/${name}.png`);
    }
    await page.close();
  }
} finally {
  await browser.close();
  if (server) process.kill(-server.pid!);
}
