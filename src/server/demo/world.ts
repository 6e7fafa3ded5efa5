/** The simulated data of one demo "today": built in one go, replaced when the day changes. */
import { dayToMs, type Day } from '../../lib/dates';
import type { DemoConfig } from './config';
import { buildOrg, type Org } from './org';
import { buildReadiness, type ReadinessData } from './readiness';
import { hashSeed } from './rng';

export interface World {
  today: Day;
  orgId: string;
  org: Org;
  readiness: ReadinessData;
}

export function buildWorld(config: DemoConfig, today: Day): World {
  return {
    today,
    orgId: `org_${hashSeed(config.seed, 'org').toString(36)}`,
    org: buildOrg({ seed: config.seed, users: config.users, today }),
    readiness: buildReadiness({
      seed: config.seed,
      repos: config.repos,
      maxReports: config.reportsPerRepo,
      todayMs: dayToMs(today),
    }),
  };
}
