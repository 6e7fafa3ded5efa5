/**
 * Vitest globalSetup: one real, throwaway PostgreSQL cluster per `vitest run` (not per file).
 *
 * - Finds the server binaries: `$PG_BIN_DIR` if set (only there — `PG_BIN_DIR=/nonexistent` simulates a machine
 *   without PostgreSQL), else the newest /usr/lib/postgresql/<version>/bin (Debian), else `initdb`/`pg_ctl` on PATH.
 * - initdb's a cluster in a fresh mkdtemp directory, trust auth for the unix socket (in that directory) and
 *   127.0.0.1 only, listening on a free port of 127.0.0.1 (below the kernel's range for clients' ports),
 *   fsync/synchronous_commit/full_page_writes off for speed.
 *   As root (initdb refuses root), initdb/pg_ctl run as the `postgres` user through `runuser`.
 * - Provides its URL (`postgres://postgres@127.0.0.1:<port>/postgres`) as `inject('pgUrl')`; see ./postgres.ts,
 *   whose `freshDatabase()` gives each test file a database of its own.
 * - Teardown stops it (`pg_ctl stop -m immediate`) and deletes the directory, whether tests passed or not; an `exit`
 *   and signal handler does the same if the run dies, and a run also removes clusters left by runs that were killed.
 * - `createCluster()` makes another such cluster, for a test that stops and starts its server (the run's cluster
 *   is shared by the test files running at once).
 * - Without the binaries: fails the run when `$CI` is set, else says why on stderr and provides `null`
 *   (the PostgreSQL tests then skip).
 * - `PG_TEST_TIMING=1` prints how long starting and removing the cluster took.
 */
import { execFile, execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the throwaway cluster's `postgres` database (superuser `postgres`), or null when not installed. */
    pgUrl: string | null;
  }
}

const run = promisify(execFile);
const DIR_PREFIX = 'vitest-pg-';
/** The file in a cluster's directory holding the pid of the vitest process that owns it. */
const OWNER_FILE = 'owner.pid';
const NOT_INSTALLED = 'PostgreSQL is not installed here (Debian: apt-get install postgresql)';
/** Signals that end a run: the cluster must not outlive it. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

interface Bins {
  initdb: string;
  pgCtl: string;
}

const hasBins = (dir: string): Bins | null => {
  const bins = { initdb: join(dir, 'initdb'), pgCtl: join(dir, 'pg_ctl') };
  return existsSync(bins.initdb) && existsSync(bins.pgCtl) ? bins : null;
};

/** initdb and pg_ctl of the newest installed PostgreSQL, or null. */
export function findPgBins(env: NodeJS.ProcessEnv = process.env): Bins | null {
  if (env.PG_BIN_DIR) return hasBins(env.PG_BIN_DIR);
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian)
    ? readdirSync(debian)
        .filter((v) => /^\d+(\.\d+)?$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) {
    const bins = hasBins(join(debian, v, 'bin'));
    if (bins) return bins;
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const bins = dir ? hasBins(dir) : null;
    if (bins) return bins;
  }
  return null;
}

const isRoot = () => process.getuid?.() === 0;

/** The command line that runs `bin` as a user initdb accepts: ourselves, or `postgres` when we are root. */
const asPgUser = (bin: string, args: string[]): [string, string[]] =>
  isRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];

async function pgRun(bin: string, args: string[], cwd: string): Promise<void> {
  const [cmd, argv] = asPgUser(bin, args);
  await run(cmd, argv, { cwd, timeout: 60_000 });
}

/** Stops the cluster (if it runs) and deletes its directory, synchronously so it also works in an `exit` handler. */
function destroySync(pgCtl: string, dir: string): void {
  const data = join(dir, 'data');
  if (existsSync(join(data, 'postmaster.pid'))) {
    const [cmd, argv] = asPgUser(pgCtl, ['stop', '-D', data, '-m', 'immediate', '-w', '-t', '30']);
    try {
      execFileSync(cmd, argv, { cwd: dir, stdio: 'ignore', timeout: 35_000 });
    } catch {
      // Already stopped, or beyond our reach: the directory goes anyway.
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Removes the clusters of earlier runs that were killed before their teardown (SIGKILL, OOM). */
function sweepOrphans(pgCtl: string): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(DIR_PREFIX)) continue;
    const dir = join(tmpdir(), name);
    try {
      const owner = Number(readFileSync(join(dir, OWNER_FILE), 'utf8'));
      if (owner > 0 && !isAlive(owner)) destroySync(pgCtl, dir);
    } catch {
      // Not ours to judge (no owner file yet, or another user's).
    }
  }
}

/** Whether `port` of 127.0.0.1 is free now (0: any free port); the port, or 0 when taken. */
function tryPort(port: number): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.on('error', () => resolve(0));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A free port below the range the kernel picks clients' ports from: a client that keeps reconnecting while a
 * stopped cluster is down may otherwise be given the cluster's own port, connect to itself and hold the port
 * (a restart then fails with "Address already in use").
 */
async function freePort(): Promise<number> {
  let low = 32768;
  try {
    low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || low;
  } catch {
    // Not Linux: its default range starts higher still.
  }
  for (let attempt = 0; attempt < 20 && low > 11_024; attempt++) {
    const port = await tryPort(low - 10_000 + Math.floor(Math.random() * 10_000));
    if (port) return port;
  }
  const port = await tryPort(0);
  if (!port) throw new Error('no free port');
  return port;
}

