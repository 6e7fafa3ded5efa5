/**
 * Where the analytics copy lives: a file (beside the embedded store, or a replica's own beside PostgreSQL, kept across
 * restarts), `:memory:`, or a `temporary` file of this process's own (beside PostgreSQL without a folder of its own,
 * or when another process holds the file: DuckDB locks it, so two processes never share one). A file DuckDB cannot open is only a
 * copy: it is made again from the store.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { errorText, type Logger } from '../core/log';

/** The `temporary` copies this process has open (a file of its id but not among them is an earlier process's). */
const ownCopies = new Set<string>();

/** Whether an earlier process's copy: its process no longer runs, or ran with this process's id (a restarted container). */
function leftBehind(name: string): boolean {
  const pid = Number(/^copy-(\d+)-/.exec(name)?.[1] ?? NaN);
  if (Number.isNaN(pid)) return false;
  if (pid === process.pid) return !ownCopies.has(name.replace(/\.wal$/, ''));
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    // EPERM: another user's process runs with that id.
    return (e as NodeJS.ErrnoException).code !== 'EPERM';
  }
}

/** A copy's file of this process's own in `dir`; those of earlier processes are removed first. */
function temporaryFile(dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) if (leftBehind(name)) rmSync(join(dir, name), { force: true });
  const name = `copy-${process.pid}-${randomUUID()}.duckdb`;
  ownCopies.add(name);
  return join(dir, name);
}

export interface CopyFile {
  instance: DuckDBInstance;
  /** Removes a `temporary` copy's files, once its instance is closed. */
  release(): void;
}

/** Opens the copy's DuckDB (`file`: a path, `:memory:` or `temporary`) with `settings`. */
export async function openCopyFile(
  file: string,
  settings: Record<string, string>,
  logger: Logger,
  tempDirectory?: string,
): Promise<CopyFile> {
  const temporary = file === 'temporary';
  const path = temporary ? temporaryFile(tempDirectory ?? tmpdir()) : file;
  const files = [path, `${path}.wal`];
  const release = () => {
    if (!temporary) return;
    for (const f of files) rmSync(f, { force: true });
    ownCopies.delete(basename(path));
  };
  try {
    // A replica's folder beside PostgreSQL is made on first use, as the embedded store's is.
    if (!temporary && path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    return { instance: await DuckDBInstance.create(path, settings), release };
  } catch (e) {
    if (path === ':memory:') throw e;
    // Another process holds the file (a server, beside which a command runs; or another replica given the same
    // file, which must not be): that copy is left to it, this process makes its own.
    if (!temporary && /Could not set lock on file/.test(errorText(e))) {
      logger.info('the analytics copy is in use by another process; this one makes a copy of its own', {
        file,
        note: 'a command beside the server is expected; a replica needs a file of its own (ANALYTICS_FILE or DATA_DIR), else its copy is made again at each start',
      });
      return openCopyFile('temporary', settings, logger, tempDirectory);
    }
    logger.error('the analytics copy could not be opened; it is made again from the store', {
      file: path,
      error: errorText(e),
    });
    for (const f of files) rmSync(f, { force: true });
    return { instance: await DuckDBInstance.create(path, settings), release };
  }
}
