import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { exportDbt } from '../../lib/export/to-dbt.js';
import { importContract } from '../../lib/import/import-contract.js';
import { contractFrom, ordersContract } from '../fixtures/partition.js';

const SEEDS = '/work/shared/seeds';
const fixture = (name: string) => readFileSync(new URL(`fixtures/dbt/${name}`, import.meta.url), 'utf8');

/** Imports dbt text; the import and the contract written from it must have no errors. */
function imported(text: string, file = 'schema.yml'): { contract: Contract; text: string; warnings: string[] } {
  const result = importContract(text, file, { from: 'auto' });
  expect(result.problems.filter((p) => p.severity === 'error').map((p) => p.message)).toEqual([]);
  const loaded = parseContract(result.text!, result.fileName!);
  expect(loaded.problems.filter((p) => p.severity === 'error')).toEqual([]);
  return { contract: loaded.contract!, text: result.text!, warnings: result.problems.filter((p) => p.severity === 'warning').map((p) => `${p.line}:${p.column} ${p.path} ${p.message}`) };
}

describe.skipIf(!existsSync(SEEDS))(existsSync(SEEDS) ? 'the dbt fixtures' : `the dbt fixtures: skipped, ${SEEDS} is not here to compare them with`, () => {
  it.each([['001-sources.yml', '001_85c4d3b3cfd8dcde.txt'], ['003-schema.yml', '003_513232ec71cd2059.txt']])('%s is still, byte for byte, a passage of the seed document', (name, seed) => {
    expect(readFileSync(`${SEEDS}/${seed}`, 'utf8')).toContain(fixture(name));
  });
});

describe('import of the seeds\' dbt files, as printed', () => {
  it('reads seed 001\'s sources.yml: the source\'s freshness on its loaded_at_field, the only column it names', () => {
    const { contract, text, warnings } = imported(fixture('001-sources.yml'), 'sources.yml');
    expect(contract.name).toBe('raw_orders');
    expect(contract.schema.columns.map((c) => [c.name, c.typeText, c.required])).toEqual([['ingested_at', 'timestamp', false]]);
    expect(contract.sla).toMatchObject({ maxLagHours: 1, warnLagHours: 0.3333, freshnessColumn: 'ingested_at' });
    expect(contract.description).toContain('Governed by data contract orders_v1.');
    expect(warnings).toContainEqual(expect.stringMatching(/^18:9 sources\[0\]\.tables\[0\]\.columns source table "raw_orders" lists no columns: only its loaded_at_field ingested_at is written/));
    expect(text).toContain('# TODO: source table "raw_orders" lists no columns');
  });

  it('reads seed 003\'s model with an enforced contract, data_type and not_null constraints', () => {
    const { contract, warnings } = imported(fixture('003-schema.yml'));
    expect(contract.name).toBe('fct_churn_features');
    expect(contract.schema.columns.map((c) => [c.name, c.typeText, c.required])).toEqual([['customer_id', 'string', true], ['feature_date', 'date', true]]);
    expect(warnings.filter((w) => /not_enforced|config|contract/.test(w))).toEqual([]);
  });
});

const BY_HAND = `version: 2
models:
  - name: rides
    data_tests:
      - dbt_utils.unique_combination_of_columns:
          combination_of_columns: [vendor_id, ride_id]
          config: { severity: warn }
      - dbt_utils.expression_is_true:
          expression: "refund is not null"
          config: { where: "status in ('refunded', 'it''s void')" }
      - dbt_utils.expression_is_true:
          expression: "fare >= tip"
    columns:
      - name: vendor_id
        data_type: varchar
        data_tests:
          - dbt_expectations.expect_column_values_to_match_regex:
              regex: "^V[0-9]{3}$"
          - dbt_expectations.expect_column_value_lengths_to_be_between:
              arguments: { min_value: 4, max_value: 4 }
      - name: ride_id
        data_type: bigint
        data_tests:
          - dbt_expectations.expect_column_values_to_be_between: { min_value: 1, max_value: 9223372036854775807 }
      - name: status
        data_type: varchar
      - name: refund
        data_type: numeric(8,2)
        data_tests:
          - dbt_utils.accepted_range: { min_value: 0, inclusive: true, config: { severity: warn } }
      - name: fare
        data_type: numeric(8,2)
      - name: tip
        data_type: numeric(8,2)
      - name: pickup_day
        data_type: date
        data_tests:
          - dbt_utils.accepted_range: { min_value: "'2020-01-01'", max_value: "cast('2030-12-31' as date)" }
          - dbt_utils.expression_is_true: { expression: "<= current_date" }
      - name: dropoff_at
        data_type: timestamp with time zone
        data_tests:
          - dbt_expectations.expect_column_values_to_be_between: { max_value: "current_timestamp" }
          - dbt_expectations.expect_column_values_to_be_increasing
`;

