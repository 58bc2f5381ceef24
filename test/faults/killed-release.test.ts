import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../lib/gate/audit-record.js';
import { parseDecision } from '../../lib/gate/decision.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import type { AttemptRef } from '../../lib/gate/quarantine-attempt.js';
import { ownerLease } from '../../lib/gate/redrive.js';
import { releaseAttempt } from '../../lib/gate/release.js';
import { readWhole, type ObjectStore } from '../../lib/storage/object-store.js';
import { expectNothingLost } from '../fixtures/no-loss.js';
import { dropAndSettle, keys, lakeNotifier, notices, onlyAttempt, readJson, settle, startOwnerLake, type OwnerLake } from '../gate/owner-action-fixture.js';
import { dropPartition } from '../../lib/gate/drop-partition.js';
import { examplePartition } from '../fixtures/example-partitions.js';
import { isInjected } from './injected-faults.js';
import { storeKilledAt, type KillPoint } from './killed-at-call.js';

const OWNER = { by: 'orders-owner@example.com', reason: 'the finance close needs it today' };
let lake: OwnerLake;

beforeAll(async () => {
  lake = await startOwnerLake();
});
afterAll(() => lake.stop());

/** One `release` process: the CLI's own lease (30 s, renewed), its own notifier on the lake's notifications file. */
function release(store: ObjectStore, ref: AttemptRef, clock: () => number, told: string[] = []): ReturnType<typeof releaseAttempt> {
  return releaseAttempt({ store, notifier: lakeNotifier(lake), layout: DEFAULT_LAYOUT, clock, lease: ownerLease('release', (line) => told.push(line)) }, ref, OWNER);
}

async function listing(store: ObjectStore, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const object of store.list(prefix)) found.push(`${object.key} ${object.size} ${object.etag}`);
  return found;
}

/** The state a finished release leaves, whatever happened on the way. */
async function expectReleased({ partition, ref, quarantined, staged }: Case, k: string): Promise<void> {
  const store = lake.gate.store;
  const published = `published/orders/v1/${partition}/`;
  const success = await readJson<{ release?: { from_attempt: string }; files: { key: string; etag: string }[] }>(store, `${published}_SUCCESS`);
  const releasedBytes = await Promise.all(success.files.map(async (f) => Buffer.from((await readWhole(store, f.key))!).equals(Buffer.from((await readWhole(store, `${ref.prefix}${f.key.slice(published.length)}`))!))));
  const decision = parseDecision(new TextDecoder().decode(await readWhole(store, `_gate/decisions/orders/v1/${partition}/release-${ref.attempt}.json`)));
  const audits = await keys(store, `_audit/orders/v1/${partition}/`);
  expect({
    k,
    published: await keys(store, published),
    from: success.release?.from_attempt,
    releasedBytes,
    told: notices(lake, partition).map((n) => n.attributes.outcome),
    audits: audits.length,
    audit: audits[0] && (await readJson<AuditRecord>(store, audits[0])).state,
    completed: decision?.completed_at !== undefined,
    leases: await keys(store, `_gate/leases/orders/v1/${partition}/`),
    quarantine: await listing(store, ref.prefix),
  }).toEqual({
    k,
    published: ['_SUCCESS', 'part-0000.parquet', 'part-0001.parquet'].map((n) => `${published}${n}`),
    from: ref.attempt,
    releasedBytes: [true, true],
    told: ['quarantined', 'published'],
    audits: 1,
    audit: 'done',
    completed: true,
    leases: [],
    quarantine: quarantined,
  });
  await expectNothingLost(store, staged);
}

/** A quarantined attempt of a partition of its own, and what a finished release is checked against. */
interface Case {
  readonly k: number;
  readonly partition: string;
  readonly staged: { key: string; bytes: Uint8Array }[];
  readonly ref: AttemptRef;
  readonly quarantined: string[];
}

/** Bad batches for each k, judged by the gate together (judging one at a time would be most of the test's time). */
async function quarantineEach(ks: readonly number[], point: KillPoint, named = (k: number) => `dt=2026-08-${String(k).padStart(2, '0')}-${point}`): Promise<Case[]> {
  lake.tick();
  const dropped = await Promise.all(ks.map(async (k) => {
    const partition = named(k);
    const prefix = `staging/orders/v1/${partition}/`;
    const files = examplePartition('bad');
    await dropPartition(lake.gate.store, DEFAULT_LAYOUT, prefix, files.map((f) => ({ relative: f.name, size: f.bytes.length, read: async () => f.bytes })));
    return { k, partition, staged: files.map((f) => ({ key: `${prefix}${f.name}`, bytes: f.bytes })) };
  }));
  await settle(lake);
  return Promise.all(dropped.map(async (c) => {
    const ref = await onlyAttempt(lake.gate.store, c.partition);
    return { ...c, ref, quarantined: await listing(lake.gate.store, ref.prefix) };
  }));
}

