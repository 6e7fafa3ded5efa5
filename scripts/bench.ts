/**
 * `npm run bench`: builds the app, starts the server on the demo service,
 * drives headless Chromium and loads the server, then prints a table and
 * writes bench-results/bench.json. Targets are checked here, never in tests.
 *
 * "Landing JS+CSS" counts what the browser requested before the first chart
 * was in the document (charts first paint as plain SVG; recharts is fetched
 * after that paint, and the once-interactive total is printed too). Cold loads
 * use a new browser context each (empty HTTP cache). The page reports its own
 * times: "painted" is when the animation frame after the one that drew the
 * change begins; a page switch runs from the click on a page link to the
 * painted frame with the new title and first chart.
 * The server half runs in scripts/load.ts, a process of its own.
 *
 * BENCH_RUNS (default 9) sets the cold-load repetitions; BENCH_SKIP_BUILD=1
 * reuses dist/; BENCH_ONLY=small (150 users), BENCH_ONLY=scale (5,000 users,
 * 500 repositories, 300 teams), BENCH_ONLY=teams (its teams part only) or
 * BENCH_ONLY=store (50,000 users × 90 days) runs one part.
 * BENCH_ONLY=engine times the analytics engine's answers at 50,000 people × 365 days
 * (BENCH_ENGINE_USERS, BENCH_ENGINE_DAYS) on the embedded store and on a throwaway PostgreSQL
 * (BENCH_STORE=sqlite|postgres|both, default both); BENCH_DATA_DIR=<dir> keeps the embedded
 * store there and reuses it on the next run (its sync is then only what is missing), as BENCH_PG_URL
 * does with a PostgreSQL database of one's own. It ends with the server started again on the kept store
 * (beside PostgreSQL, on the replica's kept copy): listening, /readyz ready, its first teams page;
 * BENCH_RESTART_FRESH=1 also starts a PostgreSQL replica without a kept copy.
 * BENCH_ONLY=privacy times privacy mode's decision for the funnel on a synthetic organization of that size, in-process.
 * Every server starts on an empty store of its own and is measured once its
 * start-up backfill has finished.
 */
import { spawn, execFileSync, execSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './chromium';
import { createCluster, findPgBins } from '../src/test/postgres-setup';

const TODAY = '2026-11-22';
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const ARGS = [...CHROMIUM_ARGS, '--enable-precise-memory-info'];

interface Result {
  metric: string;
  value: number;
  unit: string;
  target?: number;
  /** true when lower is better (every target here). */
  ok?: boolean;
}
const results: Result[] = [];
function record(metric: string, value: number, unit: string, target?: number) {
  results.push({
    metric,
    value: Math.round(value * 10) / 10,
    unit,
    target,
    ok: target === undefined ? undefined : value <= target,
  });
  // Said as it is measured too: a run stopped part-way keeps what it measured.
  console.error(`bench: ${metric}: ${Math.round(value * 10) / 10} ${unit}`);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Each server gets an empty store of its own, removed at the end. */
const dataDirs: string[] = [];

/** The bench's three servers listen on BENCH_PORT (default 5411) and the two ports after it. */
const PORT = Number(process.env.BENCH_PORT || 5411);

/** Starts the compiled server on `port` with its store in `dataDir` (a process group of its own). */
function spawnServer(port: number, env: Record<string, string>, dataDir: string, nodeArgs: string[] = []) {
  mkdirSync(dataDir, { recursive: true });
  // BENCH_SERVER: another build's entry point (an earlier commit's, to compare); BENCH_SERVER_LOG: its log.
  const log = process.env.BENCH_SERVER_LOG ? openSync(process.env.BENCH_SERVER_LOG, 'a') : 'ignore';
  return spawn(process.execPath, [...nodeArgs, process.env.BENCH_SERVER || 'dist-server/main.js'], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), DEMO_TODAY: TODAY, DATA_DIR: dataDir, ...env },
    stdio: ['ignore', log, 'inherit'],
    detached: true,
  });
}

