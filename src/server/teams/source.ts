/**
 * Where the team mapping in force comes from: the file named by TEAMS_FILE
 * (read again whenever it changes), or the demo organization's own mapping.
 * A file that does not parse is refused with its errors and the mapping in
 * force stays as it was: a typo never empties every team.
 */
import { statSync, unwatchFile, watchFile } from 'node:fs';
import { basename, extname } from 'node:path';
import type { Logger } from '../core/log';
import { readSettingsFile } from '../core/text';
import type { StoreDb } from '../store/db';
import { deleteStoredMapping, readStoredMapping, storedMappingTime, writeStoredMapping } from '../store/teams-queries';
import { parseMapping, type Mapping, type MappingError, type MappingFormat } from './mapping';
import { parentOf, teamResolver, UNASSIGNED } from './tree';

export interface MappingState {
  mapping: Mapping | null;
  /** `file` (TEAMS_FILE, read-only here), `store` (uploaded on the edit screen), `demo`, or `none`. */
  source: 'file' | 'store' | 'demo' | 'none';
  /** The mapping in force as text, and its format (for the edit screen). */
  text: string | null;
  format: MappingFormat;
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

/**
 * What `text` puts in force from `source` when it parses (at `at`), else what says it was refused (nothing in
 * force from it, no text, the format as none has it).
 */
function stateOf(
  source: MappingState['source'],
  name: string,
  text: string,
  format: MappingFormat,
  at: string,
): MappingState {
  const result = parseMapping(text, format);
  return result.ok
    ? { mapping: result.mapping, source, name, loadedAt: at, refused: null, text, format }
    : { ...NO_MAPPING, source, name, refused: { at, errors: result.errors } };
}

/** A fixed mapping (the demo's), parsed once through the same parser as any file. */
export function fixedMappingSource(text: string, format: MappingFormat, name: string): MappingSource {
  const state = stateOf('demo', name, text, format, new Date().toISOString());
  return { current: () => state, stop() {} };
}

/**
 * TEAMS_FILE, read now and again each time it changes (polled: a watch that
 * survives editors replacing the file and network file systems). Start-up
 * refuses a bad file outright, so a deployment never starts on a broken one.
 */
export function fileMappingSource(path: string, logger: Logger, pollMs = 1000): MappingSource {
  const name = basename(path);
  const format = formatOf(path);
  let state: MappingState = { mapping: null, source: 'file', name, loadedAt: null, refused: null, text: null, format };

  function load(): boolean {
    const read = readSettingsFile(path);
    const text = 'text' in read ? read.text : '';
    const result = 'errors' in read ? { ok: false as const, errors: read.errors } : parseMapping(text, format);
    const at = new Date().toISOString();
    if (!result.ok) {
      state = { ...state, refused: { at, errors: result.errors } };
      logger.error('team mapping refused; the mapping in force stays', {
        file: name,
        errors: result.errors.slice(0, 20).map((x) => x.message),
      });
      return false;
    }
    state = { mapping: result.mapping, source: 'file', name, loadedAt: at, refused: null, text, format };
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

export const NO_MAPPING: MappingState = {
  mapping: null,
  source: 'none',
  name: null,
  loadedAt: null,
  refused: null,
  text: null,
  format: 'csv',
};

/** What saving a mapping on the edit screen did. */
export type SaveResult = { ok: true; state: MappingState } | { ok: false; errors: MappingError[] };

export interface EditableMappingSource extends MappingSource {
  /** Parses and, when it parses, stores the mapping and puts it in force; a refusal changes nothing in force. */
  save(text: string, format: MappingFormat, name: string): Promise<SaveResult>;
  /** Forgets the stored mapping: the fallback (the demo's, or none) is in force again. */
  remove(): Promise<boolean>;
  /** Reads the store again (another replica may have saved); also done every `pollMs`. */
  refresh(): Promise<void>;
  /** Settles once the store's mapping was first read: until then `current()` is the fallback. */
  ready: Promise<void>;
  /** Whether the store's mapping has been read once (at start, or by a later look if that one failed). */
  loaded(): boolean;
}

/**
 * The mapping uploaded on the edit screen, kept in the store so that it survives restarts and every
 * replica sharing the store uses it (each looks for a newer one every few seconds); `fallback` (the
 * demo's mapping, or none) is in force while nothing is stored.
 */
export function storedMappingSource(
  store: StoreDb,
  fallback: () => MappingState,
  logger: Logger,
  pollMs = 5000,
): EditableMappingSource {
  let stored: MappingState | null = null;
  let storedAt: string | null = null;
  let refused: MappingState['refused'] = null;

  // A save or a removal here bumps this: a read of the store that began before it is stale.
  let generation = 0;

  async function refresh() {
    const began = generation;
    const at = await storedMappingTime(store.db);
    if (began !== generation) return;
    if (at !== undefined && at === storedAt) return;
    const row = at === undefined ? undefined : await readStoredMapping(store.db);
    if (began !== generation) return;
    if (!row) {
      stored = null;
      storedAt = null;
      return;
    }
    if (row.updated_at === storedAt) return;
    storedAt = row.updated_at;
    // The store only ever holds a mapping that parsed; one that no longer does (a newer parser) is reported.
    stored = stateOf('store', row.name, row.text, row.format === 'json' ? 'json' : 'csv', row.updated_at);
  }
  let loaded = false;
  const look = () =>
    refresh().then(
      () => void (loaded = true),
      (e: unknown) => logger.error('team mapping: the store could not be read', { error: String(e) }),
    );
  const ready = look();
  const timer = setInterval(() => void look(), pollMs);
  timer.unref?.();

  return {
    ready,
    loaded: () => loaded,
    current() {
      const base = stored ?? fallback();
      return refused ? { ...base, refused } : base;
    },
    async save(text, format, name) {
      const result = parseMapping(text, format);
      const at = new Date().toISOString();
      if (!result.ok) {
        refused = { at, errors: result.errors };
        logger.info('team mapping refused; the mapping in force stays', {
          name,
          errors: result.errors.slice(0, 20).map((e) => e.message),
        });
        return { ok: false, errors: result.errors };
      }
      generation++;
      await writeStoredMapping(store.db, { format, text, name, updated_at: at });
      refused = null;
      stored = { mapping: result.mapping, source: 'store', name, loadedAt: at, refused: null, text, format };
      storedAt = at;
      logger.info('team mapping saved', {
        name,
        members: result.mapping.members.length,
        teams: result.mapping.teams.length,
      });
      return { ok: true, state: stored };
    },
    async remove() {
      generation++;
      const removed = await deleteStoredMapping(store.db);
      stored = null;
      storedAt = null;
      refused = null;
      if (removed) logger.info('team mapping removed');
      return removed;
    },
    refresh,
    stop: () => clearInterval(timer),
  };
}

/** Where a person sits: their team and its managers (the nearest team up the tree that names some). */
export interface Place {
  team: string;
  managers: string[];
}

/**
 * Each person's place by the mapping in force, with a version that changes with the mapping; null without one.
 */
export function placeOf(source: MappingSource) {
  const made = new WeakMap<
    Mapping,
    { of: (userId: string, email: string | null) => Place; managersOf: (team: string) => string[] }
  >();
  return (): {
    mapping: Mapping;
    of: (userId: string, email: string | null) => Place;
    managersOf: (team: string) => string[];
    version: string;
  } | null => {
    const state = source.current();
    const mapping = state.mapping;
    if (!mapping) return null;
    let of = made.get(mapping);
    if (!of) {
      const resolve = teamResolver(mapping);
      const managersOf = (team: string): string[] => {
        for (let t: string | null = team; t !== null && t !== UNASSIGNED; t = parentOf(t)) {
          const m = mapping.managers.get(t);
          if (m && m.size > 0) return [...m].sort();
        }
        return [];
      };
      of = {
        of: (userId, email) => {
          const team = resolve(userId, email);
          return { team, managers: managersOf(team) };
        },
        managersOf,
      };
      made.set(mapping, of);
    }
    return { mapping, ...of, version: `${state.source}|${state.name ?? ''}|${state.loadedAt ?? ''}` };
  };
}

/**
 * The mapping in force: the file `file` names (read-only here), else one uploaded on the edit screen and kept in
 * the store (`editable`), else the demo organization's own (`demo` gives its CSV; built on first use, or a moment
 * after start with `buildAhead`), else none.
 */
export function mappingInForce(o: {
  file: string | undefined;
  store: StoreDb | undefined;
  logger: Logger;
  demo: (() => string) | undefined;
  buildAhead: boolean;
}): { teams: MappingSource; editable: EditableMappingSource | undefined } {
  let demoMapping: MappingSource | undefined;
  const demo = o.demo;
  const fallback = (): MappingState => {
    if (!demo) return NO_MAPPING;
    demoMapping ??= fixedMappingSource(demo(), 'csv', 'the demo organization');
    return demoMapping.current();
  };
  if (o.file) return { teams: fileMappingSource(o.file, o.logger), editable: undefined };
  if (demo && o.buildAhead) setTimeout(() => void fallback(), 1000).unref();
  const editable = o.store ? storedMappingSource(o.store, fallback, o.logger) : undefined;
  return { teams: editable ?? { current: fallback, stop: () => undefined }, editable };
}
