import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLatest } from '../../lib/gate/audit-chain.js';
import { dropPartition } from '../../lib/gate/drop-partition.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import type { AttemptRef } from '../../lib/gate/quarantine-attempt.js';
import { ownerLease, redriveAttempt } from '../../lib/gate/redrive.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { examplePartition } from '../fixtures/example-partitions.js';
import { expectNothingLost } from '../fixtures/no-loss.js';
import { keys, onlyAttempt, settle, startOwnerLake, type OwnerLake } from '../gate/owner-action-fixture.js';
import { isInjected } from './injected-faults.js';
import { storeKilledAt, type KillPoint } from './killed-at-call.js';

const OWNER = { by: 'orders-oncall@example.com', reason: 'judge it again' };
let lake: OwnerLake;

beforeAll(async () => {
  lake = await startOwnerLake();
});
afterAll(() => lake.stop());

interface Case {
  readonly k: number;
  readonly partition: string;
  readonly staged: { key: string; bytes: Uint8Array }[];
  readonly ref: AttemptRef;
}

/** One `redrive` process, with the CLI's own lease (30 s, renewed). */
function redrive(store: ObjectStore, ref: AttemptRef, clock: () => number): ReturnType<typeof redriveAttempt> {
  return redriveAttempt({ store, layout: DEFAULT_LAYOUT, clock, lease: ownerLease('redrive') }, ref, OWNER);
}

async function quarantineEach(ks: readonly number[], point: KillPoint): Promise<Case[]> {
  lake.tick();
  const dropped = await Promise.all(ks.map(async (k) => {
    const partition = `dt=2026-07-${String(k).padStart(2, '0')}-${point}`;
    const prefix = `staging/orders/v1/${partition}/`;
    const files = examplePartition('bad');
    await dropPartition(lake.gate.store, DEFAULT_LAYOUT, prefix, files.map((f) => ({ relative: f.name, size: f.bytes.length, read: async () => f.bytes })));
    return { k, partition, staged: files.map((f) => ({ key: `${prefix}${f.name}`, bytes: f.bytes })) };
  }));
  await settle(lake);
  return Promise.all(dropped.map(async (c) => ({ ...c, ref: await onlyAttempt(lake.gate.store, c.partition) })));
}

/** Kills a redrive at its k-th request and runs it again 31 s later; false when the k-th request never came. */
async function killAndRerun(c: Case, point: KillPoint): Promise<boolean> {
  const killed = storeKilledAt(lake.gate.endpoint, 'lake', c.k, point);
  const died = await redrive(killed, c.ref, () => lake.now).then(() => false, (error: unknown) => isInjected(error) && killed.killed());
  if (died) {
    await expectNothingLost(lake.gate.store, c.staged);
    const rerun = await redrive(lake.gate.store, c.ref, () => lake.now + 31_000);
    expect({ k: c.k, point, status: rerun.status }).toEqual({ k: c.k, point, status: expect.stringMatching(/^(already_)?redriven$/) });
  }
  return died;
}

/** Once the gate judged the redriven drop: one redrive recorded done, one new attempt judged, staging empty, no lease, nothing lost. */
async function expectRedriven(c: Case, k: string): Promise<void> {
  const store = lake.gate.store;
  const audit = await readLatest(store, DEFAULT_LAYOUT, c.ref, 'redrive');
  const attempts = new Set((await keys(store, `quarantine/orders/v1/${c.partition}/`)).map((key) => key.split('/')[4]));
  expect({
    k,
    state: audit?.record.state,
    attempts: attempts.size,
    staging: await keys(store, `staging/orders/v1/${c.partition}/`),
    leases: await keys(store, `_gate/leases/orders/v1/${c.partition}/`),
  }).toEqual({ k, state: 'done', attempts: 2, staging: [], leases: [] });
  await expectNothingLost(store, c.staged);
}

const BATCH = 8;

describe('a redrive killed at any storage request', () => {
  it.each<KillPoint>(['before', 'after'])('is finished by the next run (killed %s the request): the drop judged again once, no lease left', async (point) => {
    let killedRuns = 0;
    for (let first = 1; ; first += BATCH) {
      const cases = await quarantineEach(Array.from({ length: BATCH }, (_, i) => first + i), point);
      lake.tick();
      const died = await Promise.all(cases.map((c) => killAndRerun(c, point)));
      lake.tick();
      await settle(lake);
      for (const c of cases) await expectRedriven(c, `${point} ${c.k}`);
      killedRuns += died.filter(Boolean).length;
      if (died.some((d) => !d)) break;
    }
    expect(killedRuns).toBeGreaterThan(point === 'before' ? 15 : 5);
  }, 300_000);
});
