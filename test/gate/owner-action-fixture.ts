import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropPartition } from '../../lib/gate/drop-partition.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { parseAttemptKey, type AttemptRef } from '../../lib/gate/quarantine-attempt.js';
import { startLocalGate, type LocalGate } from '../../lib/local/local-gate.js';
import { localNotifier } from '../../lib/notify/local-notifier.js';
import type { Notifier } from '../../lib/notify/notifier.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { EXAMPLE_DAY, examplePartition } from '../fixtures/example-partitions.js';
import { makeOrders, ordersToParquet } from '../fixtures/orders-fixture.js';

/**
 * A running local gate (real emulator over HTTP, real Parquet) whose contracts live in a temp
 * folder, with a clock the test moves on by hand, so attempt ids sort in the order things happen.
 */
export interface OwnerLake {
  gate: LocalGate;
  readonly dir: string;
  readonly contractsDir: string;
  /** Epoch ms; every step that should sort later moves it on. */
  now: number;
  tick(): number;
  stop(): Promise<void>;
}

export async function startOwnerLake(): Promise<OwnerLake> {
  const dir = mkdtempSync(join(tmpdir(), 'cg-owner-'));
  const contractsDir = join(dir, 'contracts');
  mkdirSync(contractsDir);
  copyFileSync('contracts/orders.v1.yaml', join(contractsDir, 'orders.v1.yaml'));
  const lake: OwnerLake = {
    gate: undefined as unknown as LocalGate,
    dir,
    contractsDir,
    now: Date.parse('2026-11-30T05:00:00Z'),
    tick: () => (lake.now += 60_000),
    async stop() {
      await lake.gate.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  lake.gate = await startGate(lake);
  return lake;
}

function startGate(lake: OwnerLake): Promise<LocalGate> {
  return startLocalGate({ dir: lake.dir, contractsDir: lake.contractsDir, bucket: 'lake', port: 0, clock: () => lake.now, print: () => undefined, probeEveryMs: 0, resumeEveryMs: 0 });
}

/**
 * The owner fixes the contract: `status` also accepts `pending`, a minor bump. Today the gate
 * reads its contracts when it starts, so it is restarted on the same folder; when contracts come
 * from a registry on the bucket, this is the one place to change (publish the file instead).
 */
export async function fixContract(lake: OwnerLake): Promise<void> {
  const file = join(lake.contractsDir, 'orders.v1.yaml');
  const fixed = readFileSync(file, 'utf8').replace('version: 1.2.0', 'version: 1.3.0').replace('enum: [placed, paid, cancelled]', 'enum: [placed, paid, cancelled, pending]');
  writeFileSync(file, fixed);
  await lake.gate.stop();
  lake.gate = await startGate(lake);
}

/** Handles every marker in staging, whether or not its event has arrived yet, and waits for the gate. */
export async function settle(lake: OwnerLake): Promise<void> {
  await lake.gate.resume();
  await lake.gate.settled();
}

/** `pending` statuses only: a batch the first contract refuses and the fixed one accepts. */
export function pendingPartition(): { name: string; bytes: Uint8Array }[] {
  return [0, 1].map((file) => {
    const plant = [{ row: 3 + file, column: 'status' as const, value: 'pending' }];
    return { name: `part-000${file}.parquet`, bytes: ordersToParquet(makeOrders({ rows: 600, firstRow: file * 600, day: EXAMPLE_DAY, plant })) };
  });
}

export type Batch = 'good' | 'bad' | 'pending';

/** Drops a batch as a producer does (files, then a `_READY` manifest) and lets the gate judge it. */
export async function dropAndSettle(lake: OwnerLake, kind: Batch, partition: string): Promise<{ key: string; bytes: Uint8Array }[]> {
  const prefix = `staging/orders/v1/${partition}/`;
  const files = kind === 'pending' ? pendingPartition() : examplePartition(kind);
  await dropPartition(lake.gate.store, DEFAULT_LAYOUT, prefix, files.map((f) => ({ relative: f.name, size: f.bytes.length, read: async () => f.bytes })));
  await settle(lake);
  return files.map((f) => ({ key: `${prefix}${f.name}`, bytes: f.bytes }));
}

/** The only quarantine attempt of a partition (fails if there is not exactly one). */
export async function onlyAttempt(store: ObjectStore, partition: string): Promise<AttemptRef> {
  const folders = new Set((await keys(store, `quarantine/orders/v1/${partition}/`)).map((key) => key.split('/').slice(0, 5).join('/')));
  if (folders.size !== 1) throw new Error(`expected one quarantine attempt of ${partition}, found ${[...folders].join(', ') || 'none'}`);
  return parseAttemptKey(DEFAULT_LAYOUT, `${[...folders][0]}/`);
}

export async function keys(store: ObjectStore, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const object of store.list(prefix)) found.push(object.key);
  return found;
}

export async function readJson<T = Record<string, unknown>>(store: ObjectStore, key: string): Promise<T> {
  const info = await store.head(key);
  if (!info) throw new Error(`${key} is not there`);
  return JSON.parse(new TextDecoder().decode(await store.read(key, 0, info.size))) as T;
}

export interface NoticeLine {
  readonly id?: string;
  readonly subject: string;
  readonly body: string;
  readonly attributes: Record<string, string>;
}

/** The notices of a partition, as the local notifier wrote them. */
export function notices(lake: OwnerLake, partition: string): NoticeLine[] {
  const text = (() => {
    try {
      return readFileSync(join(lake.dir, 'notifications.jsonl'), 'utf8');
    } catch {
      return '';
    }
  })();
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as NoticeLine).filter((n) => n.attributes.partition === partition);
}

/** Notices to the same file as the gate's, as `release --endpoint` sends them. */
export function lakeNotifier(lake: OwnerLake): Notifier {
  return localNotifier({ file: join(lake.dir, 'notifications.jsonl'), print: () => undefined });
}