async function startServer(
  port: number,
  env: Record<string, string>,
  kept?: string,
  nodeArgs: string[] = [],
): Promise<ChildProcess> {
  const dataDir = kept ?? mkdtempSync(join(tmpdir(), 'bench-store-'));
  if (!kept) dataDirs.push(dataDir);
  const child = spawnServer(port, env, dataDir, nodeArgs);
  for (let i = 0; i < 3000; i++) {
    if (child.exitCode !== null) throw new Error(`the server on ${port} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return child;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server on ${port} did not start`);
}

interface SyncState {
  running: string[];
  lastRun: { startedAt: string; finishedAt: string; failures: number } | null;
  upstreamRequests: number;
  upstreamByPath: Record<string, number>;
}
/**
 * What the server's sync says. Asked again when the connection was reset: a kept-alive connection the server closed
 * (its keep-alive timeout) as the next request went out, which a busy machine makes likely in a long wait.
 */
async function syncState(base: string): Promise<SyncState> {
  for (let tries = 0; ; tries++)
    try {
      return (await (await fetch(`${base}/api/sync`)).json()) as SyncState;
    } catch (e) {
      if (tries >= 3) throw e;
    }
}

/** Waits for the start-up backfill to finish; the largest resident size of the server's processes meanwhile. */
async function awaitBackfill(base: string, server: ChildProcess, timeoutMs = 600_000) {
  let peakKb = 0;
  const t0 = Date.now();
  for (;;) {
    peakKb = Math.max(peakKb, residentKb(server.pid!));
    const s = await syncState(base);
    if (s.lastRun?.finishedAt) return { ...s.lastRun, peakKb };
    if (Date.now() - t0 > timeoutMs) throw new Error('the backfill did not finish');
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Seconds until the analytics copy has caught up with the store (it follows the sync in the background, and after a
 * backfill it is still copying the history's days): a whole history's team answer waits for it.
 */
async function awaitCopy(base: string, latest: string): Promise<number> {
  const c0 = performance.now();
  // Asked again when fetch gives up (its 300 s for the headers): a copy made from an empty one takes longer.
  for (let tries = 0; ; tries++)
    try {
      await firstTime(`${base}/api/teams/analytics/tokens?startDate=2026-01-14&endDate=${latest}`);
      return (performance.now() - c0) / 1000;
    } catch (e) {
      if (tries >= 5) throw e;
    }
}

/** The resident size of the largest process in the server's process group (npx → node). */
function residentKb(pgid: number): number {
  const out = execFileSync('ps', ['-eo', 'pgid=,rss='], { encoding: 'utf8' });
  let max = 0;
  for (const line of out.trim().split('\n')) {
    const [g, rss] = line.trim().split(/\s+/).map(Number);
    if (g === pgid && rss! > max) max = rss!;
  }
  return max;
}

const stop = (c: ChildProcess) => {
  try {
    process.kill(-c.pid!, 'SIGTERM');
  } catch {
    /* already gone */
  }
};

/**
 * Records, from the page's own clock, when the first chart's marks are drawn
 * (the first-paint SVG or the interactive chart, whichever comes first), when
 * the interactive chart has replaced it, and long tasks.
 */
const OBSERVER = `
  window.__bench = { inDocument: null, firstChart: null, interactive: null, longest: 0, tasks: 0 };
  // The frame that paints a change has been painted when the animation frame after it begins.
  const afterPaint = (f) => requestAnimationFrame(() => requestAnimationFrame((t) => f(t)));
  let drawnSeen = false, interactiveSeen = false;
  new MutationObserver(() => {
    if (!drawnSeen && document.querySelector('figure .chart-mark[d], figure rect.chart-mark, .recharts-area-area[d], .recharts-bar-rectangle path, .recharts-line-curve[d]')) {
      drawnSeen = true;
      window.__bench.inDocument = performance.now();
      afterPaint((t) => (window.__bench.firstChart = t));
    }
    if (!interactiveSeen && document.querySelector('.recharts-area-area[d], .recharts-bar-rectangle path, .recharts-line-curve[d]')) {
      interactiveSeen = true;
      afterPaint((t) => { window.__bench.interactive = t; console.debug('bench:interactive'); });
    }
  }).observe(document, { subtree: true, childList: true, attributes: true });
  // A page switch: from the click on a page link to the painted frame with the new page's title and first chart.
  window.__switches = [];
  document.addEventListener('click', (e) => {
    const link = e.target.closest && e.target.closest('nav[aria-label="Pages"] a');
    if (!link) return;
    const name = link.textContent, t0 = performance.now();
    const mo = new MutationObserver(() => {
      const h1 = document.querySelector('main h1');
      if (h1 && h1.textContent === name && document.querySelector('main figure svg')) {
        mo.disconnect();
        afterPaint((t) => { window.__switches.push(t - t0); console.debug('bench:switched'); });
      }
    });
    mo.observe(document, { subtree: true, childList: true });
  }, true);
  // A team switch: from the click on a team's box to the painted frame whose KPI card shows the team's credits.
  window.__teamSwitches = [];
  const kpiCredits = () => {
    const label = [...document.querySelectorAll('p')].find((p) => p.textContent === 'Standard credits');
    return label && label.parentElement.querySelector('p[title]') ? label.parentElement.querySelector('p[title]').getAttribute('title') : null;
  };
  document.addEventListener('click', (e) => {
    if (!(e.target instanceof HTMLInputElement) || e.target.type !== 'checkbox') return;
    const before = kpiCredits(), t0 = performance.now();
    const mo = new MutationObserver(() => {
      const now = kpiCredits();
      if (now === null || now === before) return;
      mo.disconnect();
      afterPaint((t) => { window.__teamSwitches.push(t - t0); console.debug('bench:team'); });
    });
    mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  }, true);
  try {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) { window.__bench.tasks++; window.__bench.longest = Math.max(window.__bench.longest, e.duration); } })
      .observe({ type: 'longtask', buffered: true });
  } catch {}
`;
interface BenchState {
  inDocument: number | null;
  firstChart: number | null;
  interactive: number | null;
  longest: number;
  tasks: number;
}
/** Resolves when the interactive chart is in; told by the page, so no polling runs in the page meanwhile. */
const interactiveChart = (page: Page) =>
  page.waitForEvent('console', { predicate: (m) => m.text() === 'bench:interactive', timeout: 30_000 });
const benchState = (page: Page) => page.evaluate(() => (window as unknown as { __bench: BenchState }).__bench);

async function bundle(base: string, browser: Browser) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.addInitScript(OBSERVER);
  const assets = new Map<string, number>();
  page.on('response', async (res) => {
    const url = new URL(res.url());
    if (/\.(js|css)$/.test(url.pathname)) {
      try {
        // gzip size of each asset, whatever encoding the server chose on the wire
        assets.set(url.pathname, gzipSync(await res.body(), { level: 9 }).length);
      } catch {
        /* body unavailable */
      }
    }
  });
  const ready = interactiveChart(page);
  await page.goto(base + '/');
  await ready;
  await page.waitForLoadState('networkidle');
  // What the browser asked for before the first chart was drawn: the landing page's cost.
  const before = await page.evaluate(() => {
    const drawn = (window as unknown as { __bench: BenchState }).__bench.inDocument!;
    return performance
      .getEntriesByType('resource')
      .filter((e) => e.startTime <= drawn)
      .map((e) => new URL(e.name).pathname);
  });
  const sum = (paths: Iterable<string>) => [...paths].reduce((a, p) => a + (assets.get(p) ?? 0), 0);
  record('landing JS+CSS before the first chart (gzip)', sum(new Set(before)) / 1024, 'KB', 150);
  record('landing JS+CSS once interactive (gzip)', sum(assets.keys()) / 1024, 'KB');
  let total = 0;
  for (const f of readdirSync('dist/assets'))
    if (/\.(js|css)$/.test(f)) total += gzipSync(readFileSync(`dist/assets/${f}`), { level: 9 }).length;
  record('all JS+CSS (gzip)', total / 1024, 'KB');
  await ctx.close();
}

async function coldLoad(base: string, browser: Browser) {
  const inDocument: number[] = [];
  const drawn: number[] = [];
  const interactive: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.addInitScript(OBSERVER);
    const ready = interactiveChart(page);
    await page.goto(base + '/');
    await ready;
    const b = await benchState(page);
    inDocument.push(b.inDocument!);
    drawn.push(b.firstChart!);
    interactive.push(b.interactive!);
    await ctx.close();
  }
  record(`cold load to first chart in the document (median of ${RUNS})`, median(inDocument), 'ms');
  record(`cold load to first chart painted (median of ${RUNS})`, median(drawn), 'ms', 400);
  record(`cold load to first chart interactive (median of ${RUNS})`, median(interactive), 'ms');
}

async function pageSwitches(base: string, browser: Browser) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.addInitScript(OBSERVER);
  await page.goto(base + '/');
  await page.waitForSelector('.recharts-area-area');
  const pages = ['Tools', 'Activity', 'Productivity', 'Usage'];
  const visit = async (name: string) => {
    const switched = page.waitForEvent('console', { predicate: (m) => m.text() === 'bench:switched' });
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name }).click();
    await switched;
    // Let the interactive charts take over before the next click.
    await page.locator('main .recharts-surface').first().waitFor();
  };
  for (const name of pages) await visit(name); // warm the cache and the chunks
  await page.evaluate('window.__switches.length = 0');
  for (let round = 0; round < 3; round++) for (const name of pages) await visit(name);
  const times = (await page.evaluate('window.__switches')) as number[];
  record(`page switch, warm cache (median of ${times.length})`, median(times), 'ms', 200);
  record('page switch, warm cache (worst)', Math.max(...times), 'ms');
  await ctx.close();
}

