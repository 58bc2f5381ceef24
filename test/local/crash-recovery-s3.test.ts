import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processMarker } from '../../lib/gate/process-marker.js';
import { startS3Emulator, type S3Emulator } from '../../lib/local/s3-emulator.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { Crash, crashingStore } from '../fixtures/crashing-store.js';
import { dropExample, gateDeps } from '../fixtures/gate-fixture.js';
import { expectNothingLost } from '../fixtures/no-loss.js';

let emulator: S3Emulator;
let store: ObjectStore;

beforeAll(async () => {
  emulator = await startS3Emulator({ dir: mkdtempSync(join(tmpdir(), 'cg-crash-')), buckets: ['lake'] });
  store = s3ObjectStore({ client: createS3Client({ endpoint: emulator.endpoint }), bucket: 'lake' });
});
afterAll(() => emulator.stop());

async function listKeys(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of store.list(prefix)) keys.push(object.key);
  return keys;
}

describe.each(['good', 'bad'] as const)('the gate over S3, a handler dying before each mutating call on a %s drop', (kind) => {
  it('converges on redelivery and never loses a staged byte', async () => {
    // Each crash point gets a partition of its own: a day of October (good) or November (bad).
    const month = kind === 'good' ? '10' : '11';
    const partitionFor = (n: number) => `dt=2026-${month}-${String(n).padStart(2, '0')}`;
    const prefixFor = (n: number) => `staging/orders/v1/${partitionFor(n)}/`;
    const baseline = crashingStore(store);
    await dropExample(store, kind, prefixFor(1));
    await processMarker(gateDeps(baseline), `${prefixFor(1)}_READY`);
    const normalised = async (partition: string) => (await listKeys('')).filter((k) => k.includes(`${partition}/`))
      .map((k) => k.replace(partition, '<partition>').replace(/\d{8}T\d{6}Z-[0-9a-f]{8}/, '<attempt>').replace(/[0-9a-f]{14}\.json$/, '<tag>.json'));
    const expected = await normalised(partitionFor(1));
    for (let crashAt = 1; crashAt <= baseline.mutations; crashAt++) {
      const partition = partitionFor(crashAt + 1);
      const prefix = prefixFor(crashAt + 1);
      const { files } = await dropExample(store, kind, prefix);
      const deps = gateDeps(crashingStore(store, crashAt));
      await expect(processMarker(deps, `${prefix}_READY`)).rejects.toBeInstanceOf(Crash);
      await expectNothingLost(store, files);
      // SQS redelivers after the visibility timeout, by when the dead handler's lease has expired.
      await processMarker({ ...deps, store, lease: { holder: 'redelivery', ttlMs: 60_000, takeOver: () => true } }, `${prefix}_READY`);
      await expectNothingLost(store, files);
      // A crash as the lease is released leaves it to expire; it is no record of the drop.
      const records = (await normalised(partition)).filter((key) => !key.startsWith('_gate/leases/'));
      expect({ crashAt, keys: records }).toEqual({ crashAt, keys: expected });
      // A crash between the send and the claim saying "sent" sends again, under the same id.
      expect({ crashAt, ids: [...new Set(deps.notifier.notices.map((n) => n.id))] }).toEqual({ crashAt, ids: [expect.stringContaining('_gate/notices/')] });
      expect(deps.notifier.notices.length).toBeLessThanOrEqual(2);
    }
  });
});
