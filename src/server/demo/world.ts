/** The simulated data of one demo "today": built a part at a time or in one go, replaced when the day changes. */
import { dayToMs, type Day } from '../../lib/dates';
import type { DemoConfig } from './config';
import { finish, orgParts, personaParts, type Org } from './org';
import type { Persona } from './persona';
import { buildReadiness, type ReadinessData } from './readiness';
import { hashSeed } from './rng';

export interface World {
  today: Day;
  orgId: string;
  org: Org;
  readiness: ReadinessData;
}

/** Who is in the organization and its repositories, without their days: what the demo's team mapping needs. */
export interface People {
  today: Day;
  users: Persona[];
  readiness: ReadinessData;
}

/**
 * The world of `today`, a person at a time (see `orgParts`): its people first, given to `made` as soon as they
 * are, then their days.
 */
export function* worldParts(
  config: DemoConfig,
  today: Day,
  made: (p: People) => void = () => {},
): Generator<void, World> {
  const users = yield* personaParts({ seed: config.seed, users: config.users, today });
  const readiness = buildReadiness({
    seed: config.seed,
    repos: config.repos,
    maxReports: config.reportsPerRepo,
    todayMs: dayToMs(today),
  });
  made({ today, users, readiness });
  const org = yield* orgParts({ seed: config.seed, users: config.users, today, personas: users });
  return { today, orgId: `org_${hashSeed(config.seed, 'org').toString(36)}`, org, readiness };
}

export function buildWorld(config: DemoConfig, today: Day): World {
  return finish(worldParts(config, today));
}
