import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentConfig } from '../../lib/deploy/environment-config.js';
import type { CheckOverrun } from '../../lib/fanout/check-overrun.js';
import { fanOutDecider, inThreadDecider } from '../../lib/fanout/fan-out-decider.js';
import { fanoutKeys } from '../../lib/fanout/fanout-layout.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { leaseKey } from '../../lib/gate/partition-lease.js';
import { decisionKeyOf, processMarker, type Decider } from '../../lib/gate/process-marker.js';
import { dropTag } from '../../lib/gate/read-drop.js';
import { startS3Emulator, type S3Emulator } from '../../lib/local/s3-emulator.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { gateDeps, NOW, ordersContract } from '../fixtures/gate-fixture.js';
import { fanoutDeps, listKeys, runAll, stage, steps, tenFiles } from './fanout-fixture.js';

let emulator: S3Emulator;
let lake: ObjectStore;

beforeAll(async () => {
  emulator = await startS3Emulator({ dir: mkdtempSync(join(tmpdir(), 'cg-overrun-')), buckets: ['lake'] });
  lake = s3ObjectStore({ client: createS3Client({ endpoint: emulator.endpoint }), bucket: 'lake' });
});
afterAll(() => emulator?.stop());

/** The fixture's clock: the orders it makes are fresh then. */
const T0 = NOW;
const prefixOf = (partition: string) => `staging/orders/v1/${partition}/`;
const markerOf = (partition: string) => `${prefixOf(partition)}_READY`;
const address = (partition: string) => ({ dataset: 'orders', major: 1, partition });
/** Limits no ten-file test drop reaches: only time sends these drops to the fan-out. */
const ROOMY = { maxFiles: 1_000, maxBytes: 1024 ** 3 };

/**
 * The bucket as a slow one looks to the handler: every read of a staged data file takes 5 s of a
 * clock the test owns. No real time passes; the deadlines are measured on this clock.
 */
function slowStaging(store: ObjectStore) {
  const time = { now: T0, dataReads: 0 };
  const slow: ObjectStore = {
    ...store,
    location: store.location,
    list: (prefix) => store.list(prefix),
    read: async (key, start, end, options) => {
      if (key.startsWith(DEFAULT_LAYOUT.staging) && !key.endsWith('/_READY')) {
        time.now += 5_000;
        time.dataReads += 1;
      }
      return store.read(key, start, end, options);
    },
  };
  return { time, store: slow, clock: () => time.now };
}

/** The handler as deployed: Lambda's deadline 300 s out, on the slow bucket, with this decider. */
function handler(partitionStore: ReturnType<typeof slowStaging>, decider: Decider) {
  return { ...gateDeps(partitionStore.store), clock: partitionStore.clock, deadline: T0 + 300_000, decider };
}

