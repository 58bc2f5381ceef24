import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { DBT_ADAPTERS } from '../../lib/export/dbt-adapters.js';
import { mergeDbtSchema } from '../../lib/export/dbt-schema-merge.js';
import { exportDbt } from '../../lib/export/to-dbt.js';
import { ordersContract } from '../fixtures/partition.js';
import { importSeed } from '../import/seed-fixtures.js';
import { DBT_JSONSCHEMA_PATH, dbtSchemaValidator } from './dbt-json-schema.js';
import { generatedContracts } from './generated-contracts.js';

/** Each contract the seed documents print, imported as printed and loaded, as a user would bring it. */
function seedContract(file: string): Contract {
  const { text, fileName } = importSeed(file);
  const { contract, problems } = parseContract(text!, fileName!);
  if (!contract) throw new Error(`${file} does not load: ${problems.map((p) => p.message).join('; ')}`);
  return contract;
}

const SEEDS = ['000-orders_v1.yaml', '001-orders_v1.yaml', '002-orders_contract.yaml', '003-churn_features_v2.yaml', '004-contract.yaml'];
const CONTRACTS: [string, Contract][] = [
  ['contracts/orders.v1.yaml', ordersContract()],
  ['contracts/orders.v1.yaml with max_invalid_rows', { ...ordersContract(), onViolation: { maxInvalidRows: 20 } }],
  ...generatedContracts(),
  ...SEEDS.map((file): [string, Contract] => [`seed ${file}`, seedContract(file)]),
];

describe.skipIf(!DBT_JSONSCHEMA_PATH)('the dbt export parses as dbt YAML: valid against dbt Labs\' JSON Schema for property files (../shared/dbt-jsonschema or .cache/dbt-jsonschema; skipped when absent)', () => {
  const validate = DBT_JSONSCHEMA_PATH ? dbtSchemaValidator(DBT_JSONSCHEMA_PATH) : undefined;
  const errorsOf = (text: string) => (validate!(parse(text)) ? [] : validate!.errors);

  it.each(CONTRACTS.flatMap(([name, contract]) => DBT_ADAPTERS.map((adapter) => [name, adapter, contract] as const)))('%s for %s', (_name, adapter, contract) => {
    expect(errorsOf(exportDbt(contract, { adapter }))).toEqual([]);
  });

  it('holds for a project file --write regenerated the owned part of', () => {
    const project = readFileSync('test/import/fixtures/seeds/003-schema.yml', 'utf8');
    const merged = mergeDbtSchema(ordersContract(), project, 'schema.yml');
    expect(merged).toContain('name: orders');
    expect(errorsOf(merged)).toEqual([]);
  });

  it('rejects what dbt would: a misspelled key, an unknown freshness period', () => {
    const file = parse(exportDbt(ordersContract()));
    file.models[0].colums = file.models[0].columns;
    file.sources[0].tables[0].freshness.error_after.period = 'hours';
    expect(validate!(file)).toBe(false);
    expect(validate!.errors?.map((e) => `${e.instancePath} ${e.message}`)).toEqual(expect.arrayContaining(['/models/0 must NOT have additional properties', '/sources/0/tables/0/freshness/error_after/period must be equal to one of the allowed values']));
  });
});
