import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';

const HEAD = ['name: orders', 'version: 1.0.0', 'owner: { team: t, notify: [a@example.com] }', 'produces: { format: parquet }', 'schema:', '  columns:'];

function problems(...lines: string[]) {
  return parseContract([...HEAD, ...lines].join('\n') + '\n', 'orders.v1.yaml').problems.map(({ severity, code, path, line, column, message }) => ({ severity, code, path, line, column, message }));
}

describe('native loader: keys of other contract formats name their native spelling', () => {
  it('nullable: false is required: true, at the key', () => {
    expect(problems('    - { name: id, type: string, nullable: false }')).toEqual([
      { severity: 'error', code: 'unknown_key', path: 'schema.columns[0].nullable', line: 7, column: 33, message: 'unknown key "nullable"; write required: true (nullable: false means a value is required)' },
    ]);
  });

  it('allowed_values, allowed and accepted_values are enum; range is min and max; all problems at once', () => {
    const found = problems(
      '    - { name: s, type: string, allowed_values: [a, b] }',
      '    - { name: t, type: string, allowed: [c] }',
      '    - { name: u, type: string, accepted_values: [d] }',
      '    - { name: n, type: int64, range: { min: 0, max: 10 } }',
    );
    expect(found.map((p) => [p.line, p.message])).toEqual([
      [7, 'unknown key "allowed_values"; write enum: ["a","b"]'],
      [8, 'unknown key "allowed"; write enum: ["c"]'],
      [9, 'unknown key "accepted_values"; write enum: ["d"]'],
      [10, 'unknown key "range"; write min and max as keys of the column (min: 0, max: 10)'],
    ]);
  });

  it('top-level and sla keys of the legacy shapes too', () => {
    const found = problems('    - { name: ts, type: timestamp }', 'freshness_hours: 24', 'sla: { loaded_at_field: ts }');
    expect(found.map((p) => [p.path, p.message])).toEqual([
      ['freshness_hours', 'unknown key "freshness_hours"; write sla: { max_lag_hours: 24, freshness_column: <timestamp column> }'],
      ['sla.loaded_at_field', 'unknown key "loaded_at_field"; write freshness_column: "ts"'],
    ]);
  });

  it('a plain misspelling still gets "did you mean"', () => {
    expect(problems('    - { name: id, type: string, requird: true }')[0]?.message).toBe('unknown key "requird"; did you mean "required"?');
  });
});

describe('native loader: foreign spellings of warnings, tolerances and references', () => {
  it('a freshness warning threshold is warn_lag_hours, in hours', () => {
    const found = problems('    - { name: ts, type: timestamp }', 'freshness_warn_after_minutes: 90', 'freshness_error_after_minutes: 1560');
    expect(found.map((p) => [p.path, p.message])).toEqual([
      ['freshness_warn_after_minutes', 'unknown key "freshness_warn_after_minutes"; write sla: { warn_lag_hours: <hours>, freshness_column: <timestamp column> } (90 minutes is warn_lag_hours: 1.5)'],
      ['freshness_error_after_minutes', 'unknown key "freshness_error_after_minutes"; write sla: { max_lag_hours: <hours>, freshness_column: <timestamp column> } (1560 minutes is max_lag_hours: 26)'],
    ]);
  });

  it("dbt's warn_after and error_after are warn_lag_hours and max_lag_hours, counted in hours", () => {
    const found = problems('    - { name: ts, type: timestamp }', 'sla:', '  warn_after: { count: 12, period: hour }', '  error_after: { count: 1, period: day }', '  freshness_column: ts');
    expect(found.map((p) => [p.severity, p.code, p.path, p.line, p.column, p.message])).toEqual([
      ['error', 'unknown_key', 'sla.warn_after', 9, 3, 'unknown key "warn_after"; write warn_lag_hours: 12: the lag in hours that warns, below max_lag_hours'],
      ['error', 'unknown_key', 'sla.error_after', 10, 3, 'unknown key "error_after"; write max_lag_hours: 24: the lag in hours that fails a drop'],
    ]);
    expect(problems('    - { name: ts, type: timestamp }', 'sla: { warn_after: 6 }')[0]?.message).toBe('unknown key "warn_after"; write warn_lag_hours: the lag in hours that warns, below max_lag_hours');
  });

  it('relationships, foreign_key and fk on a column are references', () => {
    const found = problems(
      "    - { name: a, type: string, relationships: { to: \"ref('customers')\", field: customer_id } }",
      '    - { name: b, type: string, foreign_key: shops.shop_id }',
      '    - { name: c, type: string, fk: true }',
    );
    expect(found.map((p) => [p.line, p.path, p.message])).toEqual([
      [7, 'schema.columns[0].relationships', 'unknown key "relationships"; write references: { contract: customers, column: customer_id }'],
      [8, 'schema.columns[1].foreign_key', 'unknown key "foreign_key"; write references: { contract: shops, column: shop_id }'],
      [9, 'schema.columns[2].fk', 'unknown key "fk"; write references: { contract: <contract>, column: <column> }'],
    ]);
  });

  it('a row threshold or tolerance at the top is on_violation', () => {
    const found = problems('    - { name: id, type: string }', 'row_threshold: 0.05', 'tolerance: "2%"', 'max_invalid_rows: 100');
    expect(found.map((p) => [p.path, p.message])).toEqual([
      ['row_threshold', 'unknown key "row_threshold"; write on_violation: { row_tolerance: 0.05 }'],
      ['tolerance', 'unknown key "tolerance"; write on_violation: { row_tolerance: 0.02 }'],
      ['max_invalid_rows', 'unknown key "max_invalid_rows"; write on_violation: { max_invalid_rows: 100 }'],
    ]);
  });

  it('a tolerance inside sla goes at the top, and a percentage inside on_violation is a fraction', () => {
    expect(problems('    - { name: id, type: string }', 'sla: { row_tolerance: 0.1 }')[0]?.message).toBe('unknown key "row_tolerance"; on_violation goes at the top of the contract: on_violation: { row_tolerance: 0.1 }');
    expect(problems('    - { name: id, type: string }', 'on_violation: { max_invalid_percent: 5 }').find((p) => p.code === 'unknown_key')?.message).toBe('unknown key "max_invalid_percent"; write row_tolerance: 0.05 (a fraction: 0.02 is 2%)');
  });
});
