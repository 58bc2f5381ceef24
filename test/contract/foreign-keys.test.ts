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
