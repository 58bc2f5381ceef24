import { describe, expect, it } from 'vitest';
import { MAX_REFERENCE_KEYS } from '../../lib/checks/plan-facts.js';
import { checkReferences, findReferenced, type LoadedContract } from '../../lib/contract/check-references.js';
import { parseContract } from '../../lib/contract/load-contract.js';
import { locator } from '../../lib/contract/yaml-locate.js';

function contract(name: string, major: number, columns: string[], ...rest: string[]): { loaded: LoadedContract; text: string } {
  const file = `contracts/${name}.v${major}.yaml`;
  const text = [`name: ${name}`, `version: ${major}.0.0`, 'owner: { team: t, notify: [a@example.com] }', 'produces: { format: parquet }', 'schema:', '  columns:', ...columns.map((c) => `    - ${c}`), ...rest].join('\n') + '\n';
  const result = parseContract(text, file);
  if (!result.contract) throw new Error(JSON.stringify(result.problems));
  return { loaded: { contract: result.contract, file }, text };
}

/** The orders contract: its one referencing column is line 7, `references: {` at column 53. */
function orders(references: string) {
  return contract('orders', 1, [`{ name: customer_id, type: int64, references: ${references} }`]);
}

function check(referring: { loaded: LoadedContract; text: string }, ...others: LoadedContract[]) {
  const scope = { candidates: [referring.loaded, ...others], searched: () => 'in the test' };
  return checkReferences(referring.loaded, scope, locator(referring.text)).map(({ severity, code, path, line, column, message }) => ({ severity, code, path, line, column, message }));
}

const customers = (...rest: string[]) => contract('customers', 1, ['{ name: customer_id, type: int32 }', '{ name: email, type: string }'], ...rest).loaded;

describe('checkReferences', () => {
  it('finds nothing wrong with a bounded contract whose column holds the same kind of values', () => {
    expect(check(orders('{ contract: customers, column: customer_id }'), customers('sla: { max_rows: 1000 }'))).toEqual([]);
  });

  it('refuses a referenced contract whose max_rows is above the keys a reference may load', () => {
    const found = check(orders('{ contract: customers, column: customer_id }'), customers(`sla: { max_rows: ${MAX_REFERENCE_KEYS + 1} }`));
    expect(found).toEqual([
      {
        severity: 'error', code: 'reference_too_large', path: 'schema.columns[0].references.contract', line: 7, column: 65,
        message: 'customers 1.0.0 (contracts/customers.v1.yaml) allows up to 10,000,001 rows (sla.max_rows), more than the 10,000,000 keys a reference may load: the keys are held in memory while a batch is checked; reference a smaller dimension, or set sla.max_rows of customers to at most 10,000,000',
      },
    ]);
  });

  it('accepts a max_rows of exactly the bound', () => {
    expect(check(orders('{ contract: customers, column: customer_id }'), customers(`sla: { max_rows: ${MAX_REFERENCE_KEYS} }`))).toEqual([]);
  });

  it('warns that the bound cannot be checked when the referenced contract sets no max_rows', () => {
    expect(check(orders('{ contract: customers, column: customer_id }'), customers())).toEqual([
      {
        severity: 'warning', code: 'reference_unbounded', path: 'schema.columns[0].references.contract', line: 7, column: 65,
        message: 'customers 1.0.0 (contracts/customers.v1.yaml) sets no sla.max_rows, so whether its keys fit the 10,000,000 a reference may hold in memory cannot be checked before run time; set sla.max_rows on customers',
      },
    ]);
  });

  it('refuses a column the referenced contract does not have, with the closest one', () => {
    const found = check(orders('{ contract: customers, column: customerid }'), customers('sla: { max_rows: 10 }'));
    expect(found).toEqual([
      { severity: 'error', code: 'reference_unknown_column', path: 'schema.columns[0].references.column', line: 7, column: 84, message: '"customerid" is not a column of customers 1.0.0 (contracts/customers.v1.yaml); did you mean "customer_id"?' },
    ]);
    expect(check(orders('{ contract: customers, column: zzz }'), customers('sla: { max_rows: 10 }'))[0]?.message).toBe('"zzz" is not a column of customers 1.0.0 (contracts/customers.v1.yaml); its columns: customer_id, email');
  });

  it('refuses a referenced column of another kind of type', () => {
    const found = check(orders('{ contract: customers, column: email }'), customers('sla: { max_rows: 10 }'));
    expect(found.map((p) => [p.code, p.path, p.message])).toEqual([
      ['reference_type_mismatch', 'schema.columns[0].references.column', 'orders.customer_id is int64 but customers.email is string: a value matches a key only of the same kind (strings with strings, integers with integers, decimals of the same scale); declare both columns with the same kind of type'],
    ]);
  });

  it('tells decimals of different scales apart', () => {
    const prices = contract('prices', 1, ['{ name: amount, type: "decimal(12,2)" }'], 'sla: { max_rows: 10 }').loaded;
    const referring = contract('orders', 1, ['{ name: a, type: "decimal(18,2)", references: { contract: prices, column: amount } }', '{ name: b, type: "decimal(12,3)", references: { contract: prices, column: amount } }']);
    expect(check(referring, prices).map((p) => [p.code, p.path])).toEqual([['reference_type_mismatch', 'schema.columns[1].references.column']]);
  });

  it('warns, naming where it looked, when the referenced contract is not there', () => {
    const found = check(orders('{ contract: shops, column: id }'));
    expect(found).toEqual([
      {
        severity: 'warning', code: 'reference_not_found', path: 'schema.columns[0].references.contract', line: 7, column: 65,
        message: 'lint found no active version of contract "shops" (it looked in the test), so the referenced column, its type and its size are checked at run time only; lint the two contracts together to check them now',
      },
    ]);
    expect(check(orders('{ contract: customers, column: customer_id, major: 2 }'), customers())[0]?.message).toContain('lint found no contract "customers" of major version 2');
  });

  it('checks a reference to another column of the same contract', () => {
    const referring = contract('orders', 1, ['{ name: id, type: string }', '{ name: parent_id, type: int64, references: { contract: orders, column: id } }']);
    expect(check(referring).map((p) => p.code)).toEqual(['reference_type_mismatch', 'reference_unbounded']);
  });
});

describe('findReferenced', () => {
  const v1 = customers();
  const v2 = contract('customers', 2, ['{ name: customer_id, type: int32 }']).loaded;
  const v3 = contract('customers', 3, ['{ name: customer_id, type: int32 }'], 'status: deprecated', 'sunset: 2027-01-01').loaded;

  it('takes the highest active major unless a major is named', () => {
    expect(findReferenced({ contract: 'customers', column: 'customer_id' }, [v1, v2, v3])).toBe(v2);
    expect(findReferenced({ contract: 'customers', column: 'customer_id', major: 1 }, [v1, v2, v3])).toBe(v1);
    expect(findReferenced({ contract: 'customers', column: 'customer_id', major: 3 }, [v1, v2, v3])).toBe(v3);
    expect(findReferenced({ contract: 'shops', column: 'id' }, [v1, v2, v3])).toBeUndefined();
  });
});