describe('a drop whose check does not fit in one invocation', () => {
  it('is handed to the fan-out mid-read, with nothing recorded, and the run decides it once: published, _SUCCESS, one notice', async () => {
    const partition = 'dt=2026-12-01';
    await stage(lake, prefixOf(partition), tenFiles('good'));
    const slow = slowStaging(lake);
    const overruns: CheckOverrun[] = [];
    const decider = fanOutDecider({ layout: DEFAULT_LAYOUT, limits: ROOMY, checkMs: 60_000, clock: slow.clock, onOverrun: (o) => overruns.push(o) });
    const gate = handler(slow, decider);

    const result = await processMarker(gate, markerOf(partition));
    expect(result.status).toBe('handed_off');
    // The check read some of the data, then stopped for time: 60 s of budget, 10 s of it kept as the call margin.
    expect(slow.time.dataReads).toBeGreaterThan(0);
    expect(slow.time.now - T0).toBeLessThan(60_000);
    expect(overruns).toEqual([expect.objectContaining({ partition, files: 10, reason: expect.stringContaining('handed to the fan-out') })]);
    const tag = dropTag((await lake.head(markerOf(partition)))!);
    const keys = fanoutKeys(DEFAULT_LAYOUT, { address: address(partition), tag });
    // No decision on record and the lease released: the run's decide step takes both as if it were first.
    expect(await lake.head(decisionKeyOf(DEFAULT_LAYOUT, address(partition), tag))).toBeUndefined();
    expect(await lake.head(leaseKey(DEFAULT_LAYOUT, address(partition)))).toBeUndefined();
    expect(await lake.head(keys.request)).toBeDefined();
    expect(gate.notifier.notices).toEqual([]);

    // A redelivery before the run has decided hands off again without reading a byte of data.
    const readsBefore = slow.time.dataReads;
    expect((await processMarker(gate, markerOf(partition))).status).toBe('handed_off');
    expect(slow.time.dataReads).toBe(readsBefore);

    const deps = fanoutDeps(lake, [ordersContract()]);
    const outcome = await runAll(steps(deps, keys.request));
    expect(outcome.status).toBe('published');
    expect(await lake.head(`published/orders/v1/${partition}/_SUCCESS`)).toBeDefined();
    expect(await listKeys(lake, prefixOf(partition))).toEqual([]);
    expect(deps.notifier.notices.map((n) => n.attributes.outcome)).toEqual(['published']);

    // A late delivery of the marker finds it gone: no second verdict, no second notice.
    expect((await processMarker(gate, markerOf(partition))).status).toBe('nothing_to_do');
    expect([...gate.notifier.notices, ...deps.notifier.notices]).toHaveLength(1);
  });

  it('with the fan-out off, fails its delivery as before, and says it is bound for the dead-letter queue', async () => {
    const partition = 'dt=2026-12-02';
    await stage(lake, prefixOf(partition), tenFiles('good'));
    const slow = slowStaging(lake);
    const overruns: CheckOverrun[] = [];
    const gate = { ...handler(slow, inThreadDecider((o) => overruns.push(o))), deadline: T0 + 60_000 };
    await expect(processMarker(gate, markerOf(partition))).rejects.toMatchObject({ code: 'deadline' });
    expect(overruns).toEqual([expect.objectContaining({ partition, reason: expect.stringContaining('dead-letter queue') })]);
    expect(await listKeys(lake, `${DEFAULT_LAYOUT.state}runs/orders/v1/${partition}/`)).toEqual([]);
    expect(await lake.head(markerOf(partition))).toBeDefined();
  });
});

describe('a drop past the derived byte threshold', () => {
  it('goes straight to the fan-out, unread, and is decided there: quarantined, one notice', async () => {
    const partition = 'dt=2026-12-03';
    await stage(lake, prefixOf(partition), tenFiles('bad'));
    // An environment's default limits; the bucket lists each staged file at a million times its size (GBs in all).
    const { maxFiles, maxBytes } = environmentConfig({ prod: {} }, 'prod').fanout;
    expect(maxBytes).toBe(2_160_000_000);
    const slow = slowStaging(lake);
    const huge: ObjectStore = { ...slow.store, location: lake.location, list: (prefix) => inflated(lake.list(prefix), 1_000_000) };
    const gate = handler({ ...slow, store: huge }, fanOutDecider({ layout: DEFAULT_LAYOUT, limits: { maxFiles, maxBytes }, clock: slow.clock }));
    expect((await processMarker(gate, markerOf(partition))).status).toBe('handed_off');
    expect(slow.time.dataReads).toBe(0);

    const tag = dropTag((await lake.head(markerOf(partition)))!);
    const deps = fanoutDeps(lake, [ordersContract()]);
    const outcome = await runAll(steps(deps, fanoutKeys(DEFAULT_LAYOUT, { address: address(partition), tag }).request));
    expect(outcome.status).toBe('quarantined');
    expect(await listKeys(lake, `quarantine/orders/v1/${partition}/`)).toContainEqual(expect.stringMatching(/_REPORT\.json$/));
    expect(deps.notifier.notices.map((n) => n.attributes.outcome)).toEqual(['quarantined']);
  });
});

async function* inflated(objects: AsyncIterable<{ key: string; size: number; etag: string; lastModified: Date }>, factor: number) {
  for await (const object of objects) yield object.key.endsWith('.parquet') ? { ...object, size: object.size * factor } : object;
}
