import { S3Client } from '@aws-sdk/client-s3';
import { Agent } from 'node:http';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { fastRetries } from './fast-retries.js';
import { attachFaults, type FaultHooks } from './fault-middleware.js';
import type { FaultPlan } from './fault-plan.js';
import type { HandlerLife } from './handler-life.js';
import type { Rng } from './seeded-rng.js';

/** The SDK's default attempt count: an injected 503 or 500 gets the retries a real one would. */
export const MAX_ATTEMPTS = 3;

/**
 * Keep-alive sockets shared by every handler's client, so a thousand runs do not open a thousand
 * pools. Clients are never destroyed: that would destroy this agent under the other handlers.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/**
 * The store one handler uses: its own S3 client (as each Lambda invocation has) with the plan's
 * faults attached. Settings as createS3Client gives an emulator client, plus fast retries, which
 * createS3Client does not take as an option.
 */
export function handlerStore(endpoint: string, bucket: string, faults: { plan: FaultPlan; rng: Rng; life: HandlerLife; hooks?: FaultHooks; configure?: (client: S3Client) => void }): ObjectStore {
  const client = new S3Client({
    endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: MAX_ATTEMPTS,
    retryStrategy: fastRetries(MAX_ATTEMPTS),
    requestHandler: { httpAgent: agent, requestTimeout: 30_000 },
  });
  attachFaults(client, faults.plan, faults.rng, faults.life, faults.hooks);
  faults.configure?.(client);
  return s3ObjectStore({ client, bucket });
}

/** Ends the shared keep-alive sockets once every run is over. */
export function closeHandlerSockets(): void {
  agent.destroy();
}
