import { describe, expect, it } from 'vitest';
import { processMarker } from '../../lib/gate/process-marker.js';
import { crashingStore, Crash } from '../fixtures/crashing-store.js';
import { dropExample, gateDeps, MARKER } from '../fixtures/gate-fixture.js';
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
      const redelivery = { ...deps, store };
      await processMarker(redelivery, MARKER);
      await expectNothingLost(store, files);
      expect({ crashAt, keys: store.keys() }).toEqual({ crashAt, keys: clean.keys });
      expect(deps.notifier.notices).toHaveLength(1);
    }
  });
});
