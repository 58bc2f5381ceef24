import type { S3Client } from '@aws-sdk/client-s3';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { handlerStore } from './fault-client.js';
import { NO_FAULTS } from './fault-plan.js';
import { HandlerLife } from './handler-life.js';
import { connectionReset, Crash, errorResponse } from './injected-faults.js';
import { seededRng } from './seeded-rng.js';

export type OneFault = 'reset after applied' | '409 ConditionalRequestConflict' | 'crash after applied';

type Target = (command: string, key: string) => boolean;

/**
 * A store whose first request matching `target` (SDK command name and object key) meets one
 * fault; every other request goes through. For tests that pin a bug to one call.
 */
export function storeWithOneFault(endpoint: string, bucket: string, fault: OneFault, target: Target): ObjectStore & { readonly hit: () => boolean } {
  const life = new HandlerLife(`one fault: ${fault}`);
  const state = { hit: false };
  const store = handlerStore(endpoint, bucket, { plan: NO_FAULTS, rng: seededRng(0), life, configure: (client) => addOneFault(client, fault, target, life, state) });
  return Object.assign(store, { hit: () => state.hit });
}

function addOneFault(client: S3Client, fault: OneFault, target: Target, life: HandlerLife, state: { hit: boolean }): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      // After a crash nothing more reaches S3.
      if (life.dead) throw new Crash('the handler is dead');
      const key = (args.input as { Key?: string }).Key ?? '';
      if (state.hit || !target(context.commandName ?? '', key)) return next(args);
      state.hit = true;
      if (fault === '409 ConditionalRequestConflict') return { response: errorResponse({ status: 409, code: 'ConditionalRequestConflict' }, 'PUT') };
      const result = await next(args);
      (result.response as { body?: { destroy?: () => void } }).body?.destroy?.();
      if (fault === 'reset after applied') throw connectionReset();
      life.dead = true;
      throw new Crash(`crashed after ${key} was written`);
    },
    { step: 'deserialize', priority: 'low', name: 'oneFault' },
  );
}
