/** The demo service's settings, from DEMO_* environment variables. */
import { isDay, type Day } from '../../lib/dates';
import { intSetting } from '../core/config';
import { DEFAULT_KEYS, ROLES, type Role } from './auth';
import { parseFaults, type FaultRule } from './faults';

export interface DemoConfig {
  seed: string;
  users: number;
  repos: number;
  /** Reports per repository at most. */
  reportsPerRepo: number;
  /** Pinned "today" (YYYY-MM-DD); undefined follows the real UTC clock. */
  today: Day | undefined;
  keys: ReadonlyMap<string, Role>;
  /** Fault injection (faults.ts); none by default. */
  faults?: FaultRule[];
  latencyMs?: number;
  hostile?: boolean;
  /** Finished bodies kept for repeated requests, in characters (default 256 Mi); 0 keeps none. */
  cacheChars?: number;
}

export function readDemoConfig(env: NodeJS.ProcessEnv = process.env): DemoConfig {
  const today = env.DEMO_TODAY || undefined;
  if (today !== undefined && !isDay(today)) throw new Error('DEMO_TODAY must be a day written YYYY-MM-DD');
  let keys = DEFAULT_KEYS;
  if (env.DEMO_KEYS) {
    const m = new Map<string, Role>();
    for (const pair of env.DEMO_KEYS.split(',')) {
      const [k, role] = pair.split(':').map((s) => s.trim());
      if (!k || !(ROLES as readonly string[]).includes(role ?? '')) {
        throw new Error('DEMO_KEYS must look like "key:owner,key2:member"');
      }
      m.set(k, role as Role);
    }
    keys = m;
  }
  return {
    seed: env.DEMO_SEED || 'acme',
    users: intSetting(env, 'DEMO_USERS', 150, 0, 100_000),
    repos: intSetting(env, 'DEMO_REPOS', 25, 0, 10_000),
    reportsPerRepo: intSetting(env, 'DEMO_REPORTS_PER_REPO', 20, 1, 500),
    today,
    keys,
    faults: parseFaults(env.DEMO_FAULTS),
    latencyMs: intSetting(env, 'DEMO_LATENCY_MS', 0, 0, 600_000),
    hostile: env.DEMO_HOSTILE === '1' || env.DEMO_HOSTILE === 'true',
  };
}
