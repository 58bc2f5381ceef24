import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';

/** Lines 1-11; `reference_rows` starts on line 12. */
const HEAD = [
  'name: orders', 'version: 1.0.0', 'owner: { team: t, notify: [a@example.com] }', 'produces: { format: parquet }', 'schema:',
  '  grain: [order_id]',
  '  columns:',
  '    - { name: order_id, type: string, required: true }',
  '    - { name: amount, type: "decimal(12,2)", required: true }',
  '    - { name: status, type: string }',
  '    - { name: placed_at, type: timestamp }',
];

function load(...lines: string[]) {
  return parseContract([...HEAD, ...lines].join('\n') + '\n', 'orders.v1.yaml');
}

function problems(...lines: string[]) {
  return load(...lines).problems.map(({ code, path, line, column, message }) => ({ code, path, line, column, message }));
}

describe('reference_rows', () => {
  it('loads a key, exact and tolerant expectations, required and severity', () => {
    const { contract, problems: found } = load(
      'reference_rows:',
      '  - key: { order_id: "1001" }',
      '    expect: { amount: { value: 100.00, absolute: 0.01 }, status: paid, placed_at: "2026-11-29T10:00:00Z" }',
      '    required: true',
      '    description: the known test order, pre-tax',
      '  - key: { order_id: "1002" }',
      '    expect: { amount: { value: 20, relative: 0.001 } }',
      '    severity: warn',
    );
    expect(found).toEqual([]);
    expect(contract?.referenceRows).toEqual([
      {
        key: [{ column: 'order_id', value: '1001' }],
        expect: [{ column: 'amount', value: 100, absolute: 0.01 }, { column: 'status', value: 'paid' }, { column: 'placed_at', value: '2026-11-29T10:00:00Z' }],
        required: true, description: 'the known test order, pre-tax',
      },
      { key: [{ column: 'order_id', value: '1002' }], expect: [{ column: 'amount', value: 20, relative: 0.001 }], required: false, severity: 'warn' },
    ]);
  });

  it('is absent from a contract that does not write it', () => {
    expect(load().contract).not.toHaveProperty('referenceRows');
  });

  it('keeps a decimal past 15 digits as its text, so no digit is lost', () => {
    const { contract } = parseContract([...HEAD.slice(0, 8), '    - { name: amount, type: "decimal(30,4)" }', 'reference_rows:', '  - key: { order_id: a }', '    expect: { amount: 12345678901234567.8901 }'].join('\n'), 'orders.v1.yaml');
    expect(contract?.referenceRows?.[0]?.expect).toEqual([{ column: 'amount', value: '12345678901234567.8901' }]);
  });

  it('refuses an unknown column, with its position', () => {
    expect(problems('reference_rows:', '  - key: { order_id: "1001" }', '    expect: { total: 100 }')).toEqual([
      { code: 'unknown_column', path: 'reference_rows[0].expect.total', line: 14, column: 15, message: '"total" is not a column of schema.columns' },
    ]);
  });

  it('refuses a key that does not match the grain: a column outside it, and one of it left out', () => {
    expect(problems('reference_rows:', '  - key: { id: "1001" }', '    expect: { amount: 100 }').map((p) => [p.code, p.path, p.message])).toEqual([
      ['missing_key', 'reference_rows[0].key', 'the key must give every column of schema.grain (order_id); it lacks order_id'],
      ['unknown_key', 'reference_rows[0].key.id', 'unknown key "id"; expected one of: order_id'],
    ]);
  });

  it('refuses a value of the wrong type for its column, saying how to write it', () => {
    expect(problems('reference_rows:', '  - key: { order_id: 1001 }', '    expect: { amount: "a lot" }').map((p) => [p.code, p.path, p.message])).toEqual([
      ['wrong_type', 'reference_rows[0].key.order_id', "expected a value of order_id's type string (a string: quote a value that looks like a number), found number 1001"],
      ['wrong_type', 'reference_rows[0].expect.amount', 'expected a value of amount\'s type decimal(12,2), found "a lot"'],
    ]);
    expect(problems('reference_rows:', '  - key: { order_id: a }', '    expect: { amount: 1.005 }').map((p) => p.message)).toEqual(["expected a value of amount's type decimal(12,2), found number 1.005"]);
    // Read as the engine reads a timestamp column's text: an instant needs its offset.
    expect(problems('reference_rows:', '  - key: { order_id: a }', '    expect: { placed_at: "2026-11-29 10:00" }').map((p) => p.message)).toEqual([
      `expected a value of placed_at's type timestamp (an ISO timestamp with an offset such as "2026-11-30T06:00:00Z"), found "2026-11-29 10:00"`,
    ]);
  });

  it('refuses a tolerance on a column that is not numeric, and a grain column under expect', () => {
    expect(problems('reference_rows:', '  - key: { order_id: a }', '    expect: { status: { value: paid, absolute: 1 }, order_id: a }').map((p) => [p.code, p.path])).toEqual([
      ['rule_not_for_type', 'reference_rows[0].expect.status.absolute'],
      ['invalid_value', 'reference_rows[0].expect.order_id'],
    ]);
  });

  it('refuses a row that checks nothing, two rows with one key, and rows without a grain', () => {
    expect(problems('reference_rows:', '  - key: { order_id: a }').map((p) => [p.code, p.path])).toEqual([['missing_key', 'reference_rows[0].expect']]);
    expect(problems('reference_rows:', '  - { key: { order_id: a }, required: true }', '  - { key: { order_id: a }, required: true }').map((p) => [p.code, p.path, p.message])).toEqual([
      ['duplicate_reference_row', 'reference_rows[1].key', 'reference_rows[0] has the same key (order_id=a): merge the two rows'],
    ]);
    const noGrain = parseContract([...HEAD.slice(0, 5), ...HEAD.slice(6), 'reference_rows:', '  - { key: { order_id: a }, required: true }'].join('\n'), 'orders.v1.yaml');
    expect(noGrain.problems.map((p) => [p.code, p.path])).toEqual([['invalid_value', 'reference_rows']]);
  });
});
