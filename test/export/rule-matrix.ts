import { parseContract } from '../../lib/contract/load-contract.js';
import { COLUMN_SEVERITY_RULES, type ColumnSpec, type Contract } from '../../lib/contract/model.js';

/**
 * Columns of every type, each with a rule of its type or none, for the tests holding exports
 * against the engine: what a case generator (row-cases.ts) derives good and bad values from.
 */
export const MATRIX_COLUMNS = [
  '{ name: id, type: string, required: true, pattern: "^r[0-9]+$" }',
  '{ name: s_plain, type: string }',
  '{ name: s_enum, type: string, enum: [placed, paid, cancelled] }',
  '{ name: s_reason, type: string, required_when: { column: s_enum, in: [cancelled] } }',
  '{ name: s_code, type: string, pattern: "^[A-Z]{2}-[0-9]{3}$" }',
  '{ name: s_filled, type: string, required: true, default: none }',
  '{ name: s_len, type: string, min_length: 2, max_length: 5 }',
  '{ name: s_unique, type: string, unique: true }',
  '{ name: blob, type: binary }',
  '{ name: flag, type: boolean, required: true }',
  '{ name: i32, type: int32 }',
  '{ name: i32_range, type: int32, min: -5, max: 100 }',
  '{ name: i64, type: int64 }',
  '{ name: i64_range, type: int64, min: 0, max: 9007199254740993 }',
  '{ name: i64_wide, type: int64, min: -9223372036854775808, max: 9223372036854775807 }',
  '{ name: f32_unit, type: float32, min: 0, max: 1 }',
  '{ name: f64, type: float64 }',
  '{ name: f64_min, type: float64, min: 0 }',
  '{ name: f64_max, type: float64, max: 10 }',
  '{ name: price, type: "decimal(5,2)" }',
  '{ name: price_range, type: "decimal(5,2)", min: 0, max: 500 }',
  '{ name: rate, type: "decimal(4,4)" }',
  '{ name: wide, type: "decimal(38,2)", min: -100 }',
  '{ name: day, type: date }',
  '{ name: day_range, type: date, min: "2020-01-01", max: "2030-12-31" }',
  '{ name: at, type: timestamp }',
  '{ name: at_past, type: timestamp, not_in_future: true }',
  '{ name: at_range, type: timestamp, min: "2020-01-01T00:00:00Z" }',
  '{ name: local, type: timestamp_ntz }',
  '{ name: local_range, type: timestamp_ntz, max: "2030-01-01T00:00:00" }',
] as const;

/** A value matching each pattern the matrix uses: no generator can invent one for any pattern. */
export const PATTERN_EXAMPLES: Readonly<Record<string, string>> = { '^r[0-9]+$': 'r1', '^[A-Z]{2}-[0-9]{3}$': 'AB-123', '^shp_[0-9]{6}$': 'shp_000001' };

export function matrixYaml(options: { name?: string; format?: string; columns?: readonly string[]; extra?: string; head?: string } = {}): string {
  return [
    `name: ${options.name ?? 'rule_matrix'}`,
    'version: 1.4.2',
    'owner: { team: data, notify: [data@example.com] }',
    ...(options.head ? [options.head] : []),
    `produces: { format: ${options.format ?? 'jsonl'}, partition: "dt={ds}" }`,
    'schema:',
    '  grain: [id]',
    '  extra_columns: reject',
    '  columns:',
    ...(options.columns ?? MATRIX_COLUMNS).map((column) => `    - ${column}`),
    ...(options.extra ? [options.extra] : []),
    '',
  ].join('\n');
}

export function loadContract(text: string, file = 'rule_matrix.v1.yaml'): Contract {
  const { contract, problems } = parseContract(text, file);
  if (!contract) throw new Error(`test contract does not load:\n${problems.map((p) => `${p.line}:${p.column} ${p.message}`).join('\n')}`);
  return contract;
}

/** The matrix with every rule of every column at warn: the gate reports what breaks them and blocks nothing. */
export function warnEverywhere(contract: Contract): Contract {
  const warn = Object.fromEntries(COLUMN_SEVERITY_RULES.map((rule) => [rule, 'warn'])) as ColumnSpec['severity'];
  return {
    ...contract,
    schema: { ...contract.schema, severity: { grain: 'warn', extra_columns: 'warn' }, columns: contract.schema.columns.map((column) => ({ ...column, severity: warn })) },
  };
}