async function usersAtScale(base: string, browser: Browser) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.addInitScript(OBSERVER);
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Performance.enable');
  const start = '2026-08-23';
  const end = '2026-11-21';
  const t0 = Date.now();
  await page.goto(`${base}/users?start=${start}&end=${end}`);
  await page.getByText(/^[\d,]+ of [\d,]+ people active in the range$/).waitFor({ timeout: 120_000 });
  const elapsed = Date.now() - t0;
  const text = await page.getByText(/people active in the range$/).textContent();
  await page.waitForTimeout(300);
  const b = await benchState(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const metrics = (await cdp.send('Performance.getMetrics')).metrics;
  const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')!.value;
  record(`users, 5,000 × 90 days: full table (${text})`, elapsed / 1000, 's', 1);
  record('users: longest main-thread task while loading', b.longest, 'ms', 200);
  record('users: JS heap at the end', heap / 1024 / 1024, 'MB', 300);
  // Scrolling the virtual table stays cheap.
  await page.getByRole('table', { name: 'Users active in the range' }).waitFor();
  await ctx.close();
}

async function readinessAtScale(base: string, browser: Browser) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.addInitScript(OBSERVER);
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Performance.enable');
  const t0 = Date.now();
  await page.goto(`${base}/readiness`);
  await page.getByText(/^[\d,]+ reports of [\d,]+ repositories/).waitFor({ timeout: 120_000 });
  await page.getByRole('table', { name: 'Repositories and their latest readiness' }).waitFor();
  const elapsed = Date.now() - t0;
  const text = (await page.getByText(/reports of [\d,]+ repositories/).textContent())!.split('.')[0];
  await page.waitForTimeout(300);
  const b = await benchState(page);
  // Responsiveness once loaded: typing a search.
  const s0 = Date.now();
  await page.getByLabel('Search repositories').fill('payments');
  await page
    .getByRole('table', { name: 'Repositories and their latest readiness' })
    .getByRole('link')
    .first()
    .waitFor();
  const searchMs = Date.now() - s0;
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'JSHeapUsedSize')!.value;
  record(`readiness, 500 repositories: all loaded (${text})`, elapsed / 1000, 's', 10);
  record('readiness: longest main-thread task while loading', b.longest, 'ms', 200);
  record('readiness: search once loaded', searchMs, 'ms', 200);
  record('readiness: JS heap at the end', heap / 1024 / 1024, 'MB', 300);
  await ctx.close();
}

/** Load from a process of its own, so the browser driver's event loop does not queue the requests. */
function serverLoad(base: string) {
  const out = execFileSync('npx', ['tsx', 'scripts/load.ts', base], { encoding: 'utf8' });
  const rows = JSON.parse(out.trim().split('\n').at(-1)!) as {
    name: string;
    rps: number;
    p50: number;
    p99: number;
    errors: number;
  }[];
  for (const r of rows) {
    record(`server ${r.name}: requests/s (50 clients)`, r.rps, 'req/s');
    record(`server ${r.name}: p50`, r.p50, 'ms');
    record(`server ${r.name}: p99 (from the store)`, r.p99, 'ms', 20);
    record(`server ${r.name}: errors`, r.errors, 'count', 0);
  }
}

/** Server time of one request: the median of five, after one to warm up. */
async function serverTime(url: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 6; i++) {
    const t0 = performance.now();
    const r = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
    await r.arrayBuffer();
    if (!r.ok) throw new Error(`${url} answered ${r.status}`);
    if (i > 0) times.push(performance.now() - t0);
  }
  return median(times);
}

/** The time of one request, the first of its kind (nothing built for it yet). */
async function firstTime(url: string): Promise<number> {
  const t0 = performance.now();
  const r = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
  await r.arrayBuffer();
  if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
  return performance.now() - t0;
}

/**
 * 5,000 users × 90 days with 300 teams: a mapping of six departments, seven groups each and seven teams
 * per group (every tenth user left out: Unassigned) is uploaded through the edit screen's endpoint, then
 * the teams page's figures and a team switch are timed on the warm server and in the browser.
 */