/** Kills a release at its k-th request, then runs it again; false when the k-th request never came (the run finished). */
async function killAndRerun(c: Case, point: KillPoint): Promise<boolean> {
  const killed = storeKilledAt(lake.gate.endpoint, 'lake', c.k, point);
  const died = await release(killed, c.ref, () => lake.now).then(() => false, (error: unknown) => isInjected(error) && killed.killed());
  if (!died) {
    expect({ k: c.k, killed: killed.killed() }).toEqual({ k: c.k, killed: false });
    await expectReleased(c, `${point} ${c.k}: not killed`);
    return false;
  }
  await expectNothingLost(lake.gate.store, c.staged);
  // The next run comes 31 s later on the clock: past the 30 s a dead run's lease lasts.
  const rerun = await release(lake.gate.store, c.ref, () => lake.now + 31_000);
  expect({ k: c.k, point, status: rerun.status }).toEqual({ k: c.k, point, status: expect.stringMatching(/^(already_)?released$/) });
  await expectReleased(c, `${point} ${c.k}`);
  return true;
}

const BATCH = 8;

describe('a release killed at any storage request', () => {
  it.each<KillPoint>(['before', 'after'])('is finished by the next run (killed %s the request): published once, told once, audited once, no lease left', async (point) => {
    let killedRuns = 0;
    for (let first = 1; ; first += BATCH) {
      const cases = await quarantineEach(Array.from({ length: BATCH }, (_, i) => first + i), point);
      lake.tick();
      const died = await Promise.all(cases.map((c) => killAndRerun(c, point)));
      killedRuns += died.filter(Boolean).length;
      if (died.some((d) => !d)) break;
    }
    // Reads, the lease, the decision, two pinned copies, _SUCCESS, the notice claim and its "sent", the audit record, the completion, the lease's release.
    expect(killedRuns).toBeGreaterThan(point === 'before' ? 25 : 9);
  }, 300_000);
});

describe('a release killed after its _SUCCESS, before its notice and audit record', () => {
  /** Kills the release once S3 applied its fifth write (the lease, the decision, two copies, _SUCCESS). */
  async function killAfterSuccess(c: Case, clock: () => number): Promise<void> {
    const killed = storeKilledAt(lake.gate.endpoint, 'lake', 5, 'after');
    await expect(release(killed, c.ref, clock)).rejects.toSatisfy(isInjected);
    const success = await readJson<{ release?: { from_attempt: string } }>(lake.gate.store, `published/orders/v1/${c.partition}/_SUCCESS`);
    expect({ from: success.release?.from_attempt, told: notices(lake, c.partition).length, audits: await keys(lake.gate.store, `_audit/orders/v1/${c.partition}/`) }).toEqual({ from: c.ref.attempt, told: 1, audits: [] });
  }

  it('is finished by a run started at once, within a minute, which says it took the dead run\'s lease over', async () => {
    const [c] = await quarantineEach([40], 'after');
    await killAfterSuccess(c!, Date.now);
    const told: string[] = [];
    const started = Date.now();
    const rerun = await release(lake.gate.store, c!.ref, Date.now, told);
    const tookMs = Date.now() - started;
    expect(rerun).toMatchObject({ status: 'released', resumed: true });
    expect(tookMs).toBeLessThan(60_000);
    expect(told).toEqual([expect.stringMatching(/^release: took over _gate\/leases\/orders\/v1\/dt=2026-08-40-after\/lease\.json from release-\w+, which stopped renewing it \(it expired at .*\)/)]);
    await expectReleased(c!, 'killed after _SUCCESS, run again at once');
  }, 120_000);

  it('is finished by the gate\'s next drop of the partition: the release notice and audit record, then the new drop', async () => {
    // A real day: the good batch that follows is checked against its partition's date.
    const [c] = await quarantineEach([41], 'after', () => 'dt=2026-12-20');
    lake.tick();
    await killAfterSuccess(c!, () => lake.now);
    lake.tick();
    await dropAndSettle(lake, 'good', c!.partition);
    const audits = await keys(lake.gate.store, `_audit/orders/v1/${c!.partition}/`);
    expect(audits).toEqual([`_audit/orders/v1/${c!.partition}/00000001.json`]);
    expect(await readJson<AuditRecord>(lake.gate.store, audits[0]!)).toMatchObject({ action: 'release', state: 'done', ...OWNER });
    const told = notices(lake, c!.partition);
    expect(told.map((n) => n.attributes.outcome)).toEqual(['quarantined', 'published', 'published']);
    expect(told[1]?.subject).toContain('RELEASED by override');
    expect(await keys(lake.gate.store, `_gate/leases/orders/v1/${c!.partition}/`)).toEqual([]);
  });
});
