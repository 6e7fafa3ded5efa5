/**
 * Where the team mapping in force comes from: the file named by TEAMS_FILE
 * (read again whenever it changes), or the demo organization's own mapping.
 * A file that does not parse is refused with its errors and the mapping in
 * force stays as it was: a typo never empties every team.
 */
import { readFileSync, statSync, unwatchFile, watchFile } from 'node:fs';
import { basename, extname } from 'node:path';
import type { Logger } from '../core/log';
import { parseMapping, type Mapping, type MappingError, type MappingFormat } from './mapping';

export interface MappingState {
  mapping: Mapping | null;
  /** `file` (TEAMS_FILE, read-only here), `demo`, or `none`. */
  source: 'file' | 'demo' | 'none';
  /** The file's name (never its directory), for the admin screen. */
  name: string | null;
  loadedAt: string | null;
  /** The last version refused, with why; the mapping in force is unchanged by it. */
  refused: { at: string; errors: MappingError[] } | null;
}

export interface MappingSource {
  current(): MappingState;
  stop(): void;
}

export const formatOf = (path: string): MappingFormat => (extname(path).toLowerCase() === '.json' ? 'json' : 'csv');

/** A fixed mapping (the demo's), parsed once through the same parser as any file. */
export function fixedMappingSource(text: string, format: MappingFormat, name: string): MappingSource {
  const result = parseMapping(text, format);
  const at = new Date().toISOString();
  const state: MappingState = result.ok
    ? { mapping: result.mapping, source: 'demo', name, loadedAt: at, refused: null }
    : { mapping: null, source: 'demo', name, loadedAt: null, refused: { at, errors: result.errors } };
  return { current: () => state, stop() {} };
}

/**
 * TEAMS_FILE, read now and again each time it changes (polled: a watch that
 * survives editors replacing the file and network file systems). Start-up
 * refuses a bad file outright, so a deployment never starts on a broken one.
 */
export function fileMappingSource(path: string, logger: Logger, pollMs = 1000): MappingSource {
  const name = basename(path);
  let state: MappingState = { mapping: null, source: 'file', name, loadedAt: null, refused: null };

  function load(): boolean {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      const errors = [
        { line: null, message: `the file cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})` },
      ];
      state = { ...state, refused: { at: new Date().toISOString(), errors } };
      logger.error('team mapping refused', { file: name, errors: errors.map((x) => x.message) });
      return false;
    }
    const result = parseMapping(text, formatOf(path));
    const at = new Date().toISOString();
    if (!result.ok) {
      state = { ...state, refused: { at, errors: result.errors } };
      logger.error('team mapping refused; the mapping in force stays', {
        file: name,
        errors: result.errors.slice(0, 20).map((x) => x.message),
      });
      return false;
    }
    state = { mapping: result.mapping, source: 'file', name, loadedAt: at, refused: null };
    logger.info('team mapping loaded', {
      file: name,
      members: result.mapping.members.length,
      teams: result.mapping.teams.length,
    });
    return true;
  }

  statSync(path); // a missing file is a configuration error: say so at start
  if (!load()) {
    const first = state.refused!.errors.slice(0, 5).map((e) => e.message);
    throw new Error(`TEAMS_FILE ${name} was refused: ${first.join('; ')}`);
  }
  const onChange = (now: { mtimeMs: number; size: number }, before: { mtimeMs: number; size: number }) => {
    if (now.mtimeMs !== before.mtimeMs || now.size !== before.size) load();
  };
  watchFile(path, { interval: pollMs, persistent: false }, onChange);
  return { current: () => state, stop: () => unwatchFile(path, onChange) };
}
