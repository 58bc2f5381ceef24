import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLatest } from '../../lib/gate/audit-chain.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { readWhole } from '../../lib/storage/object-store.js';
import { redriveAttempt } from '../../lib/gate/redrive.js';
import { crashingStore, Crash } from '../fixtures/crashing-store.js';
import { expectNothingLost } from '../fixtures/no-loss.js';
import { dropAndSettle, fixContract, keys, notices, onlyAttempt, readJson, settle, startOwnerLake, type OwnerLake } from './owner-action-fixture.js';

const OWNER = { by: 'orders-oncall@example.com', reason: 'pending is a valid status; contract 1.3.0 says so' };
let lake: OwnerLake;

beforeAll(async () => {
  lake = await startOwnerLake();
});
afterAll(() => lake.stop());

const deps = () => ({ store: lake.gate.store, layout: DEFAULT_LAYOUT, clock: () => lake.tick() });

describe('redrive: a quarantined attempt judged again by the current contract', () => {
  it('publishes a batch quarantined under the old contract once the contract is fixed, keeping the attempt in quarantine', async () => {
    const staged = await dropAndSettle(lake, 'pending', 'dt=2026-11-30');
    const ref = await onlyAttempt(lake.gate.store, 'dt=2026-11-30');
    const quarantined = await keys(lake.gate.store, ref.prefix);
    await fixContract(lake);
    lake.tick();
    const result = await redriveAttempt(deps(), ref, OWNER);
    expect(result).toMatchObject({ status: 'redriven', resumed: false });
    await settle(lake);
    const success = await readJson<{ attempt: string; contract: { version: string }; checks: { status: string } }>(lake.gate.store, 'published/orders/v1/dt=2026-11-30/_SUCCESS');
    expect(success).toMatchObject({ contract: { version: '1.3.0' }, checks: { status: 'pass' } });
    expect(success.attempt > ref.attempt).toBe(true);
    expect(await keys(lake.gate.store, 'staging/orders/v1/dt=2026-11-30/')).toEqual([]);
    expect(await keys(lake.gate.store, ref.prefix)).toEqual(quarantined);
    expect(notices(lake, 'dt=2026-11-30').map((n) => n.attributes.outcome)).toEqual(['quarantined', 'published']);
    await expectNothingLost(lake.gate.store, staged);
  });

  it('records who redrove which files where, and the kept manifest it marked them with', async () => {
    const ref = await onlyAttempt(lake.gate.store, 'dt=2026-11-30');
    const audit = (await readLatest(lake.gate.store, DEFAULT_LAYOUT, ref, 'redrive'))!.record;
    expect(audit).toMatchObject({ action: 'redrive', state: 'done', by: OWNER.by, reason: OWNER.reason, from: { attempt: ref.attempt, status: 'fail' } });
    expect(audit).toMatchObject({ dataset: 'orders', major: 1, partition: 'dt=2026-11-30', seq: 3 });
    expect(await keys(lake.gate.store, '_audit/orders/v1/dt=2026-11-30/')).toEqual([1, 2, 3].map((n) => `_audit/orders/v1/dt=2026-11-30/0000000${n}.json`));
    expect(audit.marker).toMatchObject({ key: 'staging/orders/v1/dt=2026-11-30/_READY', bytes: 'kept manifest' });
    expect(audit.copies.map((c) => [c.from.slice(ref.prefix.length), c.to])).toEqual([
      ['part-0000.parquet', 'staging/orders/v1/dt=2026-11-30/part-0000.parquet'],
      ['part-0001.parquet', 'staging/orders/v1/dt=2026-11-30/part-0001.parquet'],
    ]);
  });

  it('changes nothing when run again on the same attempt, and says it was already done', async () => {
    const ref = await onlyAttempt(lake.gate.store, 'dt=2026-11-30');
    const before = await keys(lake.gate.store, '');
    const again = await redriveAttempt(deps(), ref, { by: 'someone-else', reason: null });
    expect(again).toMatchObject({ status: 'already_redriven', audit: { by: OWNER.by } });
    await settle(lake);
    expect(await keys(lake.gate.store, '')).toEqual(before);
  });

  it('is refused while staging holds a drop of the partition, copying nothing', async () => {
    await dropAndSettle(lake, 'bad', 'dt=2026-12-01');
    const ref = await onlyAttempt(lake.gate.store, 'dt=2026-12-01');
    await lake.gate.store.put('staging/orders/v1/dt=2026-12-01/part-0000.parquet', 'a producer mid-upload');
    const result = await redriveAttempt(deps(), ref, OWNER);
    expect(result).toMatchObject({ status: 'refused', reason: expect.stringContaining('staging for the partition already holds 1 object') });
    expect(await keys(lake.gate.store, 'staging/orders/v1/dt=2026-12-01/')).toEqual(['staging/orders/v1/dt=2026-12-01/part-0000.parquet']);
    expect(await keys(lake.gate.store, '_audit/orders/v1/dt=2026-12-01/')).toEqual([]);
    await lake.gate.store.delete('staging/orders/v1/dt=2026-12-01/part-0000.parquet');
  });

  it('is refused once a newer drop of the partition was published', async () => {
    lake.tick();
    await dropAndSettle(lake, 'good', 'dt=2026-12-01');
    const ref = await onlyAttempt(lake.gate.store, 'dt=2026-12-01');
    const result = await redriveAttempt(deps(), ref, OWNER);
    expect(result).toMatchObject({ status: 'refused', reason: expect.stringMatching(/published since: .*_SUCCESS is from attempt .* \(a newer drop\), later than/) });
    expect(await keys(lake.gate.store, 'staging/orders/v1/dt=2026-12-01/')).toEqual([]);
  });
});

