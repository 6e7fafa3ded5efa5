/**
 * What the image's final stage does (Dockerfile), without a container runtime: a clean directory, a
 * production-only install, the built SPA and compiled server, the server started with `node` as the image
 * starts it, its probes and pages answered, and a SIGTERM that ends it cleanly. Run by `npm test` after the
 * build (`npm run test:image`), with node's own test runner.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, execFileSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

const root = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'dashboard-image-'));
let server: ChildProcess;
let base = '';
let output = '';
/** The image's environment; the demo answers slowly, so that an answer is in flight when the server is stopped. */
const env = {
  PATH: process.env.PATH,
  NODE_ENV: 'production',
  HOST: '0.0.0.0',
  DATA_DIR: join(dir, 'data'),
  DEMO_LATENCY_MS: '1000',
};

/** A GET with the Host header given (fetch may not set it). */
const getAs = (path: string, host: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    request(`${base}${path}`, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString())).on('end', () => resolve({ status: res.statusCode!, body }));
    })
      .on('error', reject)
      .end();
  });

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

before(async () => {
  for (const f of ['package.json', 'package-lock.json']) cpSync(join(root, f), join(dir, f));
  execFileSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: dir,
    stdio: 'ignore',
    timeout: 300_000,
  });
  for (const d of ['dist', 'dist-server']) cpSync(join(root, d), join(dir, d), { recursive: true });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // As the image's CMD, with its environment (listening on every interface, the store in a volume).
  server = spawn(process.execPath, ['--enable-source-maps', 'dist-server/main.js'], {
    cwd: dir,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  server.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  for (let i = 0; i < 300 && !output.includes('Dashboard ready at'); i++) await new Promise((r) => setTimeout(r, 100));
  assert.match(output, /^Dashboard ready at http:\/\/127\.0\.0\.1:\d+\/$/m, output);
});

after(() => {
  server?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

test('the production install holds the runtime dependencies only', () => {
  for (const runtime of ['better-sqlite3', 'kysely', 'pg', 'prom-client', 'sirv'])
    assert.ok(existsSync(join(dir, 'node_modules', runtime)), `${runtime} is installed`);
  for (const dev of ['tsx', 'vite', 'react', 'typescript', 'esbuild'])
    assert.ok(!existsSync(join(dir, 'node_modules', dev)), `${dev} is not installed`);
});

test('the probes answer, unauthenticated and for any host name', async () => {
  assert.deepEqual(await (await fetch(`${base}/livez`)).json(), { status: 'ok' });
  // A kubelet probes by the pod's address.
  const ready = await getAs('/readyz', '10.1.2.3:8080');
  assert.equal(ready.status, 200);
  assert.deepEqual(JSON.parse(ready.body), { status: 'ok' });
  const metrics = await (await fetch(`${base}/metrics`)).text();
  assert.match(metrics, /^dashboard_http_requests_total\{route="\/readyz",method="GET",status="200"\} 1$/m);
  assert.match(metrics, /^process_resident_memory_bytes \d+/m);
});

test('the page, its assets and the service answer from the compiled server', async () => {
  const page = await fetch(`${base}/usage`);
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /<meta name="dashboard-config"/);
  const script = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  assert.ok(script, 'the page names its script');
  assert.equal((await fetch(`${base}${script}`)).status, 200);
  const tokens = await fetch(`${base}/api/v1/analytics/tokens?startDate=2026-02-01&endDate=2026-02-07&group_by=model`);
  assert.equal(tokens.status, 200);
  assert.ok(Array.isArray(((await tokens.json()) as { data: unknown[] }).data));
  // The users table is merged by the analytics engine (DuckDB, its binary from the production install), from its
  // copy beside the store's file. A range the store does not hold yet answers 202 while its walk fills it.
  let users = await fetch(`${base}/api/users?start=2026-02-01&end=2026-02-01&limit=5`);
  for (let i = 0; i < 120 && users.status === 202; i++) {
    await new Promise((r) => setTimeout(r, 500));
    users = await fetch(`${base}/api/users?start=2026-02-01&end=2026-02-01&limit=5`);
  }
  assert.equal(users.status, 200);
  const rows = ((await users.json()) as { users: { userId: string }[] }).users;
  assert.ok(rows.length > 0 && rows.every((u) => u.userId.startsWith('usr_')), JSON.stringify(rows));
  assert.ok(existsSync(join(env.DATA_DIR, 'analytics.duckdb')), 'the analytics copy is beside the store');
  // A name the server is not meant for (DNS rebinding) is refused.
  assert.equal((await getAs('/usage', 'rebound.example:8080')).status, 421);
});

test('a taken port is said in one line naming PORT, with no stack trace', () => {
  const port = new URL(base).port;
  const second = spawnSync(process.execPath, ['dist-server/main.js'], {
    cwd: dir,
    env: { ...env, PORT: port },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(second.status, 1);
  assert.match(
    second.stderr,
    new RegExp(
      `^Cannot listen on 0\\.0\\.0\\.0:${port}: another program is using that port\\. Set PORT to a free port`,
      'm',
    ),
  );
  assert.doesNotMatch(second.stderr, /^\s+at /m);
});

test('SIGTERM finishes the answer in flight, then ends the server cleanly', async () => {
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  // A request with a key of its own is the demo's to answer (not the store's), and the demo takes
  // DEMO_LATENCY_MS to answer it.
  const inFlight = fetch(`${base}/api/v1/analytics/activity?startDate=2026-03-01&endDate=2026-03-03`, {
    headers: { authorization: 'Bearer demo-manager' },
  }).then((r) => ({ r, at: performance.now() }));
  await new Promise((r) => setTimeout(r, 300));
  const killedAt = performance.now();
  server.kill('SIGTERM');
  const { r: answer, at } = await inFlight;
  assert.ok(at > killedAt, 'the answer came after the signal');
  assert.equal(answer.status, 200);
  assert.equal(((await answer.json()) as { data: unknown[] }).data.length, 3);
  assert.equal(await exited, 0);
  assert.match(output, /"msg":"stopped","code":0/);
  assert.doesNotMatch(output, /"msg":"stopping: /);
});