describe('import of dbt tests as the dbt_utils and dbt_expectations packages write them', () => {
  const { contract, text, warnings } = imported(BY_HAND);
  const column = (name: string) => contract.schema.columns.find((c) => c.name === name)!;

  it('reads ranges, patterns, lengths and not-in-the-future as the column\'s rules, also under dbt 1.10\'s arguments', () => {
    expect(column('vendor_id')).toMatchObject({ pattern: '^V[0-9]{3}$', minLength: 4, maxLength: 4 });
    expect(column('ride_id')).toMatchObject({ min: 1, max: 2 ** 63 });
    expect(column('pickup_day')).toMatchObject({ min: Date.parse('2020-01-01T00:00:00Z'), max: Date.parse('2030-12-31T00:00:00Z'), notInFuture: true });
    expect(column('refund')).toMatchObject({ min: 0, severity: { min: 'warn' } });
  });

  it('reads unique_combination_of_columns as the grain, at the severity the test runs at', () => {
    expect(contract.schema.grain).toEqual(['vendor_id', 'ride_id']);
    expect(contract.schema.severity).toEqual({ grain: 'warn' });
  });

  it('reads `<column> is not null` where `<column> in (...)` as required_when', () => {
    expect(column('refund').requiredWhen).toEqual({ column: 'status', in: ['refunded', "it's void"] });
  });

  it('keeps every test it cannot check as a warning and a comment', () => {
    expect(warnings.map((w) => w.replace(/^\d+:\d+ /, '')).filter((w) => w.includes('not enforced'))).toEqual([
      expect.stringMatching(/^models\[0\]\.columns\[7\]\.data_tests\[0\]\.max_value dbt_expectations\.expect_column_values_to_be_between max_value current_timestamp on dropoff_at/),
      expect.stringMatching(/^models\[0\]\.columns\[7\]\.data_tests\[1\] dbt test dbt_expectations\.expect_column_values_to_be_increasing on dropoff_at/),
      expect.stringMatching(/^models\[0\]\.data_tests\[2\] model test dbt_utils\.expression_is_true/),
    ]);
    expect(text).toContain('# not enforced: model test dbt_utils.expression_is_true');
  });
});

describe('import of what export --to dbt wrote', () => {
  it('takes the exported model without --model, with its version and the freshness of the table it is published as', () => {
    const { contract } = imported(exportDbt(ordersContract()));
    expect(contract.name).toBe('orders');
    expect(contract.version.text).toBe('1.2.0');
    expect(contract.sla).toMatchObject({ maxLagHours: 26, freshnessColumn: 'updated_at' });
    expect(contract.schema.columns.find((c) => c.name === 'refund_amount')?.requiredWhen).toEqual({ column: 'status', in: ['cancelled'] });
  });

  it('reads each adapter\'s type names back as the contract types, ambiguous ones from the column meta', () => {
    const source = contractFrom('name: t\nversion: 1.0.0\nowner: { team: t, notify: [t@example.com] }\nproduces: { format: parquet }\nschema:\n  columns:\n    - { name: a, type: int32 }\n    - { name: b, type: timestamp_ntz }\n    - { name: c, type: float32 }\n');
    for (const adapter of ['bigquery', 'athena', 'snowflake', 'postgres'] as const) {
      const { contract } = imported(exportDbt(source, { adapter }));
      expect(contract.schema.columns.map((c) => c.typeText), adapter).toEqual(['int32', 'timestamp_ntz', 'float32']);
    }
  });
});
