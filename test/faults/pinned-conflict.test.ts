import { describe, expect, it } from 'vitest';
import { parseDecision } from '../../lib/gate/decision.js';
import { processMarker } from '../../lib/gate/process-marker.js';
import { readWhole } from '../../lib/storage/object-store.js';
import { dropExample, gateDeps, GOOD_PREFIX, NOW } from '../fixtures/gate-fixture.js';
import { listed } from './bucket-observer.js';
import { storeWithOneFault } from './one-fault.js';
import { useLocalBucket } from '../fixtures/local-bucket.js';

/**
 * A bug the fault harness's chaos runs found (seeds 109, 120, 208, … of 1,000): S3's 409
 * ConditionalRequestConflict on the pinned copy or delete of a staged file read as "the producer
 * changed the file". The delete was skipped, so the file stayed staged after the drop was
 * published and its marker removed; the copy superseded a drop that stands.
 */
// A bucket of its own for each case: both drop the good example on its own day.
const bucket = useLocalBucket('cg-pinned-', { each: true });

const CASES = [
  { call: 'the delete of a staged file', command: 'DeleteObjectCommand', place: 'staging/' },
  { call: 'the copy of a staged file', command: 'CopyObjectCommand', place: 'published/' },
] as const;

describe('a 409 ConditionalRequestConflict on a pinned step of a publish', () => {
  it.each(CASES.map((c) => [c.call, c] as const))('after one on %s, redelivery publishes the drop and leaves nothing staged', async (_, c) => {
    const prefix = GOOD_PREFIX;
    const partition = prefix.split('/').at(-2)!;
    await dropExample(bucket.store, 'good', prefix);
    const faulty = storeWithOneFault(bucket.endpoint, 'lake', '409 ConditionalRequestConflict', (command, key) => command === c.command && key.startsWith(c.place) && key.endsWith('.parquet'));
    await processMarker(gateDeps(faulty), `${prefix}_READY`).catch(() => undefined);
    expect(faulty.hit()).toBe(true);
    for (let delivery = 1; delivery <= 3; delivery++) {
      const later = { ...gateDeps(bucket.store), clock: () => NOW + delivery * 20 * 60_000 };
      if ((await processMarker(later, `${prefix}_READY`)).status === 'nothing_to_do') break;
    }
    const decisions = await listed(bucket.store, `_gate/decisions/orders/v1/${partition}/`);
    expect(decisions).toHaveLength(1);
    const decision = parseDecision(new TextDecoder().decode(await readWhole(bucket.store, decisions[0]!.key)));
    expect(decision?.outcome).toBe('publish');
    expect((await listed(bucket.store, prefix)).map((o) => o.key)).toEqual([]);
    expect((await listed(bucket.store, `published/orders/v1/${partition}/`)).map((o) => o.key.split('/').pop()).sort()).toEqual(['_SUCCESS', 'part-0000.parquet', 'part-0001.parquet']);
  });
});
