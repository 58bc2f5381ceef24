import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processMarker } from '../../lib/gate/process-marker.js';
import { startS3Emulator, type S3Emulator } from '../../lib/local/s3-emulator.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { dropExample, gateDeps, NOW } from '../fixtures/gate-fixture.js';
import { storeWithOneFault, type OneFault } from './one-fault.js';

/**
 * A bug the fault harness found: the notice claim (`_gate/notices/...`, a conditional create)
 * is treated as "another handler claimed it" whenever its PUT fails with a failed condition. A
 * claim this handler itself wrote (the SDK retried a PUT that S3 had applied, and got 412), a 409
 * ConditionalRequestConflict (nothing was written), or a claim left by a handler that died before
 * calling SNS all end the same way: the drop is carried out, the marker removed, and no owner is
 * ever notified.
 */
let dir: string;
let emulator: S3Emulator;
let store: ObjectStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-claim-'));
  emulator = await startS3Emulator({ dir, buckets: ['lake'] });
  store = s3ObjectStore({ client: createS3Client({ endpoint: emulator.endpoint }), bucket: 'lake' });
});
afterAll(async () => {
  await emulator.stop();
  rmSync(dir, { recursive: true, force: true });
});

// A crash after the claim landed is the test below: the next delivery sends the notice.
const FAULTS: readonly OneFault[] = ['reset after applied', '409 ConditionalRequestConflict'];

describe('the notice claim meeting one S3 fault', () => {
  it.each(FAULTS.map((fault, day) => [fault, day + 1] as const))('still notifies the owner exactly once after a %s on the claim', async (fault, day) => {
    const prefix = `staging/orders/v1/dt=2026-09-${String(day).padStart(2, '0')}/`;
    await dropExample(store, 'good', prefix);
    const faulty = storeWithOneFault(emulator.endpoint, 'lake', fault, (command, key) => command === 'PutObjectCommand' && key.startsWith('_gate/notices/'));
    const deps = gateDeps(faulty);
    await processMarker(deps, `${prefix}_READY`).catch(() => undefined);
    expect(faulty.hit()).toBe(true);
    // Redeliveries until one finds the drop done, each after a visibility timeout (past any lease
    // a fix may put on a claim, so that a dead claimant's notice can be taken over).
    for (let delivery = 1; delivery <= 3; delivery++) {
      const later = { ...deps, store, clock: () => NOW + delivery * 20 * 60_000 };
      if ((await processMarker(later, `${prefix}_READY`)).status === 'nothing_to_do') break;
    }
    expect(await store.head(`${prefix}_READY`)).toBeUndefined();
    expect(deps.notifier.notices).toHaveLength(1);
  });
});

describe('the notice claim after a handler died holding it', () => {
  it('sends the notice on the next delivery, once: the claim said "sending", and the lease says its holder is gone', async () => {
    const prefix = 'staging/orders/v1/dt=2026-09-20/';
    await dropExample(store, 'good', prefix);
    const faulty = storeWithOneFault(emulator.endpoint, 'lake', 'crash after applied', (command, key) => command === 'PutObjectCommand' && key.startsWith('_gate/notices/'));
    const deps = gateDeps(faulty);
    await expect(processMarker(deps, `${prefix}_READY`)).rejects.toThrow();
    expect(faulty.hit()).toBe(true);
    for (let delivery = 1; delivery <= 3; delivery++) {
      const later = { ...deps, store, clock: () => NOW + delivery * 20 * 60_000 };
      if ((await processMarker(later, `${prefix}_READY`)).status === 'nothing_to_do') break;
    }
    expect(await store.head(`${prefix}_READY`)).toBeUndefined();
    expect(deps.notifier.notices).toHaveLength(1);
  });
});
