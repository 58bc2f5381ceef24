import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startS3Emulator, type S3Emulator } from '../../lib/local/s3-emulator.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { startLoopbackSns } from '../fixtures/loopback-sns.js';

export interface HandlerEnvironment {
  readonly emulator: S3Emulator;
  readonly sns: Awaited<ReturnType<typeof startLoopbackSns>>;
  readonly store: ObjectStore;
  /** Stops both endpoints and gives the process its environment back. */
  stop(): Promise<void>;
}

/**
 * What a deployed handler finds around it: the bucket `lake` on the local S3 endpoint, a loopback
 * SNS topic, and the environment the stack sets (plus `env`), in place before the handler module
 * is imported, since it reads them once per cold start.
 */
export async function startHandlerEnvironment(env: Record<string, string> = {}): Promise<HandlerEnvironment> {
  const saved = { ...process.env };
  const emulator = await startS3Emulator({ dir: mkdtempSync(join(tmpdir(), 'cg-lambda-')), buckets: ['lake'] });
  const sns = await startLoopbackSns();
  Object.assign(process.env, {
    GATE_BUCKET: 'lake', GATE_TOPIC_ARN: 'arn:aws:sns:eu-west-1:123456789012:gate', CONTRACTS_DIR: 'contracts',
    AWS_ENDPOINT_URL_S3: emulator.endpoint, AWS_ENDPOINT_URL_SNS: sns.endpoint,
    AWS_ACCESS_KEY_ID: 'AKIDTEST', AWS_SECRET_ACCESS_KEY: 'secret', AWS_REGION: 'eu-west-1',
    ...env,
  });
  return {
    emulator,
    sns,
    store: s3ObjectStore({ client: createS3Client({ endpoint: emulator.endpoint }), bucket: 'lake' }),
    async stop() {
      process.env = saved;
      await sns.stop();
      await emulator.stop();
    },
  };
}
