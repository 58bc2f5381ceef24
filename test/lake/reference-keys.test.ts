import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnReference } from '../../lib/contract/model.js';
import { GateError } from '../../lib/errors.js';
import { openTable } from '../../lib/formats/open-table.js';
import { contractRegistry } from '../../lib/gate/contract-registry.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { readReferenceKeys } from '../../lib/lake/reference-keys.js';
import { objectFile } from '../../lib/storage/object-file.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { BUCKET, startEmulatorFixture, type EmulatorFixture } from '../local/emulator-fixture.js';
import { writerVariant, type LogicalTable } from '../writers/index.js';
import { dimensionYaml, loadYaml, publish, watchReads } from './lake-fixture.js';

const contracts = contractRegistry([
  loadYaml(dimensionYaml('customers', '1.4.0', 'parquet')),
  loadYaml(dimensionYaml('customers', '2.0.0', 'csv')),
  loadYaml(dimensionYaml('customers', '4.0.0', 'parquet').replace('status: active', 'status: deprecated\nsunset: 2027-06-30')),
  loadYaml(dimensionYaml('leads', '1.0.0', 'csv')),
  loadYaml(dimensionYaml('prospects', '1.0.0', 'csv')),
  loadYaml(dimensionYaml('partners', '1.0.0', 'parquet')),
  loadYaml(dimensionYaml('churned', '1.0.0', 'csv')),
  loadYaml(dimensionYaml('accounts', '1.0.0', 'jsonl')),
]);

/** Parquet as DuckDB writes it: customer_id INT64 (with a null), email VARCHAR. */
async function duckdbParquet(ids: readonly (number | null)[]): Promise<Uint8Array> {
  const table: LogicalTable = {
    rows: ids.length,
    columns: [
      { name: 'customer_id', type: 'int64', nullable: true, values: ids },
      { name: 'email', type: 'string', nullable: true, values: ids.map((id) => (id === null ? null : `c${id}@example.com`)) },
    ],
  };
  const path = join(tmpdir(), `cg-lake-${process.pid}-${ids.join('-')}.parquet`);
  try {
    await writerVariant('duckdb-default').write(table, path);
    return new Uint8Array(await readFile(path));
  } finally {
    await rm(path, { force: true });
  }
}

const keysOf = (result: Awaited<ReturnType<typeof readReferenceKeys>>) => ('keys' in result ? [...result.keys].sort() : result);