describe('redrive copies only the versions the gate quarantined', () => {
  it('refuses a same-size replacement of a quarantined file, naming it and both ETags, and copies nothing into staging', async () => {
    await dropAndSettle(lake, 'bad', 'dt=2026-12-16');
    const ref = await onlyAttempt(lake.gate.store, 'dt=2026-12-16');
    const key = `${ref.prefix}part-0001.parquet`;
    const judged = (await lake.gate.store.head(key))!.etag;
    const bytes = Uint8Array.from((await readWhole(lake.gate.store, key))!);
    bytes[bytes.length >> 1]! ^= 0xff;
    const { etag: now } = await lake.gate.store.put(key, bytes);
    const result = await redriveAttempt(deps(), ref, OWNER);
    expect(result).toEqual({ status: 'refused', reason: expect.stringContaining(`s3://lake/${key} has ETag ${now}, not ${judged}, which the report recorded for the copy the gate quarantined`) });
    expect(await keys(lake.gate.store, 'staging/orders/v1/dt=2026-12-16/')).toEqual([]);
    expect(await keys(lake.gate.store, '_gate/audit/orders/v1/dt=2026-12-16/')).toEqual([]);
  });
});

describe('a redrive killed part-way, when a producer drops meanwhile', () => {
  it('is refused on its re-run and takes back its own copies, leaving the producer\'s files; later it runs afresh', async () => {
    lake.tick();
    await dropAndSettle(lake, 'bad', 'dt=2026-12-02');
    const ref = await onlyAttempt(lake.gate.store, 'dt=2026-12-02');
    // Before its fourth mutating call: the lease, the audit record and one copy are made.
    const dying = { ...deps(), store: crashingStore(lake.gate.store, 4), lease: { holder: 'dying', ttlMs: 1 } };
    await expect(redriveAttempt(dying, ref, OWNER)).rejects.toBeInstanceOf(Crash);
    expect(await keys(lake.gate.store, 'staging/orders/v1/dt=2026-12-02/')).toEqual(['staging/orders/v1/dt=2026-12-02/part-0000.parquet']);
    await lake.gate.store.put('staging/orders/v1/dt=2026-12-02/upload-0.parquet', 'a producer mid-upload');
    expect(await redriveAttempt(deps(), ref, OWNER)).toMatchObject({ status: 'refused', reason: expect.stringContaining('upload-0.parquet') });
    expect(await keys(lake.gate.store, 'staging/orders/v1/dt=2026-12-02/')).toEqual(['staging/orders/v1/dt=2026-12-02/upload-0.parquet']);
    const audit = async () => (await readLatest(lake.gate.store, DEFAULT_LAYOUT, ref, 'redrive'))?.record;
    expect(await audit()).toMatchObject({ state: 'withdrawn', withdrawn: expect.stringContaining('staging for the partition') });
    await lake.gate.store.delete('staging/orders/v1/dt=2026-12-02/upload-0.parquet');
    expect(await redriveAttempt(deps(), ref, OWNER)).toMatchObject({ status: 'redriven', resumed: false });
    await settle(lake);
    expect(await audit()).toMatchObject({ state: 'done' });
  });
});

describe('a redrive killed before any storage call', () => {
  it('resumes on the next run: exactly one new drop judged, nothing lost, the first attempt still in quarantine', async () => {
    let crashAt = 1;
    for (; ; crashAt++) {
      const partition = `dt=2026-10-${String(crashAt).padStart(2, '0')}`;
      lake.tick();
      // The contract is fixed by now: a bad batch is quarantined again when redriven.
      const staged = await dropAndSettle(lake, 'bad', partition);
      const ref = await onlyAttempt(lake.gate.store, partition);
      // A dead holder's lease has expired by the time anyone looks (the clock only moves on).
      const dying = { ...deps(), store: crashingStore(lake.gate.store, crashAt), lease: { holder: 'dying', ttlMs: 1 } };
      const died = await redriveAttempt(dying, ref, OWNER).then(() => false, (error: unknown) => error instanceof Crash);
      if (!died) break;
      await settle(lake);
      await expectNothingLost(lake.gate.store, staged);
      const rerun = await redriveAttempt(deps(), ref, OWNER);
      expect({ crashAt, status: rerun.status }).toEqual({ crashAt, status: expect.stringMatching(/^(already_)?redriven$/) });
      await settle(lake);
      await expectNothingLost(lake.gate.store, staged);
      const decided = await keys(lake.gate.store, `_gate/decisions/orders/v1/${partition}/`);
      expect({ crashAt, decisions: decided.length, staging: await keys(lake.gate.store, `staging/orders/v1/${partition}/`) }).toEqual({ crashAt, decisions: 2, staging: [] });
      expect({ crashAt, attempts: new Set((await keys(lake.gate.store, `quarantine/orders/v1/${partition}/`)).map((k) => k.split('/')[4])).size }).toEqual({ crashAt, attempts: 2 });
    }
    // The lease, the audit record's three states, two copies and the marker.
    expect(crashAt).toBeGreaterThan(8);
  });
});