async function waitForConnections(url: string, deadline: number): Promise<void> {
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

const readLog = (file: string) => {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '(no server log)';
  }
};

/** A throwaway cluster of its own: the run's (below), or a test's that stops and starts it (failover tests). */
export interface Cluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  /** Stops the server, keeping its data (`immediate`: as a crash would, `fast`: as a restart does). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same port, once it accepts connections. */
  start(): Promise<void>;
  /** Stops it and deletes its directory (also done on exit and on SIGINT/SIGTERM/SIGHUP). */
  destroy(): void;
}

/**
 * initdb's and starts a throwaway cluster (see the top of this file); throws with the server's log if it cannot.
 * `crashSafe`: commits are flushed (synchronous_commit on), so that none is lost by `stop('immediate')`.
 */
export async function createCluster(bins: Bins, { crashSafe = false } = {}): Promise<Cluster> {
  // initdb refuses to run as root: then the cluster belongs to the `postgres` user (Debian's package creates it).
  let owner: { uid: number; gid: number } | undefined;
  if (isRoot()) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: 'pipe' }));
    try {
      owner = { uid: id('-u'), gid: id('-g') };
    } catch {
      throw new Error('Running as root, and initdb refuses root, but there is no `postgres` user to run it as.');
    }
  }

  sweepOrphans(bins.pgCtl);
  const dir = mkdtempSync(join(tmpdir(), DIR_PREFIX));
  writeFileSync(join(dir, OWNER_FILE), String(process.pid));
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');

  let destroyed = false;
  const destroy = () => {
    if (destroyed) return;
    destroyed = true;
    process.off('exit', destroy);
    for (const signal of SIGNALS) process.off(signal, onSignal);
    destroySync(bins.pgCtl, dir);
  };
  // If the run dies before teardown: vitest turns SIGINT/SIGTERM into process.exit(), which fires `exit`; on a signal
  // we stop the cluster at once, and should nothing else end the process soon, die of that signal as Node would have.
  function onSignal(signal: NodeJS.Signals) {
    destroy();
    setTimeout(() => process.kill(process.pid, signal), 500).unref();
  }
  process.on('exit', destroy);
  for (const signal of SIGNALS) process.on(signal, onSignal);

  let port = 0;
  const url = () => `postgres://postgres@127.0.0.1:${port}/postgres`;
  const start = async () => {
    await pgRun(bins.pgCtl, ['start', '-D', data, '-l', log, '-w', '-t', '60', '-o', `-p ${port}`], dir);
    await waitForConnections(url(), Date.now() + 30_000);
  };
  try {
    if (owner) chownSync(dir, owner.uid, owner.gid);
    await pgRun(
      bins.initdb,
      ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
      dir,
    );
    // Trust, but only for the unix socket (in our private 0700 directory) and 127.0.0.1.
    writeFileSync(join(data, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
    const socketDir = `'${dir.replace(/'/g, "''")}'`;
    appendFileSync(
      join(data, 'postgresql.conf'),
      [
        '',
        '# vitest throwaway cluster (src/test/postgres-setup.ts)',
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = ${socketDir}`,
        'fsync = off',
        `synchronous_commit = ${crashSafe ? 'on' : 'off'}`,
        'full_page_writes = off',
        '',
      ].join('\n'),
    );

    // The port is free when we look, but could be taken before the server binds it: then try another.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        await start();
        break;
      } catch (e) {
        if (attempt >= 3 || !/could not bind|address already in use/i.test(readLog(log))) throw e;
      }
    }
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const serverLog = readLog(log);
    destroy();
    throw new Error(`Could not start the PostgreSQL test cluster: ${message}\n--- server log ---\n${serverLog}`);
  }
  return {
    url: url(),
    stop: (mode = 'fast') => pgRun(bins.pgCtl, ['stop', '-D', data, '-m', mode, '-w', '-t', '30'], dir),
    start,
    destroy,
  };
}

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  const bins = findPgBins();
  if (!bins) {
    if (process.env.CI) {
      const where = process.env.PG_BIN_DIR
        ? `$PG_BIN_DIR (${process.env.PG_BIN_DIR})`
        : '/usr/lib/postgresql/*/bin or PATH';
      throw new Error(`PostgreSQL is required in CI: apt-get install postgresql (no initdb/pg_ctl in ${where})`);
    }
    process.stderr.write(`PostgreSQL tests skipped: ${NOT_INSTALLED}\n`);
    project.provide('pgUrl', null);
    return undefined;
  }
  const started = performance.now();
  const cluster = await createCluster(bins);
  project.provide('pgUrl', cluster.url);
  if (process.env.PG_TEST_TIMING) {
    process.stderr.write(
      `PostgreSQL test cluster up in ${Math.round(performance.now() - started)} ms: ${cluster.url}\n`,
    );
  }

  return () => {
    const stopping = performance.now();
    cluster.destroy();
    if (process.env.PG_TEST_TIMING) {
      process.stderr.write(`PostgreSQL test cluster removed in ${Math.round(performance.now() - stopping)} ms\n`);
    }
  };
}
