import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnSpec, Contract } from '../../lib/contract/model.js';
import { GateError } from '../../lib/errors.js';
import { contractRegistry } from '../../lib/gate/contract-registry.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { readPlanFacts } from '../../lib/lake/plan-facts.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { ordersContract } from '../fixtures/gate-fixture.js';
import { BUCKET, startEmulatorFixture, type EmulatorFixture } from '../local/emulator-fixture.js';
import { dimensionYaml, loadYaml, publish } from './lake-fixture.js';

const customers = loadYaml(dimensionYaml('customers', '1.0.0', 'csv'));

/** orders with two columns pointing at the same customer keys, and one at a dataset no one has. */
function withReferences(orders: Contract): Contract {
  const columns: ColumnSpec[] = [
    ...orders.schema.columns,
    { name: 'buyer_id', type: { kind: 'int64' }, required: false, unique: false, notInFuture: false, references: { contract: 'customers', column: 'customer_id' } },
    { name: 'payer_id', type: { kind: 'int64' }, required: false, unique: false, notInFuture: false, references: { contract: 'customers', column: 'customer_id' } },
    { name: 'shop_id', type: { kind: 'string' }, required: false, unique: false, notInFuture: false, references: { contract: 'shops', column: 'shop_id' } },
  ] as ColumnSpec[];
  return { ...orders, schema: { ...orders.schema, columns } };
}

/** The store, counting listings and body reads. */
function counting(store: ObjectStore): { store: ObjectStore; calls: { list: string[]; read: string[] } } {
  const calls = { list: [] as string[], read: [] as string[] };
  return {
    calls,
    store: {
      ...store,
      list: (prefix) => (calls.list.push(prefix), store.list(prefix)),
      read: (key, start, end, options) => (calls.read.push(key), store.read(key, start, end, options)),
    },
  };
}

describe('readPlanFacts: what the checks need from the lake, read before they run', () => {
  let fixture: EmulatorFixture;
  let store: ObjectStore;
  beforeAll(async () => {
    fixture = await startEmulatorFixture();
    store = s3ObjectStore({ client: fixture.client, bucket: BUCKET });
    for (const day of [26, 27, 28]) await publish(store, 'orders/v1', `dt=2026-11-${day}`, 1000 + day);
    await publish(store, 'customers/v1', 'dt=2026-11-29', 2, [{ name: 'part-0000.csv', bytes: 'customer_id,email\n7,a@example.com\n8,b@example.com\n' }]);
  });
  afterAll(() => fixture.close());

  it('reads nothing at all for a contract with neither rule', async () => {
    const watched = counting(store);
    expect(await readPlanFacts({ store: watched.store, layout: DEFAULT_LAYOUT }, contractRegistry([]), ordersContract(), undefined)).toEqual({});
    expect(watched.calls).toEqual({ list: [], read: [] });
  });

  it('gives the history and, per referencing column, the keys; columns naming the same keys share one read', async () => {
    const orders = ordersContract();
    const contract = withReferences({ ...orders, sla: { ...orders.sla!, volumeVsHistory: { lookback: 7 } } });
    const watched = counting(store);
    const facts = await readPlanFacts({ store: watched.store, layout: DEFAULT_LAYOUT }, contractRegistry([customers]), contract, 'dt=2026-11-29');
    expect(facts.history?.partitions.map((p) => p.rows)).toEqual([1028, 1027, 1026]);
    const keys = (column: string) => facts.references?.get(column);
    expect(keys('buyer_id')).toEqual({ source: 's3://lake/published/customers/v1/dt=2026-11-29/', keys: new Set(['7', '8']) });
    expect(keys('payer_id')).toBe(keys('buyer_id'));
    expect(keys('shop_id')).toMatchObject({ unavailable: expect.stringContaining('no contract for shops') });
    expect(watched.calls.list.filter((prefix) => prefix === 'published/customers/v1/')).toHaveLength(1);
  });

  it('without history, lists no published orders', async () => {
    const watched = counting(store);
    await readPlanFacts({ store: watched.store, layout: DEFAULT_LAYOUT }, contractRegistry([customers]), withReferences(ordersContract()), undefined);
    expect(watched.calls.list).toEqual(['published/customers/v1/']);
  });

  it('refuses to read a history without the partition being checked', async () => {
    const orders = ordersContract();
    const contract = { ...orders, sla: { ...orders.sla!, volumeVsHistory: { lookback: 7 } } };
    await expect(readPlanFacts({ store, layout: DEFAULT_LAYOUT }, contractRegistry([]), contract, undefined)).rejects.toSatisfy((e) => e instanceof GateError && e.code === 'bad_arguments');
  });
});
