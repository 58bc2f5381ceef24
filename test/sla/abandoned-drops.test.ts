import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractRegistry } from '../../lib/gate/contract-registry.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { runProbe } from '../../lib/sla/probe.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { ordersContract, RecordingNotifier } from '../fixtures/gate-fixture.js';
import { BUCKET, startEmulatorFixture, type EmulatorFixture } from '../local/emulator-fixture.js';

const HOUR = 3_600_000;

describe('the SLA probe and drops left in staging without a marker', () => {
  let fixture: EmulatorFixture;
  let store: ObjectStore;
  const notifier = new RecordingNotifier();
  const probe = (now: number) => runProbe({ store, notifier, contracts: contractRegistry([ordersContract()]), layout: DEFAULT_LAYOUT, now, lookbackHours: 1 });
  beforeAll(async () => {
    fixture = await startEmulatorFixture();
    store = s3ObjectStore({ client: fixture.client, bucket: BUCKET });
    // A producer job that died after its data files: no _READY ever came.
    await store.put('staging/orders/v1/dt=2026-11-20/part-0000.parquet', 'half a drop');
    await store.put('staging/orders/v1/dt=2026-11-20/part-0001.parquet', 'the other half');
    // A drop the gate has yet to judge has its marker: not abandoned, however old.
    await store.put('staging/orders/v1/dt=2026-11-21/part-0000.parquet', 'waiting for the gate');
    await store.put('staging/orders/v1/dt=2026-11-21/_READY', '');
  });
  afterAll(() => fixture.close());

  it('says nothing while the files are younger than the allowed age', async () => {
    const report = await probe(Date.now() + HOUR);
    expect(report.abandoned).toEqual([]);
  });

  it('tells the owner once about a partition of staged files with no marker, and not of one with a marker', async () => {
    const first = await probe(Date.now() + 25 * HOUR);
    expect(first.abandoned).toEqual([{ contract: 'orders', version: 'v1', partition: 'dt=2026-11-20', files: 2, sent: true }]);
    const again = await probe(Date.now() + 26 * HOUR);
    expect(again.abandoned).toEqual([{ contract: 'orders', version: 'v1', partition: 'dt=2026-11-20', files: 2, sent: false }]);
    const notices = notifier.notices.filter((n) => n.attributes.outcome === 'abandoned');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.subject).toMatch(/^\[contract-gate\] orders v1 dt=2026-11-20 ABANDONED in staging: no _READY for 2[56] h$/);
    expect(notices[0]!.body).toContain('2 staged file(s), 25 bytes');
    expect(notices[0]!.attributes).toMatchObject({ contract: 'orders', owner: 'orders-platform', severity: 'warning', partition: 'dt=2026-11-20' });
  });
});
