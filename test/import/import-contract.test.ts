import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { detectSource } from '../../lib/import/detect-source.js';
import { NOTIFY_PLACEHOLDER } from '../../lib/import/finish-draft.js';
import { importContract, type ImportOptions } from '../../lib/import/import-contract.js';
import { SourceNodes } from '../../lib/import/source-nodes.js';
import { YamlReader } from '../../lib/contract/yaml-reader.js';

const FIXTURES = join('test', 'import', 'fixtures');

function run(file: string, options: Partial<ImportOptions> = {}) {
  const path = join(FIXTURES, file);
  return importContract(readFileSync(path, 'utf8'), path, { from: 'auto', ...options });
}

/** Imports a fixture and loads what was written, as lint would. */
function imported(file: string, options: Partial<ImportOptions> = {}): { contract: Contract; text: string; warnings: string[] } {
  const result = run(file, options);
  expect(result.problems.filter((p) => p.severity === 'error')).toEqual([]);
  const loaded = parseContract(result.text!, result.fileName!);
  expect(loaded.problems).toEqual([]);
  return { contract: loaded.contract!, text: result.text!, warnings: result.problems.map((p) => `${p.line}:${p.column} ${p.path} ${p.message}`) };
}

describe('import: dbt and JSON Schema', () => {
  it('dbt: data_type, constraints, tests and source freshness; relationships to a ref() is a reference', () => {
    const { contract, text, warnings } = imported('schema.dbt.yml', { model: 'orders' });
    expect(contract.schema.grain).toEqual(['order_id']);
    expect(contract.schema.columns.map((c) => [c.name, c.typeText, c.required, c.unique])).toEqual([
      ['order_id', 'string', true, false], ['customer_id', 'int64', true, false], ['status', 'string', true, false], ['amount', 'decimal(12,2)', false, false], ['_loaded_at', 'timestamp', false, false],
    ]);
    expect(contract.schema.columns[2]?.enum).toEqual(['placed', 'paid', 'cancelled']);
    expect(contract.schema.columns[3]?.min).toBe(0);
    expect(contract.sla).toMatchObject({ maxLagHours: 24, warnLagHours: 12, freshnessColumn: '_loaded_at' });
    expect(contract.schema.columns[1]?.references).toEqual({ contract: 'customers', column: 'customer_id' });
    expect(text).toContain('references: {contract: customers, column: customer_id}');
    expect(text).toContain('# customer_id: dbt\'s relationships test runs on the warehouse; the gate checks the latest published partition of contract "customers"');
    expect(warnings.filter((w) => w.includes('freshness'))).toEqual([]);
  });

  it('dbt: a test with severity warn is its rule at severity warn, unless a constraint or an error test states the rule', () => {
    const schema = [
      'version: 2', 'models:', '  - name: orders', '    columns:',
      '      - name: order_id', '        data_type: varchar', '        constraints: [{ type: not_null }]', '        data_tests: [{ not_null: { config: { severity: warn } } }]',
      '      - name: status', '        data_type: varchar', '        data_tests:', '          - accepted_values: { values: [placed, paid], config: { severity: warn } }', '          - not_null',
      '      - name: shop_id', '        data_type: bigint', '        data_tests:', "          - relationships: { to: \"source('raw', 'shops')\", field: id, config: { severity: warn } }", "          - relationships: { to: ref('Shops'), field: id }",
      '',
    ].join('\n');
    const result = importContract(schema, 'schema.yml', { from: 'auto' });
    expect(result.problems.filter((p) => p.severity === 'error')).toEqual([]);
    const loaded = parseContract(result.text!, result.fileName!);
    expect(loaded.problems.filter((p) => p.severity === 'error')).toEqual([]);
    const [orderId, status, shopId] = loaded.contract!.schema.columns;
    expect(orderId?.severity).toBeUndefined();
    expect(status).toMatchObject({ enum: ['placed', 'paid'], required: true, severity: { enum: 'warn' } });
    expect(shopId).toMatchObject({ references: { contract: 'shops', column: 'id' }, severity: { references: 'warn' } });
    // Shops is no dataset name: that relationship stays a comment.
    expect(result.text).toContain("# not enforced: relationships: shop_id references ref('Shops').id");
  });

  it('dbt: several models need --model, which is said with the names', () => {
    const result = run('schema.dbt.yml');
    expect(result.text).toBeUndefined();
    expect(result.problems.map((p) => p.message)).toEqual([expect.stringContaining('3 models and source tables (orders, customers, shop.orders); pick one with --model <name>')]);
    expect(imported('schema.dbt.yml', { model: 'customers' }).contract.schema.columns[0]).toMatchObject({ required: true, unique: true });
  });

  it('JSON Schema 2020-12: required without null, enums, bounds, formats, $ref; additionalProperties false', () => {
    const { contract, text } = imported('order.schema.json');
    const byName = Object.fromEntries(contract.schema.columns.map((c) => [c.name, c]));
    expect(contract.schema.extraColumns).toBe('reject');
    expect(byName.amount).toMatchObject({ typeText: 'float64', required: true, min: 0, max: 100000 });
    expect(byName.quantity).toMatchObject({ typeText: 'int64', min: 1 });
    expect(byName.ordered_at).toMatchObject({ typeText: 'timestamp', required: true });
    expect(byName.delivery_date).toMatchObject({ typeText: 'date', required: false });
    expect(byName.coupon).toMatchObject({ required: false, maxLength: 32 });
    expect(byName.customer?.pattern).toMatch(/^\^\[0-9a-fA-F\]\{8\}/);
    expect(text).toContain('# not enforced: email format email');
  });

  it('JSON Schema draft 7: anyOf with null, an array left out with a warning, a title made a dataset name', () => {
    const { contract, warnings } = imported('draft7.schema.json');
    expect(contract.name).toBe('shipment_legs');
    expect(contract.schema.columns.map((c) => c.name)).toEqual(['shipment_id', 'leg', 'weight_kg', 'shipped_on']);
    expect(contract.schema.columns[0]).toMatchObject({ minLength: 10, maxLength: 10, required: true });
    expect(warnings).toContainEqual(expect.stringMatching(/^10:13 properties\.tags property tags of type array/));
  });
});

