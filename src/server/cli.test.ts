/**
 * The commands run beside a server (`npm run alerts`, `npm run digest`), as processes of their own: what they say
 * on stderr and the links they print.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'cli-'));
  dirs.push(d);
  return d;
};

/** Only what a test gives: no PORT, HOST or PUBLIC_URL of the runner's leaks in. */
const ENV = { PATH: process.env.PATH, DEMO_TODAY: '2026-03-01', DEMO_USERS: '20', DEMO_REPOS: '2' };

function run(cli: string, env: Record<string, string>) {
  const p = spawn(process.execPath, ['--import', 'tsx', `src/server/${cli}`, '--dry-run'], {
    env: { ...ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    p.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

/** The log's lines (JSON) among what a command wrote to stderr. */
const logLines = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: string; msg: string } & Record<string, unknown>);

describe('npm run alerts', () => {
  it('beside a server that holds the analytics copy, makes its own and leaves the server’s be', async () => {
    const dir = dataDir();
    const file = join(dir, 'analytics.duckdb');
    // A running server's hold on its copy: DuckDB locks the file for the process that opened it.
    const holder: ChildProcess = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { DuckDBInstance } from '@duckdb/node-api'; const i = await DuckDBInstance.create(process.argv[1]); await (await i.connect()).run('CREATE TABLE held (x INTEGER)'); console.log('held'); setInterval(() => {}, 1000);",
        file,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
      const inode = statSync(file).ino;
      const { code, stdout, stderr } = await run('alerts-cli.ts', { DATA_DIR: dir });
      expect(code, stderr).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({ day: '2026-02-28', posted: 0, unposted: 0 });
      const lines = logLines(stderr);
      expect(lines.filter((l) => l.level === 'error')).toEqual([]);
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: 'info',
          msg: 'the analytics copy is in use by another process; this one makes a copy of its own',
        }),
      );
      // The server's file is still the one it holds (the command once removed it, and made its own in its place).
      expect(statSync(file).ino).toBe(inode);
    } finally {
      holder.kill('SIGKILL');
    }
  });
});

describe('npm run digest -- --dry-run', () => {
  /** The addresses of the message's links. */
  const links = (message: string) => [...new Set([...message.matchAll(/https?:\/\/[^\s"|<>]+/g)].map((m) => m[0]))];

  it('links to the server as its machine reaches it, and says that PUBLIC_URL is unset', async () => {
    // The image's environment: listening on every interface, on 8080.
    const { code, stdout, stderr } = await run('digest-cli.ts', { DATA_DIR: dataDir(), HOST: '0.0.0.0', PORT: '8080' });
    expect(code, stderr).toBe(0);
    const found = links(stdout);
    expect(found.length).toBeGreaterThan(0);
    for (const l of found) expect(l).toMatch(/^http:\/\/127\.0\.0\.1:8080\//);
    expect(logLines(stderr)).toContainEqual(
      expect.objectContaining({
        level: 'info',
        msg: expect.stringMatching(/^PUBLIC_URL is unset: /),
        links: 'http://127.0.0.1:8080/',
      }),
    );
  });

  it('links under PUBLIC_URL and its base path when it is given', async () => {
    const { code, stdout, stderr } = await run('digest-cli.ts', {
      DATA_DIR: dataDir(),
      PUBLIC_URL: 'https://corp.example',
      BASE_PATH: '/dashboard',
    });
    expect(code, stderr).toBe(0);
    const found = links(stdout);
    expect(found.length).toBeGreaterThan(0);
    for (const l of found) expect(l).toMatch(/^https:\/\/corp\.example\/dashboard\//);
    expect(stderr).not.toContain('PUBLIC_URL');
  });
});
