import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { ContractSource } from '../lib/gate/contract-registry.js';
import { DEFAULT_LAYOUT, type GateLayout } from '../lib/gate/gate-layout.js';
import type { Notifier } from '../lib/notify/notifier.js';
import { registryContracts } from '../lib/registry/registry-contracts.js';
import { registryPager } from '../lib/registry/registry-pager.js';
import { DEFAULT_REGISTRY_PREFIX } from '../lib/registry/registry-layout.js';
import { loadContractDirectory } from '../lib/storage/contract-directory.js';
import type { ObjectStore } from '../lib/storage/object-store.js';
import { createS3Client } from '../lib/storage/s3-client.js';
import { s3ObjectStore } from '../lib/storage/s3-object-store.js';
import { logger, type LambdaContext } from './observability.js';

export type { LambdaContext } from './observability.js';

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

/** The S3 store on GATE_BUCKET. */
export function gateStore(env: NodeJS.ProcessEnv): { bucket: string; store: ObjectStore } {
  const bucket = requiredEnv(env, 'GATE_BUCKET');
  // An explicit endpoint (a test, an S3-compatible store) needs path-style addressing; an empty one is none.
  return { bucket, store: s3ObjectStore({ client: createS3Client({ endpoint: env.AWS_ENDPOINT_URL_S3 || undefined }), bucket }) };
}

/**
 * Where the functions get their contracts. GATE_CONTRACTS_SOURCE=registry: the registry on the
 * gate's bucket under GATE_REGISTRY_PREFIX (`_contracts/`), looked at again after
 * GATE_CONTRACTS_REFRESH_SECONDS (10) and whenever a drop names a contract not seen yet.
 * Otherwise (`bundled`, the default of a function built before the registry) the files in
 * CONTRACTS_DIR, by default `contracts` beside the handler (its import.meta.dirname). With a
 * notifier, a registry pointer that is not enforced is paged once (see registryPager); without
 * one (the fan-out, which has no topic) it is logged only, and validate or the probe page it.
 */
export async function gateContracts(env: NodeJS.ProcessEnv, handlerDir: string | undefined, store: ObjectStore, notifier?: Notifier): Promise<ContractSource> {
  const source = env.GATE_CONTRACTS_SOURCE || 'bundled';
  if (source === 'bundled') return loadContractDirectory(env.CONTRACTS_DIR ?? join(handlerDir ?? '.', 'contracts'));
  if (source !== 'registry') throw new Error(`GATE_CONTRACTS_SOURCE must be bundled or registry, not ${source}`);
  const refreshSeconds = env.GATE_CONTRACTS_REFRESH_SECONDS === '0' ? 0 : (positiveEnv(env, 'GATE_CONTRACTS_REFRESH_SECONDS') ?? 10);
  const warn = (text: string) => logger.warn('a registered contract is not in force', { problem: text });
  const page = notifier ? registryPager({ store, notifier, layout: layoutFrom(env) }) : undefined;
  return registryContracts(store, { prefix: env.GATE_REGISTRY_PREFIX || DEFAULT_REGISTRY_PREFIX, refreshMs: refreshSeconds * 1000, warn, ...(page ? { page } : {}) });
}

/** When Lambda stops this invocation (epoch milliseconds); undefined without a context. */
export function lambdaDeadline(context: LambdaContext | undefined): number | undefined {
  return context ? Date.now() + context.getRemainingTimeInMillis() : undefined;
}

/**
 * Threads to check with: GATE_CHECK_THREADS, else one per 1,769 MB of the function's memory (a
 * full vCPU each), never more than the cores it sees: below 3,538 MB a second thread only splits
 * one vCPU's time and adds a heap.
 */
export function checkThreads(env: NodeJS.ProcessEnv): number {
  const set = positiveEnv(env, 'GATE_CHECK_THREADS');
  if (set !== undefined) return set;
  const memory = Number(env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE);
  const perMemory = Number.isFinite(memory) && memory > 0 ? Math.floor(memory / 1769) : 1;
  return Math.max(1, Math.min(perMemory, availableParallelism()));
}

/** A positive whole number from the environment; undefined when unset or empty. */
export function positiveEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  if (!env[name]) return undefined;
  const value = Number(env[name]);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, not ${env[name]}`);
  return value;
}
