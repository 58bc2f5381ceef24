import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';

/** Lines 1-7; the line under test is line 8. */
const HEAD = ['name: orders', 'version: 1.0.0', 'owner: { team: t, notify: [a@example.com] }', 'produces: { format: parquet }', 'schema:', '  columns:', '    - { name: id, type: string }'];

function load(...lines: string[]) {
  return parseContract([...HEAD, ...lines].join('\n') + '\n', 'orders.v1.yaml');
}

function problems(...lines: string[]) {
  return load(...lines).problems.map(({ severity, code, path, line, column, message }) => ({ severity, code, path, line, column, message }));
}

describe('on_violation', () => {
  it.each([
    ['a fraction of the rows', 'on_violation: { row_tolerance: 0.02 }', { rowTolerance: 0.02 }],
    ['no tolerance at all', 'on_violation: { row_tolerance: 0 }', { rowTolerance: 0 }],
    ['a number of rows', 'on_violation:\n  max_invalid_rows: 100', { maxInvalidRows: 100 }],
  ])('loads %s', (_what, line, expected) => {
    const { contract, problems: found } = load(line);
    expect(found).toEqual([]);
    expect(contract?.onViolation).toEqual(expected);
  });

  it('is absent from a contract that does not write it', () => {
    expect(load().contract).not.toHaveProperty('onViolation');
  });

  it('refuses a fraction of 1 or more, saying how to write a percentage', () => {
    expect(problems('on_violation: { row_tolerance: 2 }')).toEqual([
      { severity: 'error', code: 'invalid_value', path: 'on_violation.row_tolerance', line: 8, column: 32, message: 'expected a fraction of the rows, at least 0 and below 1, found 2; a fraction: 0.02 is 2% (for 2% write 0.02)' },
    ]);
    expect(problems('on_violation: { row_tolerance: 1 }')[0]?.message).toBe('expected a fraction of the rows, at least 0 and below 1, found 1; a fraction: 0.02 is 2% (for 1% write 0.01)');
  });

  it('refuses a percentage written as text, with the fraction to write', () => {
    expect(problems('on_violation: { row_tolerance: "2.5%" }')).toEqual([
      { severity: 'error', code: 'wrong_type', path: 'on_violation.row_tolerance', line: 8, column: 32, message: 'expected a fraction, found "2.5%": write 0.025 for 2.5%' },
    ]);
  });

  it('refuses a negative fraction and a count that is not a whole number', () => {
    expect(problems('on_violation: { row_tolerance: -0.1 }').map((p) => [p.code, p.message])).toEqual([['invalid_value', 'expected a number of at least 0, found -0.1']]);
    expect(problems('on_violation: { max_invalid_rows: 2.5 }').map((p) => [p.code, p.path, p.message])).toEqual([['wrong_type', 'on_violation.max_invalid_rows', 'expected a whole number, found number 2.5']]);
  });

  it('refuses both keys at once, at the second', () => {
    expect(problems('on_violation: { row_tolerance: 0.02, max_invalid_rows: 100 }')).toEqual([
      { severity: 'error', code: 'conflicting_keys', path: 'on_violation.max_invalid_rows', line: 8, column: 38, message: 'write row_tolerance (a fraction of the rows) or max_invalid_rows (a number of rows), not both' },
    ]);
  });

  it('refuses an empty mapping, naming both keys', () => {
    expect(problems('on_violation: {}')).toEqual([
      { severity: 'error', code: 'missing_key', path: 'on_violation.row_tolerance', line: 8, column: 15, message: 'on_violation needs row_tolerance (a fraction of the rows, e.g. 0.02) or max_invalid_rows (a number of rows, e.g. 100)' },
    ]);
  });

  it('suggests the key a misspelling meant', () => {
    expect(problems('on_violation: { row_tolerence: 0.02 }').map((p) => [p.code, p.path, p.line, p.column, p.message])).toEqual([
      ['missing_key', 'on_violation.row_tolerance', 8, 15, 'on_violation needs row_tolerance (a fraction of the rows, e.g. 0.02) or max_invalid_rows (a number of rows, e.g. 100)'],
      ['unknown_key', 'on_violation.row_tolerence', 8, 17, 'unknown key "row_tolerence"; did you mean "row_tolerance"?'],
    ]);
  });

  it('is a mapping, not a number', () => {
    expect(problems('on_violation: 0.02').map((p) => [p.code, p.path, p.line, p.column, p.message])).toEqual([['wrong_type', 'on_violation', 8, 15, 'expected a mapping, found number 0.02']]);
  });
});
