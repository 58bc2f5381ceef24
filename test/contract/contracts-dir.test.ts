import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseContract } from '../../lib/contract/load-contract.js';
import { formatProblem } from '../../lib/contract/problems.js';

const contractsDir = fileURLToPath(new URL('../../contracts/', import.meta.url));
const schemaFile = `${contractsDir}contract.schema.json`;
const contractFiles = readdirSync(contractsDir).filter((file) => /\.ya?ml$/.test(file)).sort();

// strict: the schema uses no keyword ajv does not know and declares every type it constrains.
const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
  JSON.parse(readFileSync(schemaFile, 'utf8')) as object,
);

function schemaErrors(text: string): string[] {
  if (validate(parse(text))) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}

describe('the contracts directory', () => {
  it('holds at least one contract', () => {
    expect(contractFiles).not.toEqual([]);
  });

  for (const file of contractFiles) {
    describe(file, () => {
      const text = readFileSync(`${contractsDir}${file}`, 'utf8');

      it('loads with no problems', () => {
        const result = parseContract(text, `contracts/${file}`);
        expect(result.problems.map(formatProblem)).toEqual([]);
        expect(result.contract).toBeDefined();
      });

      it('validates against contract.schema.json', () => {
        expect(schemaErrors(text)).toEqual([]);
      });

      it('points editors at contract.schema.json on its first line', () => {
        expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=./contract.schema.json');
      });
    });
  }
});

/** The schema must never be stricter than the loader: whatever loads must validate. */
describe('contract.schema.json', () => {
  const base = [
    'name: orders',
    'version: 1.0.0',
    'owner: { team: orders-platform, notify: [oncall@example.com] }',
    'produces: { format: csv }',
    'schema:',
    '  columns:',
    '    - { name: status, type: string }',
  ];
  const withLines = (...lines: string[]) => [...base, ...lines].join('\n') + '\n';

  it.each([
    ['a contract with only the required keys', withLines()],
    ['a decimal type written with spaces', withLines('    - { name: amount, type: "decimal( 12 , 2 )", min: 0.5, max: 100 }')],
    ['timestamp bounds with a space, an offset or only a date', withLines('    - { name: at, type: timestamp_ntz, min: 2020-01-01, max: "2030-01-01 10:00:00.5+0100", not_in_future: true }')],
    ['required_when values of mixed types', withLines('    - { name: refund, type: float64, required_when: { column: status, in: [cancelled, 3, true] } }')],
    ['a deprecated version with a sunset date', withLines('status: deprecated', 'sunset: 2026-06-30')],
    ['an empty grain, an empty sla and an empty compat', withLines('  grain: []', 'sla: {}', 'compat: {}')],
    ['a partition template with an hour and a literal', withLines('  extra_columns: reject').replace('{ format: csv }', '{ format: jsonl, partition: "dt={ds}/hr={hh}/region=eu-1" }')],
    ['a row tolerance', withLines('on_violation: { row_tolerance: 0.02 }')],
    ['a number of invalid rows', withLines('on_violation: { max_invalid_rows: 0 }')],
    ['severities of a column, the schema and the sla', withLines(
      '    - { name: id, type: string, required: true, severity: warn }',
      '    - { name: code, type: string, enum: [a], severity: { enum: warn, type: error } }',
      '  grain: [id]',
      '  extra_columns: warn',
      '  severity: { grain: warn, extra_columns: warn }',
      'sla: { min_rows: 1, severity: { min_rows: warn } }',
    )],
    ['a reference with a major and a partition', withLines('    - { name: customer_id, type: string, references: { contract: customers, column: customer_id, major: 2, partition: dt=2026-11-30 } }')],
    ['a freshness warning and a volume band', withLines(
      '    - { name: ts, type: timestamp }',
      'sla: { warn_lag_hours: 6, max_lag_hours: 26, freshness_column: ts, volume_vs_history: { lookback: 14, min_ratio: 0, max_ratio: 3 } }',
    )],
    ['a column default', withLines('    - { name: n, type: int64, default: 0 }')],
    ['reference rows, exact and within a tolerance', withLines(
      '    - { name: id, type: string }',
      '    - { name: amount, type: "decimal(12,2)" }',
      '  grain: [id]',
      'reference_rows:',
      '  - { key: { id: a }, expect: { status: paid, amount: { value: 100.00, absolute: 0.01, relative: 0.001 } }, required: true, severity: warn }',
      '  - { key: { id: b }, required: true, description: must be there }',
    )],
  ])('accepts %s, as the loader does', (_what, text) => {
    expect(parseContract(text, 'contracts/orders.v1.yaml').problems).toEqual([]);
    expect(schemaErrors(text)).toEqual([]);
  });

  it.each([
    ['a deprecated version without a sunset date', withLines('status: deprecated')],
    ['a numeric bound on a string column', withLines('    - { name: code, type: string, min: 1 }')],
    ['enum on a numeric column', withLines('    - { name: qty, type: int32, enum: [a] }')],
    ['a text bound on a numeric column', withLines('    - { name: qty, type: int32, min: "1" }')],
    ['a timestamp bound on a date column', withLines('    - { name: day, type: date, min: "2020-01-01T00:00" }')],
    ['max_lag_hours without freshness_column', withLines('sla: { max_lag_hours: 26 }')],
    ['arrival_by without timezone', withLines('sla: { arrival_by: "06:00" }')],
    ['a partition template without {ds}', withLines().replace('{ format: csv }', '{ format: csv, partition: "hr={hh}" }')],
    ['an unknown key', withLines('owners: x')],
    ['a row tolerance of 1 or more', withLines('on_violation: { row_tolerance: 2 }')],
    ['both row_tolerance and max_invalid_rows', withLines('on_violation: { row_tolerance: 0.02, max_invalid_rows: 100 }')],
    ['an empty on_violation', withLines('on_violation: {}')],
    ['a severity other than error or warn', withLines('    - { name: id, type: string, severity: info }')],
    ['a severity for a rule no column has', withLines('    - { name: id, type: string, severity: { grain: warn } }')],
    ['a reference without a column', withLines('    - { name: id, type: string, references: { contract: customers } }')],
    ['a reference to a contract that is no dataset name', withLines('    - { name: id, type: string, references: { contract: Customers, column: id } }')],
    ['warn_lag_hours without freshness_column', withLines('sla: { warn_lag_hours: 6 }')],
    ['a volume band without a ratio', withLines('sla: { volume_vs_history: { lookback: 7 } }')],
    ['a lookback below 3', withLines('sla: { volume_vs_history: { lookback: 2, min_ratio: 0.5 } }')],
    ['a max_ratio of 0', withLines('sla: { volume_vs_history: { max_ratio: 0 } }')],
    ['a reference row without a key', withLines('    - { name: id, type: string }', '  grain: [id]', 'reference_rows:', '  - { expect: { status: paid } }')],
    ['a reference row that checks nothing', withLines('    - { name: id, type: string }', '  grain: [id]', 'reference_rows:', '  - { key: { id: a } }')],
    ['a negative tolerance', withLines('    - { name: id, type: string }', '    - { name: n, type: float64 }', '  grain: [id]', 'reference_rows:', '  - { key: { id: a }, expect: { n: { value: 1, absolute: -1 } } }')],
  ])('rejects %s, as the loader does', (_what, text) => {
    expect(parseContract(text, 'contracts/orders.v1.yaml').problems).not.toEqual([]);
    expect(schemaErrors(text)).not.toEqual([]);
  });
});
