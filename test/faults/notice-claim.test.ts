import { describe, expect, it } from 'vitest';
import { processMarker } from '../../lib/gate/process-marker.js';
import { dropExample, gateDeps, NOW } from '../fixtures/gate-fixture.js';
import { storeWithOneFault, type OneFault } from './one-fault.js';
import { useLocalBucket } from '../fixtures/local-bucket.js';

/**
 * A bug the fault harness found: the notice claim (`_gate/notices/...`, a conditional create)
 * is treated as "another handler claimed it" whenever its PUT fails with a failed condition. A
 * claim this handler itself wrote (the SDK retried a PUT that S3 had applied, and got 412), a 409
 * ConditionalRequestConflict (nothing was written), or a claim left by a handler that died before
 * calling SNS all end the same way: the drop is carried out, the marker removed, and no owner is
 * ever notified.
 */
const bucket = useLocalBucket('cg-claim-');

// A crash after the claim landed is the test below: the next delivery sends the notice.
const FAULTS: readonly OneFault[] = ['reset after applied', '409 ConditionalRequestConflict'];

describe('the notice claim meeting one S3 fault', () => {
  it.each(FAULTS.map((fault, day) => [fault, day + 1] as const))('still notifies the owner exactly once after a %s on the claim', async (fault, day) => {
    const prefix = `staging/orders/v1/dt=2026-09-${String(day).padStart(2, '0')}/`;
    await dropExample(bucket.store, 'good', prefix);
    const faulty = storeWithOneFault(bucket.endpoint, 'lake', fault, (command, key) => command === 'PutObjectCommand' && key.startsWith('_gate/notices/'));
    const deps = gateDeps(faulty);
    await processMarker(deps, `${prefix}_READY`).catch(() => undefined);
    expect(faulty.hit()).toBe(true);
    // Redeliveries until one finds the drop done, each after a visibility timeout (past any lease
    // a fix may put on a claim, so that a dead claimant's notice can be taken over).
    for (let delivery = 1; delivery <= 3; delivery++) {
      const later = { ...deps, store: bucket.store, clock: () => NOW + delivery * 20 * 60_000 };
      if ((await processMarker(later, `${prefix}_READY`)).status === 'nothing_to_do') break;
    }
    expect(await bucket.store.head(`${prefix}_READY`)).toBeUndefined();
    expect(deps.notifier.notices).toHaveLength(1);
  });
});

describe('the notice claim after a handler died holding it', () => {
  it('sends the notice on the next delivery, once: the claim said "sending", and the lease says its holder is gone', async () => {
    const prefix = 'staging/orders/v1/dt=2026-09-20/';
    await dropExample(bucket.store, 'good', prefix);
    const faulty = storeWithOneFault(bucket.endpoint, 'lake', 'crash after applied', (command, key) => command === 'PutObjectCommand' && key.startsWith('_gate/notices/'));
    const deps = gateDeps(faulty);
    await expect(processMarker(deps, `${prefix}_READY`)).rejects.toThrow();
    expect(faulty.hit()).toBe(true);
    for (let delivery = 1; delivery <= 3; delivery++) {
      const later = { ...deps, store: bucket.store, clock: () => NOW + delivery * 20 * 60_000 };
      if ((await processMarker(later, `${prefix}_READY`)).status === 'nothing_to_do') break;
    }
    expect(await bucket.store.head(`${prefix}_READY`)).toBeUndefined();
    expect(deps.notifier.notices).toHaveLength(1);
  });
});
