import { DEFAULT_LAYOUT, type GateLayout } from '../lib/gate/gate-layout.js';

/** The bucket layout from the environment the deployment sets, defaults where unset. */
export function layoutFrom(env: NodeJS.ProcessEnv): GateLayout {
  return {
    ...DEFAULT_LAYOUT,
    ...(env.GATE_STAGING_PREFIX ? { staging: env.GATE_STAGING_PREFIX } : {}),
    ...(env.GATE_PUBLISHED_PREFIX ? { published: env.GATE_PUBLISHED_PREFIX } : {}),
    ...(env.GATE_QUARANTINE_PREFIX ? { quarantine: env.GATE_QUARANTINE_PREFIX } : {}),
    ...(env.GATE_STATE_PREFIX ? { state: env.GATE_STATE_PREFIX } : {}),
    ...(env.GATE_MARKER ? { marker: env.GATE_MARKER } : {}),
  };
}

export function requiredEnv(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`this function needs the ${name} environment variable`);
  return value;
}
