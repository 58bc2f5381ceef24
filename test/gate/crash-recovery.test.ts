import { describe, expect, it } from 'vitest';
import { processMarker } from '../../lib/gate/process-marker.js';
import { crashingStore, Crash } from '../fixtures/crashing-store.js';
import { dropExample, gateDeps, MARKER, NOW } from '../fixtures/gate-fixture.js';
import { MemoryObjectStore } from '../fixtures/memory-object-store.js';
import { expectNothingLost } from '../fixtures/no-loss.js';

async function cleanRun(kind: 'good' | 'bad') {
  const store = new MemoryObjectStore();
  await dropExample(store, kind);
  const counting = crashingStore(store);
  await processMarker(gateDeps(counting), MARKER);
  return { keys: store.keys(), mutations: counting.mutations };
}

describe.each(['good', 'bad'] as const)('a handler that dies before any storage call, on a %s drop', (kind) => {
  it('converges on the next delivery to the same end state, losing nothing at any step', async () => {
    const clean = await cleanRun(kind);
    expect(clean.mutations).toBeGreaterThan(5);
    for (let crashAt = 1; crashAt <= clean.mutations; crashAt++) {
      const store = new MemoryObjectStore();
      const { files } = await dropExample(store, kind);
      const deps = gateDeps(crashingStore(store, crashAt));
      await expect(processMarker(deps, MARKER)).rejects.toBeInstanceOf(Crash);
      await expectNothingLost(store, files);
      // SQS redelivers after the visibility timeout, by when the dead handler's lease has expired.
      const redelivery = { ...deps, store, lease: { holder: 'redelivery', ttlMs: 60_000, takeOver: () => true } };
      await processMarker(redelivery, MARKER);
      await expectNothingLost(store, files);
      // A crash as the lease is released leaves it to expire; it is no record of the drop.
      const records = store.keys().filter((key) => !key.startsWith('_gate/leases/'));
      expect({ crashAt, keys: records }).toEqual({ crashAt, keys: clean.keys });
      // A crash between the send and the claim saying "sent" sends again, under the same id.
      expect({ crashAt, ids: [...new Set(deps.notifier.notices.map((n) => n.id))] }).toEqual({ crashAt, ids: [expect.stringContaining('_gate/notices/')] });
      expect(deps.notifier.notices.length).toBeLessThanOrEqual(2);
    }
  });
});

describe('a handler that dies after deciding, once a newer drop removed the marker they shared', () => {
  it('is finished by the next delivery that finds no marker: files moved, the owner told once', async () => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'good');
    const dying = gateDeps(crashingStore(store, 6)); // decided, copied and _SUCCESS written; no staged file deleted yet
    await expect(processMarker(dying, MARKER)).rejects.toBeInstanceOf(Crash);
    await store.delete(MARKER);
    const later = { ...gateDeps(store), notifier: dying.notifier, clock: () => NOW + 30 * 60_000 };
    const result = await processMarker(later, MARKER);
    expect(result).toMatchObject({ status: 'nothing_to_do', reason: expect.stringContaining('finished 1 decided drop') });
    expect(store.keys('staging/')).toEqual([]);
    expect(dying.notifier.notices.map((n) => n.attributes.outcome)).toEqual(['published']);
    expect((await processMarker(later, MARKER)).status).toBe('nothing_to_do');
    expect(dying.notifier.notices).toHaveLength(1);
  });
});

describe('a backfill whose handler dies before any storage call', () => {
  it('ends, on the next delivery, with exactly the new files published and the old ones set aside', async () => {
    const backfill = async (store: MemoryObjectStore) => {
      const { files } = await dropExample(store, 'good');
      await processMarker(gateDeps(store), MARKER);
      // The same rows under new names: the old names leave the partition.
      for (const [i, file] of files.entries()) await store.put(`staging/orders/v1/dt=2026-11-29/renamed-${i}.parquet`, file.bytes);
      await store.put(MARKER, '');
      return files;
    };
    for (let crashAt = 1; ; crashAt++) {
      const store = new MemoryObjectStore();
      const files = await backfill(store);
      const dying = crashingStore(store, crashAt);
      const died = await processMarker(gateDeps(dying), MARKER).then(() => false, (error: unknown) => error instanceof Crash);
      if (!died) break;
      await processMarker({ ...gateDeps(store), clock: () => NOW + 30 * 60_000 }, MARKER);
      expect({ crashAt, published: store.keys('published/') }).toEqual({
        crashAt,
        published: ['_SUCCESS', 'renamed-0.parquet', 'renamed-1.parquet'].map((name) => `published/orders/v1/dt=2026-11-29/${name}`),
      });
      const aside = store.keys('_gate/replaced/');
      expect({ crashAt, aside: aside.map((key) => key.split('/').at(-1)) }).toEqual({ crashAt, aside: files.map((f) => f.key.split('/').at(-1)) });
    }
  });
});
