import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseDecision } from '../../lib/gate/decision.js';
import { processMarker } from '../../lib/gate/process-marker.js';
import { startS3Emulator, type S3Emulator } from '../../lib/local/s3-emulator.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { readWhole, type ObjectStore } from '../../lib/storage/object-store.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { dropExample, gateDeps, GOOD_PREFIX, NOW } from '../fixtures/gate-fixture.js';
import { listed } from './bucket-observer.js';
import { storeWithOneFault } from './one-fault.js';

/**
 * A bug the fault harness's chaos runs found (seeds 109, 120, 208, … of 1,000): S3's 409
 * ConditionalRequestConflict on the pinned copy or delete of a staged file read as "the producer
 * changed the file". The delete was skipped, so the file stayed staged after the drop was
 * published and its marker removed; the copy superseded a drop that stands.
 */
let dir: string;
let emulator: S3Emulator;
let store: ObjectStore;

// A bucket of its own for each case: both drop the good example on its own day.
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-pinned-'));
  emulator = await startS3Emulator({ dir, buckets: ['lake'] });
  store = s3ObjectStore({ client: createS3Client({ endpoint: emulator.endpoint }), bucket: 'lake' });
});
afterEach(async () => {
  await emulator.stop();
  rmSync(dir, { recursive: true, force: true });
});

const CASES = [
  { call: 'the delete of a staged file', command: 'DeleteObjectCommand', place: 'staging/' },
  { call: 'the copy of a staged file', command: 'CopyObjectCommand', place: 'published/' },
] as const;

describe('a 409 ConditionalRequestConflict on a pinned step of a publish', () => {
  it.each(CASES.map((c) => [c.call, c] as const))('after one on %s, redelivery publishes the drop and leaves nothing staged', async (_, c) => {
    const prefix = GOOD_PREFIX;
    const partition = prefix.split('/').at(-2)!;
    await dropExample(store, 'good', prefix);
    const faulty = storeWithOneFault(emulator.endpoint, 'lake', '409 ConditionalRequestConflict', (command, key) => command === c.command && key.startsWith(c.place) && key.endsWith('.parquet'));
    await processMarker(gateDeps(faulty), `${prefix}_READY`).catch(() => undefined);
    expect(faulty.hit()).toBe(true);
    for (let delivery = 1; delivery <= 3; delivery++) {
      const later = { ...gateDeps(store), clock: () => NOW + delivery * 20 * 60_000 };
      if ((await processMarker(later, `${prefix}_READY`)).status === 'nothing_to_do') break;
    }
    const decisions = await listed(store, `_gate/decisions/orders/v1/${partition}/`);
    expect(decisions).toHaveLength(1);
    const decision = parseDecision(new TextDecoder().decode(await readWhole(store, decisions[0]!.key)));
    expect(decision?.outcome).toBe('publish');
    expect((await listed(store, prefix)).map((o) => o.key)).toEqual([]);
    expect((await listed(store, `published/orders/v1/${partition}/`)).map((o) => o.key.split('/').pop()).sort()).toEqual(['_SUCCESS', 'part-0000.parquet', 'part-0001.parquet']);
  });
});