async function teamsAtScale(base: string, browser: Browser) {
  const start = '2026-08-23';
  const end = '2026-11-21';
  const users: { userId: string; email: string | null }[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = (await (
      await fetch(`${base}/api/users?start=${start}&end=${end}&sort=user&dir=asc&offset=${offset}&limit=1000`)
    ).json()) as { users: { userId: string; email: string | null }[]; total: number };
    users.push(...page.users);
    if (users.length >= page.total) break;
  }
  const teams: string[] = [];
  for (let d = 1; d <= 6; d++)
    for (let g = 1; g <= 7; g++)
      for (let t = 1; t <= 7; t++) teams.push(`Dept ${d}/Group ${d}.${g}/Team ${d}.${g}.${t}`);
  const lines = ['user_id,team,manager'];
  users.forEach((u, i) => {
    if (i % 10 === 9) return;
    const team = teams[i % teams.length]!;
    lines.push(`${u.userId},${team},${i < teams.length ? `lead${i}@acme.example` : ''}`);
  });
  const put = await fetch(`${base}/api/teams/mapping`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ format: 'csv', text: lines.join('\n'), name: 'bench-300-teams.csv' }),
  });
  if (!put.ok) throw new Error(`the mapping was refused: ${await put.text()}`);
  const count = teams.length + 6 * 7 + 6;
  const summary = await serverTime(`${base}/api/teams/summary?start=${start}&end=${end}`);
  record(`teams, 5,000 users × 90 days, ${count} teams: the teams page's figures (server, warm)`, summary, 'ms', 500);
  // Spend, budgets and highlights on the same organization (every team with a budget).
  const budgets = [{ team: '', monthly: 50_000 }, ...teams.map((team) => ({ team, monthly: 500 }))];
  const setBudgets = await fetch(`${base}/api/spend/budgets`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ budgets }),
  });
  if (!setBudgets.ok) throw new Error(`the budgets were refused: ${await setBudgets.text()}`);
  record(
    `spend: every team's spend, month and budget state, ${count} teams (server, warm)`,
    await serverTime(`${base}/api/spend/teams?start=${start}&end=${end}`),
    'ms',
    500,
  );
  record(
    "spend: the organization's spend, month and forecast (server, warm)",
    await serverTime(`${base}/api/spend?start=${start}&end=${end}`),
    'ms',
    300,
  );
  record('highlights of the week, 5,000 users (server, warm)', await serverTime(`${base}/api/highlights`), 'ms', 500);
  record('adoption cohorts, 5,000 users × 313 days (server, warm)', await serverTime(`${base}/api/cohorts`), 'ms', 500);
  // A team switch on the usage page asks for the team's credits by day and by model: time fresh teams.
  const switches: number[] = [];
  for (const team of [teams[0]!, 'Dept 2', 'Dept 3/Group 3.4', teams[200]!, 'Unassigned']) {
    const t = `team=${encodeURIComponent(team)}`;
    const t0 = performance.now();
    await Promise.all(
      [
        `tokens?startDate=${start}&endDate=${end}&${t}`,
        `tokens?startDate=${start}&endDate=${end}&group_by=model&${t}`,
      ].map(async (q) => {
        const r = await fetch(`${base}/api/teams/analytics/${q}`, { headers: { 'accept-encoding': 'gzip' } });
        await r.arrayBuffer();
        if (!r.ok) throw new Error(`${q} answered ${r.status}`);
      }),
    );
    switches.push(performance.now() - t0);
  }
  record("teams: a team switch, the usage page's answers (server, median of 5 teams)", median(switches), 'ms', 300);

  // In the browser, as a manager does it: from the usage page, open the teams page; then pick teams.
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.addInitScript(OBSERVER);
  const credits = page.getByText('Standard credits', { exact: true }).locator('..').locator('p[title]');
  await page.goto(`${base}/?start=${start}&end=${end}`);
  await credits.waitFor({ timeout: 60_000 });
  await page.getByRole('link', { name: 'Teams', exact: true }).hover();
  await page.waitForLoadState('networkidle');
  let t0 = Date.now();
  await page.getByRole('link', { name: 'Teams', exact: true }).click();
  await page.getByRole('link', { name: 'Dept 6', exact: true }).waitFor({ timeout: 60_000 });
  record(
    `teams: teams page shown, ${count} teams, warm server (browser, from the usage page)`,
    Date.now() - t0,
    'ms',
    500,
  );
  await page.goBack();
  await credits.waitFor();
  const picks: number[] = [];
  /** Each switch as the page timed it (the list starts empty on each page load). */
  const inPage: number[] = [];
  for (const team of [
    'Dept 1',
    'Dept 4/Group 4.2',
    'Dept 5/Group 5.6/Team 5.6.3',
    'Dept 2/Group 2.3',
    'Dept 6/Group 6.1/Team 6.1.5',
  ]) {
    const before = await credits.getAttribute('title');
    await page.getByRole('button', { name: /^Team:/ }).click();
    const box = page.getByRole('checkbox', { name: team, exact: true });
    if (!(await box.isVisible())) await page.getByLabel('Filter teams').fill(team.split('/').at(-1)!);
    const told = page.waitForEvent('console', { predicate: (m) => m.text() === 'bench:team', timeout: 30_000 });
    t0 = Date.now();
    await box.click();
    await page.waitForFunction(
      ([b]) => {
        const el = [...document.querySelectorAll('p')].find((p) => p.textContent === 'Standard credits');
        const v = el?.parentElement?.querySelector('p[title]')?.getAttribute('title');
        return v != null && v !== b;
      },
      [before],
      { timeout: 30_000 },
    );
    picks.push(Date.now() - t0);
    await told;
    inPage.push(...((await page.evaluate('window.__teamSwitches')) as number[]));
    await page.keyboard.press('Escape');
    await page.goto(`${base}/?start=${start}&end=${end}`);
    await credits.waitFor();
  }
  record(
    `teams: switching team on the usage page, from the click to the painted KPIs (browser, median of ${inPage.length})`,
    median(inPage),
    'ms',
    300,
  );
  record(
    `teams: the same, as the test driver sees it (its click's own checks included; median of ${picks.length})`,
    median(picks),
    'ms',
  );
  await ctx.close();
}

/**
 * 50,000 users × 90 days (the demo's clock set 90 days after the history start): the full sync into
 * the embedded store and the server's memory meanwhile, then the users pages against the synced store.
 */