describe('import: detection, defaults and refusals', () => {
  const detect = (text: string) => detectSource(new SourceNodes(new YamlReader(text, 'x.yaml')));

  // The shapes the documents print are detected in seed-import.test.ts.
  it.each([['schema.dbt.yml', 'dbt'], ['order.schema.json', 'jsonschema'], ['draft7.schema.json', 'jsonschema']])('detects %s as %s', (file, source) => {
    expect(detect(readFileSync(join(FIXTURES, file), 'utf8'))).toMatchObject({ kind: 'source', source });
  });

  it('recognises contracts that need no import, and says what it looked for otherwise', () => {
    expect(detect(readFileSync('contracts/orders.v1.yaml', 'utf8')).kind).toBe('native');
    expect(detect('apiVersion: v3.1.0\nkind: DataContract\nid: x\n').kind).toBe('odcs');
    const result = importContract('rows: 3\n', 'mystery.yaml', { from: 'auto' });
    expect(result.problems[0]).toMatchObject({ severity: 'error', code: 'not_convertible', line: 1, column: 1 });
    expect(result.problems[0]?.message).toContain('name it with --from');
  });

  it('uses the caller\'s defaults instead of placeholders', () => {
    const result = run('seeds/002-orders_contract.yaml', { defaults: { notify: ['data@example.com'], format: 'csv', team: 'shop-data' } });
    const contract = parseContract(result.text!, result.fileName!).contract;
    expect(contract).toMatchObject({ owner: { team: 'shop-data', notify: ['data@example.com'] }, produces: { format: 'csv' } });
    expect(result.text).not.toContain(NOTIFY_PLACEHOLDER);
  });

  it('refuses what it cannot convert, every problem with its position and the fix', () => {
    const text = 'version: 2\nmodels:\n  - name: orders\n    columns:\n      - name: id\n      - name: amount\n        data_type: money\n';
    const result = importContract(text, 'schema.yml', { from: 'dbt' });
    expect(result.text).toBeUndefined();
    expect(result.problems.map((p) => [p.line, p.column, p.path])).toEqual([[5, 9, 'models[0].columns[0].data_type'], [7, 20, 'models[0].columns[1].data_type']]);
    expect(result.problems[0]?.message).toContain('has no data_type; add data_type:');
    expect(result.problems[1]?.message).toContain('unknown data_type "money"');
  });

  it('refuses a legacy partition it cannot read as a template', () => {
    const result = importContract('name: orders\nowner: shop\nproduces: { format: parquet, partition: "day={{ ds_nodash }}" }\nschema:\n  columns:\n    - { name: id, type: integer }\n', 'orders.yaml', { from: 'auto' });
    expect(result.problems.filter((p) => p.severity === 'error').map((p) => [p.line, p.path])).toEqual([[3, 'produces.partition']]);
  });
});
