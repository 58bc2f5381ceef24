import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnSpec, Contract } from '../../lib/contract/model.js';
import { referenceContracts } from '../../lib/lake/reference-contracts.js';
import { registerContract } from '../../lib/registry/register-contract.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { ordersContract } from '../fixtures/gate-fixture.js';
import { BUCKET, startEmulatorFixture, type EmulatorFixture } from '../local/emulator-fixture.js';
import { dimensionYaml } from './lake-fixture.js';

/** orders with a column pointing at each of the given datasets. */
function referencing(...datasets: string[]): Contract {
  const orders = ordersContract();
  const extra = datasets.map((contract) => ({ name: `${contract}_id`, type: { kind: 'int64' }, required: false, unique: false, notInFuture: false, references: { contract, column: 'customer_id' } }) as ColumnSpec);
  return { ...orders, schema: { ...orders.schema, columns: [...orders.schema.columns, ...extra] } };
}

describe('referenceContracts: the contracts the references name', () => {
  let fixture: EmulatorFixture;
  let store: ObjectStore;
  let dir: string;
  const warnings: string[] = [];
  const sources = () => ({ registryPrefix: '_contracts/', dir, warn: (text: string) => warnings.push(text) });

  beforeAll(async () => {
    fixture = await startEmulatorFixture();
    store = s3ObjectStore({ client: fixture.client, bucket: BUCKET });
    await registerContract(store, { path: 'customers.v1.yaml', text: dimensionYaml('customers', '1.3.0', 'parquet') }, { now: 0 });
    await registerContract(store, { path: 'customers.v2.yaml', text: dimensionYaml('customers', '2.0.0', 'csv') }, { now: 0 });
    dir = mkdtempSync(join(tmpdir(), 'cg-reference-contracts-'));
    mkdirSync(dir, { recursive: true });
    const files: Record<string, string> = {
      'customers.v3.yaml': dimensionYaml('customers', '3.0.0', 'csv'), // the registry holds customers: not read
      'leads.v1.yaml': dimensionYaml('leads', '1.1.0', 'csv'),
      'leads.v2.yml': dimensionYaml('leads', '2.0.0', 'jsonl'),
      'leads.v3.yaml': dimensionYaml('leads', '2.0.0', 'jsonl'), // says v2: does not load
      'broken.v1.yaml': 'name: broken\nversion: [',
      'leads-notes.yaml': 'not a contract at all', // not named <name>.v<major>.yaml: never read
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  });
  afterAll(async () => {
    await fixture.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes every major of a dataset the registry holds from the registry', async () => {
    const found = await referenceContracts(store, referencing('customers'), sources());
    expect(found.all().map((c) => `${c.name} ${c.version.text} ${c.origin?.location}`)).toEqual([
      'customers 1.3.0 s3://lake/_contracts/customers/v1/1.3.0.yaml',
      'customers 2.0.0 s3://lake/_contracts/customers/v2/2.0.0.yaml',
    ]);
  });

  it('takes a dataset the registry lacks from the <name>.v<major>.yaml files beside the contract, and says which do not load', async () => {
    warnings.length = 0;
    const found = await referenceContracts(store, referencing('leads', 'broken', 'nowhere'), sources());
    expect(found.all().map((c) => `${c.name} ${c.version.text}`)).toEqual(['leads 1.1.0', 'leads 2.0.0']);
    expect(found.find('leads', 1)?.origin?.location).toBe(join(dir, 'leads.v1.yaml'));
    expect(warnings).toEqual([
      expect.stringContaining(`${join(dir, 'leads.v3.yaml')} does not load, so leads v3 is not known:\n${join(dir, 'leads.v3.yaml')}:2:10 error [name_mismatch]`),
      expect.stringContaining(`${join(dir, 'broken.v1.yaml')} does not load, so broken v1 is not known:\n`),
    ]);
  });

  it('reads nothing for a contract that references nothing', async () => {
    let listed = 0;
    const found = await referenceContracts({ ...store, list: (prefix) => ((listed += 1), store.list(prefix)) }, ordersContract(), sources());
    expect({ contracts: found.all().length, listed }).toEqual({ contracts: 0, listed: 0 });
  });
});
