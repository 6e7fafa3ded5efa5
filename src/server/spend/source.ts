/**
 * The price list in force: the file named by PRICES_FILE, read at start (a bad file stops the server,
 * naming its lines) and again each time it changes (a bad change is refused and logged, and the list
 * in force stays).
 */
import { statSync, unwatchFile, watchFile } from 'node:fs';
import { basename } from 'node:path';
import type { Logger } from '../core/log';
import { readSettingsFile } from '../core/text';
import { parsePrices, type PriceError, type PriceList } from './prices';

export interface PricesState {
  prices: PriceList | null;
  name: string | null;
  loadedAt: string | null;
  refused: { at: string; errors: PriceError[] } | null;
}

export interface PricesSource {
  current(): PricesState;
  stop(): void;
}

export const NO_PRICES: PricesSource = {
  current: () => ({ prices: null, name: null, loadedAt: null, refused: null }),
  stop: () => undefined,
};

export function filePricesSource(path: string, logger: Logger, pollMs = 1000): PricesSource {
  const name = basename(path);
  let state: PricesState = { prices: null, name, loadedAt: null, refused: null };

  function load(): boolean {
    const at = new Date().toISOString();
    const read = readSettingsFile(path);
    const result = 'text' in read ? parsePrices(read.text) : { ok: false as const, errors: read.errors };
    if (!result.ok) {
      state = { ...state, refused: { at, errors: result.errors } };
      logger.error('price list refused; the list in force stays', {
        file: name,
        errors: result.errors.slice(0, 20).map((x) => x.message),
      });
      return false;
    }
    state = { prices: result.prices, name, loadedAt: at, refused: null };
    logger.info('price list loaded', {
      file: name,
      currency: result.prices.currency,
      entries: result.prices.entries.length,
    });
    return true;
  }

  const stamp = () => {
    try {
      const st = statSync(path);
      return `${st.mtimeMs}|${st.size}`;
    } catch {
      return 'missing';
    }
  };
  statSync(path); // a missing file is a configuration error: say so at start
  let seen = stamp();
  if (!load()) {
    const first = state.refused!.errors.slice(0, 5).map((e) => e.message);
    throw new Error(`PRICES_FILE ${name} was refused: ${first.join('; ')}`);
  }
  /** Reads the file again if it changed since last looked at (at most once per poll interval). */
  let lookedAt = Date.now();
  const check = () => {
    lookedAt = Date.now();
    const now = stamp();
    if (now === seen) return;
    seen = now;
    load();
  };
  // Looked at on a timer (a change is logged without a reader) and when read, so a reader never
  // waits for the timer to see a change.
  const onChange = () => check();
  watchFile(path, { interval: pollMs, persistent: false }, onChange);
  return {
    current: () => {
      if (Date.now() - lookedAt >= pollMs) check();
      return state;
    },
    stop: () => unwatchFile(path, onChange),
  };
}
