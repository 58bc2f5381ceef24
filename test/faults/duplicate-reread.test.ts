import type { S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processMarker } from '../../lib/gate/process-marker.js';
import { startS3Emulator, type S3Emulator } from '../../lib/local/s3-emulator.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { gateDeps } from '../fixtures/gate-fixture.js';
import { handlerStore } from './fault-client.js';
import { NO_FAULTS } from './fault-plan.js';
import { stageDrop } from './five-file-drop.js';
import { HandlerLife } from './handler-life.js';
import { errorResponse } from './injected-faults.js';
import { seededRng } from './seeded-rng.js';

/**
 * Found by the fault harness: uniqueness is confirmed by reading the rows whose key hashes
 * collided a second time (checks/confirm-duplicates.ts). When a storage error in that re-read
 * was taken for an unreadable file (swallowed there, or wrapped as UnreadableError by the row
 * reader in formats/parquet-rows.ts), a 503 past the SDK's retries left the duplicates
 * unconfirmed and a drop that breaks the contract's grain was decided "publish", a decision no
 * redelivery revisits. The storage error must fail the handler, so a redelivery decides again.
 */
let dir: string;
let emulator: S3Emulator;
let store: ObjectStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-reread-'));
  emulator = await startS3Emulator({ dir, buckets: ['lake'] });
  store = clientStore();
});
afterAll(async () => {
  await emulator.stop();
  rmSync(dir, { recursive: true, force: true });
});

function clientStore(configure?: (client: S3Client) => void): ObjectStore {
  return handlerStore(emulator.endpoint, 'lake', { plan: NO_FAULTS, rng: seededRng(0), life: new HandlerLife('client'), ...(configure ? { configure } : {}) });
}

/**
 * S3 answers 503 SlowDown, every attempt, to the row reads of the second pass: a file's first
 * GET is its footer; once that footer is asked for again (the second pass opening the file),
 * any other range of that file is throttled. The footer itself still succeeds, so the failure
 * lands in the row read, not in opening the file.
 */
function rowRereadsThrottled(client: S3Client): void {
  const footers = new Map<string, string>();
  const rereading = new Set<string>();
  client.middlewareStack.add(
    (next) => async (args) => {
      const { Key = '', Range = '' } = args.input as { Key?: string; Range?: string };
      if (!Key.endsWith('.parquet')) return next(args);
      if (!footers.has(Key)) footers.set(Key, Range);
      else if (footers.get(Key) === Range) rereading.add(Key);
      else if (rereading.has(Key)) return { response: errorResponse({ status: 503, code: 'SlowDown' }, 'GET') };
      return next(args);
    },
    { step: 'deserialize', priority: 'low', name: 'rowRereadsThrottled' },
  );
}

describe('a drop with a repeated business key', () => {
  it('is never published because S3 throttled the row re-read that confirms the duplicate, and a redelivery quarantines it', async () => {
    const drop = await stageDrop(store, 'duplicate', 'dt=2026-12-01', false);
    await processMarker(gateDeps(clientStore(rowRereadsThrottled)), drop.marker).catch(() => undefined);
    expect(await store.head(`published/orders/v1/${drop.partition}/_SUCCESS`)).toBeUndefined();
    const redelivered = await processMarker(gateDeps(store), drop.marker);
    expect(redelivered.status).toBe('quarantined');
  });
});