async function storeAtScale(browser: Browser) {
  const server = await startServer(PORT + 2, {
    DEMO_USERS: '50000',
    DEMO_REPOS: '25',
    DEMO_TODAY: '2026-04-14',
    PRICES_FILE: 'docs/prices.example.json',
  });
  const base = `http://127.0.0.1:${PORT + 2}`;
  try {
    const backfill = await awaitBackfill(base, server);
    const seconds = (Date.parse(backfill.finishedAt) - Date.parse(backfill.startedAt)) / 1000;
    record('store, 50,000 users × 90 days: full sync into the embedded store', seconds, 's', 120);
    record(
      'store, 50,000 users: server memory during the sync (largest resident size)',
      backfill.peakKb / 1024,
      'MB',
      1024,
    );
    record('store, 50,000 users: sync failures', backfill.failures, 'count', 0);
    const range = 'start=2026-01-14&end=2026-04-13';
    const sorted = await serverTime(`${base}/api/users?${range}&sort=credits&dir=desc&offset=0&limit=100`);
    record('store, 50,000 users: a sorted page of the merged table (server)', sorted, 'ms', 300);
    // Ranges no table was built ahead for: the analytics engine merges (and prices) them on the first read.
    for (const [by, from] of [
      ['credits', '2026-01-15'],
      ['spend', '2026-01-16'],
    ] as const) {
      const url = `${base}/api/users?start=${from}&end=2026-04-13&sort=${by}&dir=desc&offset=0&limit=100`;
      record(
        `store, 50,000 users: users sorted by ${by}, a range of ~88 days, cold (server)`,
        await firstTime(url),
        'ms',
        500,
      );
      record(`store, 50,000 users: the same, warm (server)`, await serverTime(url), 'ms', 50);
    }
    const first = (await (await fetch(`${base}/api/users?${range}&sort=credits&dir=desc&limit=1`)).json()) as {
      users: { userId: string }[];
    };
    const user = await serverTime(`${base}/api/users/${encodeURIComponent(first.users[0]!.userId)}?${range}`);
    record("store, 50,000 users: one user's days (server)", user, 'ms', 300);
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    const t0 = Date.now();
    await page.goto(`${base}/users?${range}`);
    await page
      .getByRole('table', { name: 'Users active in the range' })
      .getByRole('link')
      .first()
      .waitFor({ timeout: 60_000 });
    record('store, 50,000 users: users page, first rows from a cold browser', Date.now() - t0, 'ms', 1000);
    await ctx.close();
  } finally {
    stop(server);
  }
}

/** Samples the server's largest resident size until stopped. */
function watchMemory(server: ChildProcess) {
  let peakKb = 0;
  const timer = setInterval(() => (peakKb = Math.max(peakKb, residentKb(server.pid!))), 250);
  return {
    peakMb: () => Math.max(peakKb, residentKb(server.pid!)) / 1024,
    stop: () => clearInterval(timer),
  };
}

