import { describe, expect, it } from 'vitest';
import { GateError } from '../../lib/errors.js';
import { processMarker } from '../../lib/gate/process-marker.js';
import { dropExample, gateDeps, MARKER, NOW } from '../fixtures/gate-fixture.js';
import { MemoryObjectStore } from '../fixtures/memory-object-store.js';
import { expectNothingLost } from '../fixtures/no-loss.js';

describe('a handler near its deadline', () => {
  it('stops with a retryable deadline error between storage calls, and the next delivery finishes the job', async () => {
    const store = new MemoryObjectStore();
    const { files } = await dropExample(store, 'good');
    // Time runs 2 s per storage call; the deadline arrives part way through the publish.
    let now = NOW;
    const ticking = new Proxy(store, { get: (target, name, receiver) => {
      const value = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? (...args: unknown[]) => ((now += 2_000), value.apply(target, args)) : value;
    } });
    const deps = { ...gateDeps(ticking), clock: () => now, deadline: NOW + 40_000 };
    const error = await processMarker(deps, MARKER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GateError);
    expect((error as GateError).code).toBe('deadline');
    await expectNothingLost(store, files);
    // The redelivery comes after the queue's visibility timeout, past the stopped handler's lease.
    const result = await processMarker({ ...gateDeps(store), notifier: deps.notifier, clock: () => NOW + 30 * 60_000 }, MARKER);
    expect(result.status).toBe('published');
    expect(deps.notifier.notices).toHaveLength(1);
  });
});
