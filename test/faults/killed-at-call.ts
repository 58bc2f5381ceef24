import type { S3Client } from '@aws-sdk/client-s3';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { handlerStore } from './fault-client.js';
import { NO_FAULTS } from './fault-plan.js';
import { HandlerLife } from './handler-life.js';
import { Crash } from './injected-faults.js';
import { seededRng } from './seeded-rng.js';

const MUTATING = new Set(['PutObjectCommand', 'CopyObjectCommand', 'DeleteObjectCommand', 'CreateMultipartUploadCommand', 'UploadPartCommand', 'CompleteMultipartUploadCommand']);

/** Where the process is killed: before its k-th storage request of any kind is sent, or once S3 applied its k-th mutating request. */
export type KillPoint = 'before' | 'after';

/**
 * A store over the real SDK whose process is killed at its k-th request (see KillPoint): no later
 * request reaches S3, as when a CLI is killed. `calls()` counts the requests that counted for k.
 */
export function storeKilledAt(endpoint: string, bucket: string, k: number, point: KillPoint): ObjectStore & { readonly calls: () => number; readonly killed: () => boolean } {
  const life = new HandlerLife(`killed at request ${k} (${point})`);
  const state = { calls: 0 };
  const store = handlerStore(endpoint, bucket, { plan: NO_FAULTS, rng: seededRng(k), life, configure: (client) => killAt(client, k, point, life, state) });
  return Object.assign(store, { calls: () => state.calls, killed: () => life.dead });
}

function killAt(client: S3Client, k: number, point: KillPoint, life: HandlerLife, state: { calls: number }): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (life.dead) throw new Crash('the process is dead');
      const command = context.commandName ?? '';
      if (point === 'before' || MUTATING.has(command)) state.calls += 1;
      if (state.calls !== k || (point === 'after' && !MUTATING.has(command))) return next(args);
      if (point === 'before') {
        life.dead = true;
        throw new Crash(`killed before request ${k} (${command})`);
      }
      const result = await next(args);
      (result.response as { body?: { destroy?: () => void } }).body?.destroy?.();
      life.dead = true;
      throw new Crash(`killed after request ${k} (${command}) was applied`);
    },
    { step: 'deserialize', priority: 'low', name: 'killAt' },
  );
}