/** Asks `/readyz` every 20 ms until stopped; the latencies seen (a 503 as infinite, unless `anyAnswer`). */
function probeReadiness(base: string, anyAnswer = false) {
  const times: number[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const t0 = performance.now();
      try {
        const r = await fetch(`${base}/readyz`);
        await r.arrayBuffer();
        times.push(r.ok || anyAnswer ? performance.now() - t0 : Infinity);
      } catch {
        times.push(Infinity);
      }
      await new Promise((ok) => setTimeout(ok, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      const sorted = [...times].sort((a, b) => a - b);
      return {
        p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0,
        max: sorted.at(-1) ?? 0,
        n: sorted.length,
      };
    },
  };
}

/**
 * What the engine section asks, cold then warm: ranges of 90 days that no table was built ahead for (the default and
 * the 7- and 90-day ones are), `shift` more days back (each pass its own ranges), and the target of each.
 */
function figureAsks(dayBefore: (n: number) => string, team: string, person: string, shift: number) {
  const range = (back: number) => `start=${dayBefore(shift + back + 89)}&end=${dayBefore(shift + back)}`;
  const days = (back: number) => `startDate=${dayBefore(shift + back + 89)}&endDate=${dayBefore(shift + back)}`;
  // Intensity's shares in each band (issue #47), as a team's page asks them.
  const shares = ['Heavy', 'Moderate', 'Light', 'Minimal', 'None'].map((b) => `measure=intensity${b}Share`).join('&');
  // The funnel from access to a first pull request (issue #47), as the onboarding page asks it.
  const funnel = ['Starters', 'Grace', 'SessionShare', 'CommitShare', 'PrShare', 'RetainedShare', 'PrDays']
    .map((m) => `measure=funnel${m}`)
    .join('&');
  return [
    ['users page, 90 days, by credits', `/api/users?${range(2)}&sort=credits&dir=desc&offset=0&limit=100`, 500],
    ['users page, 90 days, by spend', `/api/users?${range(3)}&sort=spend&dir=desc&offset=0&limit=100`, 500],
    ["a person's page, 90 days", `/api/users/${person}?${range(2)}`, 500],
    ['teams summary, 90 days', `/api/teams/summary?${range(2)}`, 500],
    ["every team's spend and budget state, 90 days", `/api/spend/teams?${range(2)}`, 500],
    // The week's highlights and the cohorts have no range: a team of their own each pass.
    ["the week's highlights", `/api/highlights${shift ? `?team=${team}` : ''}`, 500],
    ['cohorts', `/api/cohorts${shift ? `?team=${team}` : ''}`, 500],
    ["a team's usage page: tokens by day", `/api/teams/analytics/tokens?${days(1)}&team=${team}`, 500],
    ["a team's usage page: tokens by model", `/api/teams/analytics/tokens?${days(1)}&group_by=model&team=${team}`, 500],
    ['users CSV, 90 days', `/api/users.csv?${range(4)}`, 2000],
    ["intensity: every team's share in each band", `/api/figures?${range(2)}&by=team&${shares}`, 500],
    // Readiness priced in friction and delegation headroom (issue #47): every owning team's figures of the range.
    ['readiness priced in friction, 90 days', `/api/readiness/friction?${range(2)}`, 500],
    [
      "intensity: a team's weekly shares in each band, 90 days",
      `/api/figures?${range(2)}&by=week&team=${team}&${shares}`,
      500,
    ],
    ["the funnel: every team's, 90 days", `/api/figures?${range(2)}&by=team&${funnel}`, 500],
    ["the funnel: a team's weekly cohorts, 90 days", `/api/figures?${range(2)}&by=week&team=${team}&${funnel}`, 500],
  ] as [string, string, number][];
}

/** Each figure asked once (cold) then again (warm, the median of five), recorded against its target. */
async function askFigures(label: string, base: string, asks: [string, string, number][], small: boolean) {
  for (const [name, path, target] of asks)
    record(`${label}: ${name}, cold`, await firstTime(base + path), 'ms', small ? Math.min(150, target) : target);
  for (const [name, path, target] of asks)
    if (target < 2000) record(`${label}: ${name}, warm`, await serverTime(base + path), 'ms', 50);
}

/**
 * A server started again on the store and analytics copy `dataDir` holds (a restart on the kept embedded store, or a
 * PostgreSQL replica on its kept copy), timed from its spawn: until it answers `/livez` (listening), until `/readyz`
 * answers 200 (its copy caught up with the store), until a teams page asked then has answered, then every figure of
 * `asks` cold and warm; `/readyz` meanwhile, every answer timed (a 503 is an answer). What the server's log says of
 * its copy's catch-up is printed.
 */
async function restartTimes(
  label: string,
  port: number,
  env: Record<string, string>,
  dataDir: string,
  page: string,
  asks: [string, string, number][] = [],
  small = false,
) {
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const server = spawnServer(port, env, dataDir);
  const memory = watchMemory(server);
  let probes: ReturnType<typeof probeReadiness> | undefined;
  try {
    const since = () => (performance.now() - t0) / 1000;
    const until = async (what: string, ok: () => Promise<boolean>) => {
      for (;;) {
        if (server.exitCode !== null) throw new Error(`the restarted server exited with ${server.exitCode}`);
        if (await ok().catch(() => false)) return since();
        if (since() > 1800) throw new Error(`the restarted server: no ${what} after 30 minutes`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const answered = async (path: string) => (await fetch(`${base}${path}`)).status === 200;
    record(`${label}: restarted, listening (first /livez)`, await until('/livez', () => answered('/livez')), 's', 10);
    probes = probeReadiness(base, true);
    record(`${label}: restarted, /readyz ready`, await until('/readyz', () => answered('/readyz')), 's', 60);
    const p0 = performance.now();
    await firstTime(base + page);
    record(`${label}: restarted, first teams page answered (from start)`, since(), 's', 60);
    record(`${label}: restarted, that first teams page`, performance.now() - p0, 'ms', 500);
    await askFigures(`${label}, restarted`, base, asks, small);
    const seen = await probes.stop();
    record(`${label}: restarted, /readyz p99 until then (${seen.n} asks)`, seen.p99, 'ms', 100);
    record(`${label}: restarted, /readyz slowest until then`, seen.max, 'ms');
    record(`${label}: restarted, largest resident size until then`, memory.peakMb(), 'MB', 1536);
  } finally {
    await probes?.stop();
    memory.stop();
    stop(server);
    if (server.exitCode === null && server.signalCode === null) await new Promise((ok) => server.once('exit', ok));
  }
}

/**
 * The analytics engine at scale (issue #26): BENCH_ENGINE_USERS (default 50,000) people × BENCH_ENGINE_DAYS
 * (default 365) days of history, on the embedded store and on a throwaway PostgreSQL cluster, with a team
 * mapping, budgets and the example price list. Each request is timed on its first ask (cold: nothing built for
 * it) and then warm (median of five), while `/readyz` is asked every 20 ms; the sync's time and the largest
 * resident size are recorded too.
 */
async function engineAtScale(storeKind: 'sqlite' | 'postgres') {
  const people = Number(process.env.BENCH_ENGINE_USERS || 50_000);
  const days = Number(process.env.BENCH_ENGINE_DAYS || 365);
  const today = new Date(Date.parse('2026-01-14') + days * 86_400_000).toISOString().slice(0, 10);
  const dayBefore = (n: number) => new Date(Date.parse(today) - n * 86_400_000).toISOString().slice(0, 10);
  const label = `engine, ${people.toLocaleString('en-US')} × ${days} days, ${storeKind === 'sqlite' ? 'embedded' : 'PostgreSQL'}`;
  let cluster: Awaited<ReturnType<typeof createCluster>> | undefined;
  const env: Record<string, string> = {
    DEMO_USERS: String(people),
    DEMO_REPOS: '25',
    DEMO_TODAY: today,
    PRICES_FILE: 'docs/prices.example.json',
  };
  if (storeKind === 'postgres' && process.env.BENCH_PG_URL) {
    // A database kept between runs (its sync is then only what is missing).
    env.DATABASE_URL = process.env.BENCH_PG_URL;
  } else if (storeKind === 'postgres') {
    const bins = findPgBins();
    if (!bins) {
      console.error(`${label}: skipped, PostgreSQL is not installed here (no initdb/pg_ctl)`);
      return;
    }
    cluster = await createCluster(bins);
    env.DATABASE_URL = cluster.url;
  }
  const port = PORT + 2;
  const base = `http://127.0.0.1:${port}`;
  const kept = storeKind === 'sqlite' ? process.env.BENCH_DATA_DIR : undefined;
  // The embedded store and, beside PostgreSQL, the replica's analytics copy: kept for the restart below.
  const dataDir = kept ?? mkdtempSync(join(tmpdir(), 'bench-store-'));
  if (!kept) dataDirs.push(dataDir);
  const nodeArgs = process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [];
  const server = await startServer(port, env, dataDir, nodeArgs);
  const memory = watchMemory(server);
  let readiness: ReturnType<typeof probeReadiness> | undefined;
  try {
    const backfill = await awaitBackfill(base, server, 30 * 60_000);
    const seconds = (Date.parse(backfill.finishedAt) - Date.parse(backfill.startedAt)) / 1000;
    record(`${label}: full sync`, seconds, 's', storeKind === 'sqlite' ? 300 : 600);
    record(`${label}: sync failures`, backfill.failures, 'count', 0);
    record(`${label}: server memory during the sync (largest resident size)`, backfill.peakKb / 1024, 'MB', 1536);
    record(`${label}: the analytics copy caught up after the sync`, await awaitCopy(base, dayBefore(1)), 's');

    // The team mapping (every tenth person Unassigned) and a budget for every team, as teamsAtScale does.
    const ids: string[] = [];
    const listed = `start=${dayBefore(30)}&end=${dayBefore(1)}`;
    for (let offset = 0; ; offset += 1000) {
      const page = (await (
        await fetch(`${base}/api/users?${listed}&sort=user&dir=asc&offset=${offset}&limit=1000`)
      ).json()) as { users: { userId: string }[]; total: number };
      ids.push(...page.users.map((u) => u.userId));
      if (ids.length >= page.total || page.users.length === 0) break;
    }
    const teams: string[] = [];
    for (let d = 1; d <= 6; d++)
      for (let g = 1; g <= 7; g++)
        for (let t = 1; t <= 7; t++) teams.push(`Dept ${d}/Group ${d}.${g}/Team ${d}.${g}.${t}`);
    const lines = ['user_id,team,manager'];
    ids.forEach((id, i) => {
      if (i % 10 !== 9)
        lines.push(`${id},${teams[i % teams.length]!},${i < teams.length ? `lead${i}@acme.example` : ''}`);
    });
    const put = await fetch(`${base}/api/teams/mapping`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'csv', text: lines.join('\n'), name: 'bench-engine-teams.csv' }),
    });
    if (!put.ok) throw new Error(`the mapping was refused: ${await put.text()}`);
    const budgets = [{ team: '', monthly: 500_000 }, ...teams.map((team) => ({ team, monthly: 5_000 }))];
    const setBudgets = await fetch(`${base}/api/spend/budgets`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ budgets }),
    });
    if (!setBudgets.ok) throw new Error(`the budgets were refused: ${await setBudgets.text()}`);

    const range = (back: number) => `start=${dayBefore(back + 89)}&end=${dayBefore(back)}`;
    const team = encodeURIComponent(teams[17]!);
    const person = encodeURIComponent(ids[Math.floor(ids.length / 3)]!);
    const asks = figureAsks(dayBefore, team, person, 0);
    const small = people <= 5_000;
    readiness = probeReadiness(base);
    await askFigures(label, base, asks, small);
    const probes = await readiness.stop();
    record(`${label}: /readyz p99 while those ran (${probes.n} asks)`, probes.p99, 'ms', 50);
    record(`${label}: server memory, largest resident size of the run`, memory.peakMb(), 'MB', 1536);
    // The bulk export of 90 days as Parquet, written by the engine and streamed: its time and the memory it took.
    const exporting = watchMemory(server);
    const exported = await firstTime(`${base}/api/export/person-days?${range(6)}&format=parquet`);
    exporting.stop();
    record(`${label}: export of 90 days as Parquet`, exported, 'ms');
    record(`${label}: server memory during the export (largest resident size)`, exporting.peakMb(), 'MB', 1536);

    // Started again on the kept store (and, beside PostgreSQL, the replica's kept copy); BENCH_RESTART_FRESH=1 also
    // times a PostgreSQL replica without one (ANALYTICS_FILE=temporary: its copy made from the whole store).
    stop(server);
    if (server.exitCode === null && server.signalCode === null) await new Promise((ok) => server.once('exit', ok));
    const teamsPage = `/api/teams/summary?${range(5)}`;
    // After the restart every figure again, over ranges asked of neither process before.
    await restartTimes(label, port, env, dataDir, teamsPage, figureAsks(dayBefore, team, person, 10), small);
    if (storeKind === 'postgres' && process.env.BENCH_RESTART_FRESH)
      await restartTimes(
        `${label}, no kept copy`,
        port,
        { ...env, ANALYTICS_FILE: 'temporary' },
        dataDir,
        `/api/teams/summary?${range(6)}`,
      );
  } finally {
    await readiness?.stop();
    memory.stop();
    stop(server);
    if (server.exitCode === null && server.signalCode === null) await new Promise((ok) => server.once('exit', ok));
    cluster?.destroy();
  }
}

