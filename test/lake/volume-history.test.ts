import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Contract } from '../../lib/contract/model.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { prefixedLake } from '../../lib/lake/lake-address.js';
import { readVolumeHistory } from '../../lib/lake/volume-history.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { ordersContract } from '../fixtures/gate-fixture.js';
import { BUCKET, startEmulatorFixture, type EmulatorFixture } from '../local/emulator-fixture.js';
import { publish, watchReads } from './lake-fixture.js';

/** orders v1 with the history rule, and 2026-11-25 a holiday of its calendar. */
function withHistory(lookback: number): Contract {
  const orders = ordersContract();
  return { ...orders, sla: { ...orders.sla!, skipDates: ['2026-11-25'], volumeVsHistory: { lookback, minRatio: 0.9, maxRatio: 3 } } };
}

describe('readVolumeHistory: the published partitions a volume is compared with', () => {
  let fixture: EmulatorFixture;
  let store: ObjectStore;
  beforeAll(async () => {
    fixture = await startEmulatorFixture();
    store = s3ObjectStore({ client: fixture.client, bucket: BUCKET });
    // Eight published days, 2026-11-21 to 11-28, with rows 1021 ... 1028.
    for (let day = 21; day <= 28; day++) await publish(store, 'orders/v1', `dt=2026-11-${day}`, 1000 + day);
    await store.put('published/orders/v1/dt=2026-11-23/_SUCCESS', '{"format": "contract-gate/success@1", "rows": ');
    await publish(store, 'orders/v1', 'dt=2026-11-29', 5); // the partition being checked, published before (a backfill)
    await publish(store, 'orders/v1', 'dt=2026-11-30', 9999); // after it: no history of it
    await publish(store, 'orders/v2', 'dt=2026-11-20', 7); // another major
    await store.put('published/orders/v1/dt=2026-11-20/_SUCCESS', JSON.stringify({ format: 'something/else', rows: 3 }));
  });
  afterAll(() => fixture.close());

  it('lists the partitions before the checked one, newest first, without skip dates, broken manifests, itself or later ones', async () => {
    const history = await readVolumeHistory(store, DEFAULT_LAYOUT, withHistory(7), 'dt=2026-11-29');
    expect(history).toEqual({
      source: 's3://lake/published/orders/v1/',
      partitions: [
        { partition: 'dt=2026-11-28', rows: 1028 },
        { partition: 'dt=2026-11-27', rows: 1027 },
        { partition: 'dt=2026-11-26', rows: 1026 },
        { partition: 'dt=2026-11-24', rows: 1024 },
        { partition: 'dt=2026-11-22', rows: 1022 },
        { partition: 'dt=2026-11-21', rows: 1021 },
      ],
    });
  });

  it('stops at lookback partitions and reads no manifest beyond them', async () => {
    const watched = watchReads(store);
    const history = await readVolumeHistory(watched.store, DEFAULT_LAYOUT, withHistory(3), 'dt=2026-11-29');
    expect(history?.partitions.map((p) => p.partition)).toEqual(['dt=2026-11-28', 'dt=2026-11-27', 'dt=2026-11-26']);
    expect([...watched.reads].sort()).toEqual(['dt=2026-11-26', 'dt=2026-11-27', 'dt=2026-11-28'].map((p) => `published/orders/v1/${p}/_SUCCESS`));
  });

  it('checking an earlier day sees only the days before it', async () => {
    const history = await readVolumeHistory(store, DEFAULT_LAYOUT, withHistory(7), 'dt=2026-11-23');
    expect(history?.partitions).toEqual([{ partition: 'dt=2026-11-22', rows: 1022 }, { partition: 'dt=2026-11-21', rows: 1021 }]);
  });

  it('orders by the time the template gives a partition, not by its key', async () => {
    const hourly = { ...withHistory(7), name: 'clicks', produces: { format: 'parquet' as const, partition: 'hr={hh}/dt={ds}' } };
    await publish(store, 'clicks/v1', 'hr=23/dt=2026-11-28', 28);
    await publish(store, 'clicks/v1', 'hr=01/dt=2026-11-29', 29);
    await publish(store, 'clicks/v1', 'hr=05/dt=2026-11-29', 30); // later than the checked hour: left out
    const history = await readVolumeHistory(store, DEFAULT_LAYOUT, hourly, 'hr=02/dt=2026-11-29');
    expect(history?.partitions.map((p) => p.partition)).toEqual(['hr=01/dt=2026-11-29', 'hr=23/dt=2026-11-28']);
  });

  it('reads a lake kept under a prefix of the bucket', async () => {
    const { layout } = prefixedLake('team/lake/');
    await store.put('team/lake/published/orders/v1/dt=2026-11-28/_SUCCESS', JSON.stringify({ format: 'contract-gate/success@1', rows: 42, files: [] }));
    expect(await readVolumeHistory(store, layout, withHistory(7), 'dt=2026-11-29')).toEqual({ source: 's3://lake/team/lake/published/orders/v1/', partitions: [{ partition: 'dt=2026-11-28', rows: 42 }] });
  });

  it('reads nothing when the contract has no volume_vs_history', async () => {
    const watched = watchReads(store);
    let listed = 0;
    const counting = { ...watched.store, list: (prefix: string) => ((listed += 1), store.list(prefix)) };
    expect(await readVolumeHistory(counting, DEFAULT_LAYOUT, ordersContract(), 'dt=2026-11-29')).toBeUndefined();
    expect({ listed, reads: watched.reads.size }).toEqual({ listed: 0, reads: 0 });
  });
});