describe('readReferenceKeys: the keys a references rule looks values up in', () => {
  let fixture: EmulatorFixture;
  let store: ObjectStore;
  const read = (ref: Partial<ColumnReference>, on = store, limit?: number) => readReferenceKeys(on, DEFAULT_LAYOUT, contracts, { contract: 'customers', column: 'customer_id', ...ref }, limit);

  beforeAll(async () => {
    fixture = await startEmulatorFixture();
    store = s3ObjectStore({ client: fixture.client, bucket: BUCKET });
    await publish(store, 'customers/v1', 'dt=2026-11-28', 3, [{ name: 'part-0000.parquet', bytes: await duckdbParquet([1, 2, 3]) }]);
    await publish(store, 'customers/v1', 'dt=2026-11-29', 5, [
      { name: 'part-0000.parquet', bytes: await duckdbParquet([10, 11]) },
      { name: 'part-0001.parquet', bytes: await duckdbParquet([12, null, 9007199254740991]) },
    ]);
    // In the folder, yet not published: the manifest does not list it.
    await store.put('published/customers/v1/dt=2026-11-29/part-0002.parquet', await duckdbParquet([666]));
    await publish(store, 'customers/v2', 'dt=2026-11-29', 4, [{ name: 'part-0000.csv', bytes: 'customer_id,email\n10,a@example.com\n11,\n12,c@example.com\n,d@example.com\n9007199254740991,e@example.com\n' }]);
    await publish(store, 'customers/v2', 'dt=2026-11-27', 1, [{ name: 'part-0000.csv', bytes: 'customer_id,email\n99,z@example.com\n' }]);
  });
  afterAll(() => fixture.close());

  it('reads the latest published partition of the major named, exactly the files its _SUCCESS lists', async () => {
    const watched = watchReads(store);
    const result = await read({ major: 1 }, watched.store);
    expect(result.source).toBe('s3://lake/published/customers/v1/dt=2026-11-29/');
    expect(keysOf(result)).toEqual(['10', '11', '12', '9007199254740991']);
    expect(watched.reads.has('published/customers/v1/dt=2026-11-29/part-0002.parquet')).toBe(false);
    expect(watched.reads.has('published/customers/v1/dt=2026-11-28/_SUCCESS')).toBe(false);
  });

  it('reads the partition a reference names', async () => {
    const result = await read({ major: 1, partition: 'dt=2026-11-28' });
    expect({ source: result.source, keys: keysOf(result) }).toEqual({ source: 's3://lake/published/customers/v1/dt=2026-11-28/', keys: ['1', '2', '3'] });
  });

  it('spells an int64 key the same whether Parquet hands it as a bigint or CSV and JSON Lines as a number', async () => {
    const [file] = (JSON.parse(new TextDecoder().decode(await fixture.read('published/customers/v1/dt=2026-11-29/_SUCCESS'))) as { files: { key: string; size: number }[] }).files;
    const table = openTable('parquet', (await objectFile(store, file!).open()).source);
    for await (const batch of table.batches(['customer_id'])) expect(typeof batch.columns.get('customer_id')![0]).toBe('bigint');
    const fromCsv = await read({ major: 2 });
    expect(fromCsv.source).toBe('s3://lake/published/customers/v2/dt=2026-11-29/');
    expect(keysOf(fromCsv)).toEqual(keysOf(await read({ major: 1 })));
    await publish(store, 'accounts/v1', 'dt=2026-11-29', 4, [{ name: 'part-0000.jsonl', bytes: '{"customer_id": 10}\n{"customer_id": 11, "email": null}\n{"customer_id": 12}\n{"email": "no id"}\n{"customer_id": 9007199254740991}\n' }]);
    expect(keysOf(await read({ contract: 'accounts' }))).toEqual(keysOf(fromCsv));
  });

  it('without a major, reads the highest one that is not retired: a deprecated v4 still counts', async () => {
    const result = await read({});
    expect(result).toEqual({ source: 's3://lake/published/customers/v4/', unavailable: 'no partition of customers v4 is published: there is no _SUCCESS under s3://lake/published/customers/v4/' });
    const retired = contractRegistry(contracts.all().map((c) => (c.name === 'customers' && c.version.major === 4 ? { ...c, status: 'retired' as const } : c)));
    const fallback = await readReferenceKeys(store, DEFAULT_LAYOUT, retired, { contract: 'customers', column: 'customer_id' });
    expect(fallback.source).toBe('s3://lake/published/customers/v2/dt=2026-11-29/');
  });

  it('stops past the limit of distinct keys, saying so', async () => {
    expect(await read({ major: 1 }, store, 3)).toEqual({
      source: 's3://lake/published/customers/v1/dt=2026-11-29/',
      unavailable: 'more than 3 keys in s3://lake/published/customers/v1/dt=2026-11-29/part-0001.parquet and the files before it: a reference loads at most 3',
    });
    expect(keysOf(await read({ major: 1 }, store, 4))).toHaveLength(4);
  });

  it('says why the keys cannot be had, naming the key or partition, rather than throw', async () => {
    await publish(store, 'leads/v1', 'dt=2026-11-29', 1, [{ name: 'part-0000.csv', bytes: 'id,email\n1,a@example.com\n' }]);
    await publish(store, 'prospects/v1', 'dt=2026-11-28', 1, [{ name: 'part-0000.csv', bytes: 'customer_id\n1\n' }]);
    await store.put('published/prospects/v1/dt=2026-11-29/_SUCCESS', 'not json');
    await publish(store, 'partners/v1', 'dt=2026-11-29', 1, [{ name: 'part-0000.parquet', bytes: 'PAR1 these are no parquet bytes' }]);
    const cases = await Promise.all([
      read({ contract: 'suppliers' }),
      read({ major: 3 }),
      read({ major: 1, partition: 'dt=2026-11-01' }),
      read({ major: 1, column: 'phone' }),
      read({ contract: 'leads' }),
      read({ contract: 'prospects' }),
      read({ contract: 'partners' }),
    ]);
    expect(cases.map((c) => ('unavailable' in c ? c.unavailable : 'available'))).toEqual([
      'no contract for suppliers is known (neither registered in the lake nor given beside the contract)',
      'no contract for customers v3 is known (neither registered in the lake nor given beside the contract)',
      'customers v1 dt=2026-11-01 is not published: s3://lake/published/customers/v1/dt=2026-11-01/_SUCCESS does not exist',
      'customers 1.4.0 has no column phone',
      's3://lake/published/leads/v1/dt=2026-11-29/part-0000.csv: the file has no column customer_id',
      's3://lake/published/prospects/v1/dt=2026-11-29/_SUCCESS is not JSON',
      expect.stringMatching(/^s3:\/\/lake\/published\/partners\/v1\/dt=2026-11-29\/part-0000\.parquet cannot be read: /),
    ]);
    expect(cases.map((c) => c.source)).toEqual([
      's3://lake/published/suppliers/',
      's3://lake/published/customers/',
      's3://lake/published/customers/v1/dt=2026-11-01/',
      's3://lake/published/customers/v1/',
      's3://lake/published/leads/v1/dt=2026-11-29/',
      's3://lake/published/prospects/v1/dt=2026-11-29/',
      's3://lake/published/partners/v1/dt=2026-11-29/',
    ]);
  });

  it('throws when storage fails: a published file replaced since its _SUCCESS is not read as it is now', async () => {
    await publish(store, 'churned/v1', 'dt=2026-11-29', 1, [{ name: 'part-0000.csv', bytes: 'customer_id\n1\n' }]);
    await store.put('published/churned/v1/dt=2026-11-29/part-0000.csv', 'customer_id\n2\n');
    await expect(read({ contract: 'churned' })).rejects.toSatisfy((error) => error instanceof GateError && error.code === 'precondition_failed');
  });
});