/**
 * A fixed CPU workload, timed before and after: this shared 2-core machine's speed drifts by tens of
 * percent within minutes, and the figures read best next to it.
 */
function reference(label: string) {
  const rows = Array.from({ length: 20_000 }, (_, i) => ({ date: `2026-01-${i % 28}`, user: `u${i}`, n: i * 1.5 }));
  const t0 = performance.now();
  for (let i = 0; i < 10; i++) JSON.parse(JSON.stringify(rows));
  record(`machine: reference workload (${label})`, performance.now() - t0, 'ms');
}

/**
 * Privacy mode's decision for the funnel (analytics/funnel-privacy.ts) on an organization shaped like the engine's:
 * 6 departments × 7 groups × 7 teams and Unassigned, each team's starters of a week drawn around 3 (Unassigned's
 * around 30) over 14 weeks and over 53, its members those and the people there before (about 150 a team, as the
 * engine's 50,000), for k = 5 and k = 2; and the event loop's longest pause meanwhile.
 */
async function privacyAtScale() {
  const { decideFunnelFor } = await import('../src/server/analytics/funnel-privacy');
  const { withAncestors, UNASSIGNED } = await import('../src/server/teams/tree');
  let seed = 20261130;
  const random = () => {
    // mulberry32: the same organization every run.
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const poisson = (mean: number) => {
    let [n, p] = [0, random()];
    for (const limit = Math.exp(-mean); p > limit; p *= random()) n++;
    return n;
  };
  const leaves: string[] = [UNASSIGNED];
  for (let d = 1; d <= 6; d++)
    for (let g = 1; g <= 7; g++)
      for (let t = 1; t <= 7; t++) leaves.push(`Dept ${d}/Group ${d}.${g}/Team ${d}.${g}.${t}`);
  const teams = withAncestors(leaves);
  const up = (t: string) => [...teams.filter((a) => t === a || t.startsWith(`${a}/`)), ''];
  let pause = 0;
  for (const [weekCount, label] of [
    [14, '90 days'],
    [53, 'a year'],
  ] as const) {
    const members = new Map<string, number>();
    const weeks = new Map<string, Map<string, number>>();
    for (let w = 0; w < weekCount; w++)
      weeks.set(new Date(Date.UTC(2026, 0, 12 + 7 * w)).toISOString().slice(0, 10), new Map());
    for (const leaf of leaves) {
      let mine = 0;
      for (const week of weeks.values()) {
        const n = poisson(leaf === UNASSIGNED ? 30 : 3);
        mine += n;
        for (const a of up(leaf)) week.set(a, (week.get(a) ?? 0) + n);
      }
      // Its members: its starters and those there before the range (the engine's year leaves about 12 a team).
      mine += poisson(leaf === UNASSIGNED ? 500 : weekCount > 14 ? 12 : 110);
      for (const a of up(leaf)) members.set(a, (members.get(a) ?? 0) + mine);
    }
    const starters = (t: string) => [...weeks.values()].reduce((s, w) => s + (w.get(t) ?? 0), 0);
    for (const k of [5, 2]) {
      let last = performance.now();
      const lag = setInterval(() => {
        const now = performance.now();
        pause = Math.max(pause, now - last - 5);
        last = now;
      }, 5);
      const started = performance.now();
      const shown = await decideFunnelFor({
        k,
        teams,
        treeShown: new Set(teams),
        members: (t) => members.get(t) ?? 0,
        starters,
        weeks,
      });
      const ms = performance.now() - started;
      clearInterval(lag);
      const given = [...shown.weeks.values()].reduce((s, g) => s + g.size, 0);
      record(
        `privacy: the funnel's decision, 295 teams × ${label} (${weekCount} weeks), k = ${k} (${shown.rows.size} rows, ${given} team-weeks given)`,
        ms,
        'ms',
        k === 5 ? 1_000 : 5_000,
      );
    }
  }
  record("privacy: the event loop's longest pause during those decisions", pause, 'ms', 100);
}

async function main() {
  reference('start');
  if (!process.env.BENCH_SKIP_BUILD) execSync('npm run build', { stdio: 'ignore' });
  const only = process.env.BENCH_ONLY;
  if (only === 'privacy') {
    await privacyAtScale();
    return report();
  }
  if (only === 'engine') {
    const which = process.env.BENCH_STORE || 'both';
    if (which === 'sqlite' || which === 'both') await engineAtScale('sqlite');
    if (which === 'postgres' || which === 'both') await engineAtScale('postgres');
    return report();
  }
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ARGS });
  const small = only === 'scale' || only === 'store' || only === 'teams' ? undefined : await startServer(PORT, {});
  if (small)
    try {
      const base = `http://127.0.0.1:${PORT}`;
      const backfill = await awaitBackfill(base, small);
      record(
        'store: backfill on start, 150 users × 313 days',
        (Date.parse(backfill.finishedAt) - Date.parse(backfill.startedAt)) / 1000,
        's',
      );
      const analytics = (s: SyncState) =>
        Object.entries(s.upstreamByPath)
          .filter(([p]) => p.startsWith('/api/v1/analytics/'))
          .reduce((n, [, c]) => n + c, 0);
      const readiness = (s: SyncState) => s.upstreamByPath['/api/organization/maturity-level-reports'] ?? 0;
      const before = await syncState(base);
      await bundle(base, browser);
      await coldLoad(base, browser);
      await pageSwitches(base, browser);
      serverLoad(base);
      const after = await syncState(base);
      record(
        'store: upstream analytics requests for visits to synced ranges',
        analytics(after) - analytics(before),
        'count',
        0,
      );
      // Pages look for new readiness reports at most every five minutes.
      record('store: upstream readiness look-ups meanwhile', readiness(after) - readiness(before), 'count');
    } finally {
      stop(small);
    }
  const large =
    only === 'small' || only === 'store'
      ? undefined
      : await startServer(PORT + 1, { DEMO_USERS: '5000', DEMO_REPOS: '500', PRICES_FILE: 'docs/prices.example.json' });
  if (large)
    try {
      await awaitBackfill(`http://127.0.0.1:${PORT + 1}`, large);
      // The pages below time their tables and answers, not the copy's first filling (an empty store's alone).
      const latest = new Date(Date.parse(TODAY) - 86_400_000).toISOString().slice(0, 10);
      const copied = await awaitCopy(`http://127.0.0.1:${PORT + 1}`, latest);
      record('store: the analytics copy caught up after the backfill, 5,000 users × 313 days', copied, 's');
      if (only !== 'teams') {
        await usersAtScale(`http://127.0.0.1:${PORT + 1}`, browser);
        await readinessAtScale(`http://127.0.0.1:${PORT + 1}`, browser);
      }
      await teamsAtScale(`http://127.0.0.1:${PORT + 1}`, browser);
    } finally {
      stop(large);
    }
  if (!only || only === 'store') await storeAtScale(browser);
  await browser.close();
  if (!only) await privacyAtScale();
  report();
}

function report() {
  reference('end');

  const width = Math.max(...results.map((r) => r.metric.length));
  console.log(`${'metric'.padEnd(width)}  ${'value'.padStart(10)}  unit    target   ok`);
  for (const r of results) {
    console.log(
      `${r.metric.padEnd(width)}  ${String(r.value).padStart(10)}  ${r.unit.padEnd(6)}  ${r.target === undefined ? '' : `≤ ${r.target}`.padEnd(7)}  ${r.ok === undefined ? '' : r.ok ? 'yes' : 'NO'}`,
    );
  }
  mkdirSync('bench-results', { recursive: true });
  writeFileSync(
    process.env.BENCH_OUT || 'bench-results/bench.json',
    JSON.stringify({ date: new Date().toISOString(), results }, null, 2),
  );
  for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
  console.log(`\nwritten to ${process.env.BENCH_OUT || 'bench-results/bench.json'}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
