/**
 * Screenshots of every page against a running dashboard:
 *   tsx scripts/screenshot.ts [baseUrl] [outDir]
 */
import { existsSync, mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';

const base = process.argv[2] ?? 'http://127.0.0.1:5173';
const out = process.argv[3] ?? 'docs';
const pages = (process.env.PAGES ?? '/,/tools,/activity,/productivity,/users,/readiness').split(',');
mkdirSync(out, { recursive: true });
const executablePath = process.env.CHROMIUM_PATH || (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
const browser = await chromium.launch({
  executablePath,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const page = await browser.newPage({ viewport: { width: Number(process.env.WIDTH ?? 1440), height: 900 } });
for (const p of pages) {
  await page.goto(base + p);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(400);
  const name = p === '/' ? 'usage' : p.replace(/^\//, '').replace(/[/?=&]/g, '-');
  await page.screenshot({ path: `${out}/${name}.png`, fullPage: true });
  console.log(`${out}/${name}.png`);
}
await browser.close();
