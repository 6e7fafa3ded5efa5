/**
 * The whole server's configuration: the core's settings, plus the demo
 * service's when no upstream is configured. It lives here, beside app.ts,
 * because only the composition root may know the demo exists.
 */
import { anonymousRefusal, readAuthConfig, type AuthConfig } from './auth/config';
import { DEFAULT_GRACE_DAYS } from '../lib/funnel';
import { intSetting, readCoreConfig, usesDemo, type CoreConfig } from './core/config';
import { readDemoConfig, type DemoConfig } from './demo/config';

export interface ServerConfig extends CoreConfig {
  demo: DemoConfig | undefined;
  /** Sign-in, when OIDC_ISSUER is set. */
  auth: AuthConfig | undefined;
  /** Days after a person's access during which the funnel counts them as new, not lagging (lib/funnel.ts). */
  onboardingGraceDays: number;
}

export function readServerConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const core = readCoreConfig(env);
  const auth = readAuthConfig(env);
  const refusal = anonymousRefusal(core, auth, env);
  if (refusal) throw new Error(refusal);
  const onboardingGraceDays = intSetting(env, 'ONBOARDING_GRACE_DAYS', DEFAULT_GRACE_DAYS, 0, 365);
  return { ...core, demo: usesDemo(core) ? readDemoConfig(env) : undefined, auth, onboardingGraceDays };
}
