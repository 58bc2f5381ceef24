import { describe, expect, it } from 'vitest';
import { processMarker } from '../../lib/gate/process-marker.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { invocationTally } from '../../lambdas/observability-tally.js';
import { dropExample, gateDeps, MARKER } from '../fixtures/gate-fixture.js';
import { MemoryObjectStore } from '../fixtures/memory-object-store.js';

/** Dies at the marker's removal, the last step of a carry-out: the decision is completed, the marker still there. */
function diesRemovingMarker(inner: ObjectStore): ObjectStore {
  let died = false;
  return {
    get location() {
      return inner.location;
    },
    head: (key) => inner.head(key),
    read: (key, start, end, options) => inner.read(key, start, end, options),
    list: (prefix) => inner.list(prefix),
    put: (key, body, options) => inner.put(key, body, options),
    copy: (source, target, options) => inner.copy(source, target, options),
    delete: (key, options) => {
      if (key === MARKER && !died) {
        died = true;
        return Promise.reject(new Error('killed before removing the marker'));
      }
      return inner.delete(key, options);
    },
  };
}

describe('what an invocation saw itself do', () => {
  it('counts the drop it carried out, with the time its checks took', async () => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'bad');
    let now = 0;
    const tally = invocationTally(() => (now += 1500));
    const deps = gateDeps(store);
    const result = await processMarker({ ...deps, notifier: tally.notifier(deps.notifier), checks: tally.checks(undefined) }, MARKER);
    if (!('decision' in result)) throw new Error(result.reason);
    expect(tally.observe(result.decision)).toEqual({ carriedOutHere: true, validationSeconds: 1.5 });
    expect(deps.notifier.notices).toHaveLength(1);
  });

  it('does not count a redelivery that finds the decision carried out already, though it returns the same decision', async () => {
    const store = new MemoryObjectStore();
    await dropExample(store, 'bad');
    const first = invocationTally();
    const dying = gateDeps(diesRemovingMarker(store));
    await expect(processMarker({ ...dying, notifier: first.notifier(dying.notifier), checks: first.checks(undefined) }, MARKER)).rejects.toThrow('killed before removing the marker');
    expect(dying.notifier.notices).toHaveLength(1);

    const again = invocationTally();
    const deps = gateDeps(store);
    const result = await processMarker({ ...deps, notifier: again.notifier(deps.notifier), checks: again.checks(undefined) }, MARKER);
    expect(result.status).toBe('quarantined');
    if (!('decision' in result)) throw new Error(result.reason);
    expect(result.decision.completed_at).toBeDefined();
    expect(again.observe(result.decision)).toEqual({ carriedOutHere: false });
    expect(deps.notifier.notices).toHaveLength(0);
  });

  it('does not count a notice the notifier refused: the delivery fails and its retry counts it', async () => {
    const tally = invocationTally();
    const notifier = tally.notifier({ notify: () => Promise.reject(new Error('SNS is down')) });
    await expect(notifier.notify({ subject: 's', body: 'b', attributes: { contract: 'orders', version: 'v1', owner: 'o', outcome: 'quarantined', severity: 'critical', drop: 'abc', attempt: 'a1' } })).rejects.toThrow('SNS is down');
    expect(tally.observe({ tag: 'abc', attempt: 'a1', files: [] } as never).carriedOutHere).toBe(false);
  });
});
