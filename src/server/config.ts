/**
 * The whole server's configuration: the core's settings, plus the demo
 * service's when no upstream is configured. It lives here, beside app.ts,
 * because only the composition root may know the demo exists.
 */
import { readCoreConfig, usesDemo, type CoreConfig } from './core/config';
import { readDemoConfig, type DemoConfig } from './demo/config';

export interface ServerConfig extends CoreConfig {
  demo: DemoConfig | undefined;
}

export function readServerConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const core = readCoreConfig(env);
  return { ...core, demo: usesDemo(core) ? readDemoConfig(env) : undefined };
}
