import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import type { Contract } from '../../lib/contract/model.js';
import { contractRegistry } from '../../lib/gate/contract-registry.js';
import { decideFanout, type FanoutOutcome } from '../../lib/fanout/decide-fanout.js';
import type { FanoutDeps } from '../../lib/fanout/fanout-context.js';
import { requireRecord } from '../../lib/fanout/fanout-records.js';
import type { FanoutItem } from '../../lib/fanout/fanout-layout.js';
import { mapFile } from '../../lib/fanout/map-file.js';
import { planRequested, type FanoutPlan } from '../../lib/fanout/plan-fanout.js';
import { reduceShard } from '../../lib/fanout/reduce-shard.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { RecordingNotifier } from '../fixtures/gate-fixture.js';
import { makeOrders, orderId, ordersToParquet, type Plant } from '../fixtures/orders-fixture.js';

export const FILES = 10;
export const ROWS_PER_FILE = 150;

/**
 * Ten files of the orders dataset. The bad kind breaks value rules in several files and repeats
 * order ids: one across files 2 and 7, one three times across files 0, 5 and 9, one within file 9.
 */
export const BAD_PLANTS: readonly { file: number; plant: Plant }[] = [
  { file: 2, plant: { row: 10, column: 'order_id', value: orderId(7 * ROWS_PER_FILE + 20) } },
  { file: 0, plant: { row: 4, column: 'order_id', value: orderId(9 * ROWS_PER_FILE + 33) } },
  { file: 5, plant: { row: 99, column: 'order_id', value: orderId(9 * ROWS_PER_FILE + 33) } },
  { file: 9, plant: { row: 1, column: 'order_id', value: orderId(9 * ROWS_PER_FILE + 0) } },
  { file: 4, plant: { row: 3, column: 'status', value: 'pending' } },
  { file: 5, plant: { row: 11, column: 'amount', value: null } },
  { file: 6, plant: { row: 12, column: 'amount', value: -1 } },
  { file: 8, plant: { row: 7, column: 'ordered_at', value: new Date('2026-12-24T00:00:00Z') } },
];

export function tenFiles(kind: 'good' | 'bad'): { relative: string; bytes: Uint8Array }[] {
  return Array.from({ length: FILES }, (_, file) => {
    const plant = kind === 'bad' ? BAD_PLANTS.filter((p) => p.file === file).map((p) => p.plant) : [];
    const columns = makeOrders({ rows: ROWS_PER_FILE, firstRow: file * ROWS_PER_FILE, plant });
    return { relative: `part-${String(file).padStart(4, '0')}.parquet`, bytes: ordersToParquet(columns) };
  });
}

/** Stages files then the marker, as a producer does. */
export async function stage(store: ObjectStore, prefix: string, files: readonly { relative: string; bytes: Uint8Array }[]): Promise<void> {
  for (const file of files) await store.put(`${prefix}${file.relative}`, file.bytes);
  await store.put(`${prefix}_READY`, '');
}

export function fanoutDeps(store: ObjectStore, contracts: readonly Contract[]): FanoutDeps & { notifier: RecordingNotifier } {
  return { store, contracts: contractRegistry([...contracts]), layout: DEFAULT_LAYOUT, notifier: new RecordingNotifier() };
}

export interface Steps {
  plan(): Promise<FanoutPlan>;
  mapAll(plan: FanoutPlan): Promise<unknown[]>;
  reduceAll(plan: FanoutPlan): Promise<unknown[]>;
  decide(plan: FanoutPlan): Promise<FanoutOutcome>;
}

/** The state machine's steps, run in this process in its order: plan, map each file, reduce each shard, decide. */
export function steps(deps: FanoutDeps & { notifier: RecordingNotifier }, requestKey: string): Steps {
  return {
    plan: () => planRequested(deps, requestKey),
    async mapAll(plan) {
      const items = await requireRecord<FanoutItem[]>(deps.store, plan.itemsKey, 'the plan');
      return Promise.all(items.map((item) => mapFile(deps, plan.run, item)));
    },
    reduceAll: (plan) => Promise.all(plan.shards.map(({ keySet, shard }) => reduceShard(deps, plan.run, keySet, shard))),
    decide: (plan) => decideFanout(deps, plan.run),
  };
}

export async function runAll(s: Steps): Promise<FanoutOutcome> {
  const plan = await s.plan();
  await s.mapAll(plan);
  await s.reduceAll(plan);
  return s.decide(plan);
}

/** Every object under a prefix with its bytes, to prove a repeated step wrote nothing new. */
export async function snapshot(store: ObjectStore, prefix: string): Promise<Map<string, string>> {
  const objects = new Map<string, string>();
  for await (const object of store.list(prefix)) objects.set(object.key, Buffer.from(await store.read(object.key, 0, object.size)).toString('base64'));
  return objects;
}

export async function listKeys(store: ObjectStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of store.list(prefix)) keys.push(object.key);
  return keys;
}
