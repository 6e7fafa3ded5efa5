/**
 * The store of the upstream the server reads (main.ts, the commands and the tests open it before the app): one
 * embedded file per upstream, or a shared PostgreSQL that refuses a second upstream.
 */
import { createHash } from 'node:crypto';
import type { ServerConfig } from './config';
import type { StoreConfig } from './store/config';
import { openStore, type StoreDb } from './store/db';
import { claimStore } from './store/queries';

/** Which upstream a store holds: its hosts, or the demo's seed and size (and whatever changes its data). */
export function upstreamIdentity(config: ServerConfig): string {
  const d = config.demo;
  if (d) {
    const extra = `${d.today ? ` today=${d.today}` : ''}${d.hostile ? ' hostile' : ''}`;
    return `demo seed=${d.seed} users=${d.users} repos=${d.repos} reports=${d.reportsPerRepo}${extra}`;
  }
  // The key names the organization as much as the host does: another key is another store (by a fingerprint,
  // never the key itself).
  const key = config.apiKey ? createHash('sha256').update(config.apiKey).digest('hex').slice(0, 12) : '-';
  return `service analytics=${config.analyticsBaseUrl?.href ?? '-'} readiness=${config.readinessBaseUrl?.href ?? '-'} key=${key}`;
}

/**
 * The store, when the server holds the key (`API_KEY`, or the demo's own): with
 * keys pasted by each user the server stays a pass-through and stores nothing,
 * so one key's answers are never served to another. The embedded store keeps
 * one file per upstream; a shared PostgreSQL refuses a second upstream.
 */
export async function openAppStore(config: ServerConfig, store: StoreConfig): Promise<StoreDb | undefined> {
  if (!config.demo && !config.apiKey) return undefined;
  const identity = upstreamIdentity(config);
  const file = `store-${createHash('sha256').update(identity).digest('hex').slice(0, 12)}.sqlite`;
  const db = await openStore({ databaseUrl: store.databaseUrl, dataDir: store.dataDir, file });
  try {
    await claimStore(db.db, identity);
  } catch (e) {
    await db.close();
    throw e;
  }
  return db;
}
