import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';

/** Lines 1-6; columns start on line 7, each `{` in column 7. */
const HEAD = ['name: orders', 'version: 1.0.0', 'owner: { team: t, notify: [a@example.com] }', 'produces: { format: parquet }', 'schema:', '  columns:'];

function load(...lines: string[]) {
  return parseContract([...HEAD, ...lines].join('\n') + '\n', 'orders.v1.yaml');
}

function problems(...lines: string[]) {
  return load(...lines).problems.map(({ severity, code, path, line, column, message }) => ({ severity, code, path, line, column, message }));
}

/** `    - { name: customer_id, type: string, references: ` is 53 characters: the `{` of references is column 54. */
const column = (references: string) => `    - { name: customer_id, type: string, references: ${references} }`;

describe('references on a column', () => {
  it('loads the contract and column it names', () => {
    const { contract, problems: found } = load(column('{ contract: customers, column: customer_id }'));
    expect(found).toEqual([]);
    expect(contract?.schema.columns[0]?.references).toEqual({ contract: 'customers', column: 'customer_id' });
  });

  it('loads a major version and a partition', () => {
    const { contract, problems: found } = load(column('{ contract: customers, column: id, major: 2, partition: dt=2026-11-30 }'));
    expect(found).toEqual([]);
    expect(contract?.schema.columns[0]?.references).toEqual({ contract: 'customers', column: 'id', major: 2, partition: 'dt=2026-11-30' });
  });

  it('may reference another column of its own contract', () => {
    const { contract } = load('    - { name: id, type: string }', '    - { name: parent_id, type: string, references: { contract: orders, column: id } }');
    expect(contract?.schema.columns[1]?.references).toEqual({ contract: 'orders', column: 'id' });
  });

  it('refuses a column that references itself', () => {
    expect(problems(column('{ contract: orders, column: customer_id }'))).toEqual([
      {
        severity: 'error', code: 'self_reference', path: 'schema.columns[0].references.column', line: 7, column: 82,
        message: 'column "customer_id" references itself in contract "orders": its values would be checked against their own keys; name the column of another contract (or another column of this one) it points to',
      },
    ]);
  });

  it('refuses a contract that is not a dataset name', () => {
    expect(problems(column('{ contract: Customers, column: id }'))).toEqual([
      {
        severity: 'error', code: 'invalid_value', path: 'schema.columns[0].references.contract', line: 7, column: 66,
        message: '"Customers" is not a dataset name; expected lower case letters, digits, "_" or "-", starting with a letter: the name of the referenced contract, e.g. customers',
      },
    ]);
  });

  it('needs both contract and column', () => {
    expect(problems(column('{ contract: customers }')).map((p) => [p.code, p.path, p.line, p.column, p.message])).toEqual([
      ['missing_key', 'schema.columns[0].references.column', 7, 54, 'missing required key "column"'],
    ]);
  });

  it('refuses a major below 1 and a partition that is not a path', () => {
    expect(problems(column('{ contract: customers, column: id, major: 0 }')).map((p) => [p.code, p.path, p.message])).toEqual([
      ['invalid_value', 'schema.columns[0].references.major', 'expected a whole number of at least 1, found 0'],
    ]);
    expect(problems(column('{ contract: customers, column: id, partition: "dt={ds}" }')).map((p) => [p.code, p.path, p.column, p.message])).toEqual([
      ['invalid_value', 'schema.columns[0].references.partition', 100, 'expected a partition path of key=value segments such as dt=2026-11-30 (or leave partition out for the latest published one), found "dt={ds}"'],
    ]);
  });

  it('names the native key for dbt relationships', () => {
    expect(problems(column('{ to: "ref(\'customers\')", field: id }')).map((p) => [p.code, p.path, p.message])).toEqual([
      ['missing_key', 'schema.columns[0].references.contract', 'missing required key "contract"'],
      ['missing_key', 'schema.columns[0].references.column', 'missing required key "column"'],
      ['unknown_key', 'schema.columns[0].references.to', 'unknown key "to"; write contract: "customers": the name of the referenced contract'],
      ['unknown_key', 'schema.columns[0].references.field', 'unknown key "field"; write column: "id": the referenced column'],
    ]);
  });

  it('suggests the key a misspelling meant', () => {
    expect(problems(column('{ contract: customers, colum: id }')).find((p) => p.code === 'unknown_key')?.message).toBe('unknown key "colum"; did you mean "column"?');
  });
});
