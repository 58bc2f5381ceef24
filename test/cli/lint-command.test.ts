import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCaptured } from './run-captured.js';

/** A contract file: `columns` from line 7, each `{` in column 7; `rest` after them. */
function contractText(name: string, major: number, columns: string[], ...rest: string[]): string {
  const head = [`name: ${name}`, `version: ${major}.0.0`, 'owner: { team: t, notify: [a@example.com] }', 'produces: { format: parquet }', 'schema:', '  columns:'];
  return [...head, ...columns.map((c) => `    - ${c}`), ...rest].join('\n') + '\n';
}

function directory(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cg-lint-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Line 7; `references: {` at column 53, its contract value at 65 and its column value at 84. */
const ORDERS = contractText('orders', 1, ['{ name: customer_id, type: int64, references: { contract: customers, column: customer_id } }']);
const customers = (type: string, ...rest: string[]) => contractText('customers', 1, [`{ name: customer_id, type: ${type} }`], ...rest);

describe('contract-gate lint: references across contracts', () => {
  it('passes a reference to a bounded contract linted with it, whose column holds the same kind of values', async () => {
    const dir = directory({ 'orders.v1.yaml': ORDERS, 'customers.v1.yaml': customers('int32', 'sla: { max_rows: 100000 }') });
    const { code, stdout, stderr } = await runCaptured('lint', join(dir, 'orders.v1.yaml'), join(dir, 'customers.v1.yaml'));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toBe(`ok ${join(dir, 'orders.v1.yaml')}: orders 1.0.0\nok ${join(dir, 'customers.v1.yaml')}: customers 1.0.0\n`);
  });

  it('refuses a referenced contract found beside the linted file whose max_rows is above 10,000,000', async () => {
    const dir = directory({ 'orders.v1.yaml': ORDERS, 'customers.v1.yaml': customers('int64', 'sla: { max_rows: 50000000 }') });
    const file = join(dir, 'orders.v1.yaml');
    const { code, stdout, stderr } = await runCaptured('lint', file);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `${file}:7:65 error [reference_too_large] schema.columns[0].references.contract: customers 1.0.0 (${join(dir, 'customers.v1.yaml')}) allows up to 50,000,000 rows (sla.max_rows), more than the 10,000,000 keys a reference may load: the keys are held in memory while a batch is checked; reference a smaller dimension, or set sla.max_rows of customers to at most 10,000,000\n`,
    );
  });

  it('refuses a referenced column that is missing or of another kind of type', async () => {
    const dir = directory({ 'orders.v1.yaml': ORDERS, 'customers.v1.yaml': customers('string', 'sla: { max_rows: 10 }') });
    const mismatch = await runCaptured('lint', join(dir, 'orders.v1.yaml'));
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toContain(`${join(dir, 'orders.v1.yaml')}:7:84 error [reference_type_mismatch] schema.columns[0].references.column: orders.customer_id is int64 but customers.customer_id is string`);
    writeFileSync(join(dir, 'customers.v1.yaml'), contractText('customers', 1, ['{ name: id, type: int64 }'], 'sla: { max_rows: 10 }'));
    const missing = await runCaptured('lint', join(dir, 'orders.v1.yaml'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`error [reference_unknown_column] schema.columns[0].references.column: "customer_id" is not a column of customers 1.0.0 (${join(dir, 'customers.v1.yaml')}); its columns: id`);
  });

  it('warns, and passes, when the referenced contract sets no max_rows', async () => {
    const dir = directory({ 'orders.v1.yaml': ORDERS, 'customers.v1.yaml': customers('int64') });
    const { code, stdout, stderr } = await runCaptured('lint', join(dir, 'orders.v1.yaml'));
    expect(code).toBe(0);
    expect(stdout).toBe(`ok ${join(dir, 'orders.v1.yaml')}: orders 1.0.0 (1 warnings)\n`);
    expect(stderr).toContain('warning [reference_unbounded] schema.columns[0].references.contract: customers 1.0.0');
    expect(stderr).toContain('cannot be checked before run time; set sla.max_rows on customers');
  });

  it('warns, naming where it looked, when the referenced contract is nowhere', async () => {
    const dir = directory({ 'orders.v1.yaml': ORDERS });
    const { code, stderr } = await runCaptured('lint', join(dir, 'orders.v1.yaml'), 'contracts/orders.v1.yaml');
    expect(code).toBe(0);
    expect(stderr).toBe(
      `${join(dir, 'orders.v1.yaml')}:7:65 warning [reference_not_found] schema.columns[0].references.contract: lint found no active version of contract "customers" (it looked among the 2 files linted and for customers.v*.yaml in ${dir}/), so the referenced column, its type and its size are checked at run time only; lint the two contracts together to check them now\n`,
    );
  });

  it('says so when the referenced contract beside the file does not load', async () => {
    const dir = directory({ 'orders.v1.yaml': ORDERS, 'customers.v1.yaml': 'name: customers\n' });
    const { code, stderr } = await runCaptured('lint', join(dir, 'orders.v1.yaml'));
    expect(code).toBe(0);
    expect(stderr).toContain(`for customers.v*.yaml in ${dir}/, where customers.v1.yaml did not load)`);
  });

  it('takes the highest active major beside the file, or the one named', async () => {
    const dir = directory({
      'orders.v1.yaml': ORDERS,
      'customers.v1.yaml': customers('int64', 'sla: { max_rows: 10 }'),
      'customers.v2.yaml': contractText('customers', 2, ['{ name: customer_id, type: string }'], 'sla: { max_rows: 10 }'),
    });
    expect((await runCaptured('lint', join(dir, 'orders.v1.yaml'))).stderr).toContain('customers.customer_id is string');
    writeFileSync(join(dir, 'orders.v1.yaml'), ORDERS.replace('column: customer_id }', 'column: customer_id, major: 1 }'));
    expect(await runCaptured('lint', join(dir, 'orders.v1.yaml'))).toEqual({ code: 0, stdout: `ok ${join(dir, 'orders.v1.yaml')}: orders 1.0.0\n`, stderr: '' });
  });

  it('writes the cross-contract problems as GitHub annotations too', async () => {
    const dir = directory({ 'orders.v1.yaml': ORDERS, 'customers.v1.yaml': customers('int64', 'sla: { max_rows: 50000000 }') });
    const { code, stdout } = await runCaptured('lint', '--format', 'github', join(dir, 'orders.v1.yaml'));
    expect(code).toBe(2);
    expect(stdout).toMatch(/^::error file=[^,]+,line=7,col=65,title=reference_too_large::schema.columns\[0\]\.references\.contract: customers 1\.0\.0 /);
  });
});

describe('contract-gate lint: the new rule keys', () => {
  it('reports a misspelt key with the key it meant, at its position', async () => {
    const dir = directory({ 'orders.v1.yaml': contractText('orders', 1, ['{ name: id, type: string }'], 'on_violation: { row_tolerence: 0.02 }') });
    const file = join(dir, 'orders.v1.yaml');
    const { code, stderr } = await runCaptured('lint', file);
    expect(code).toBe(2);
    expect(stderr).toContain(`${file}:8:17 error [unknown_key] on_violation.row_tolerence: unknown key "row_tolerence"; did you mean "row_tolerance"?`);
  });

  it('passes a contract with a rule severity on an undeclared rule, with the warning', async () => {
    const dir = directory({ 'orders.v1.yaml': contractText('orders', 1, ['{ name: id, type: string, severity: { enum: warn } }']) });
    const file = join(dir, 'orders.v1.yaml');
    const { code, stdout, stderr } = await runCaptured('lint', file);
    expect(code).toBe(0);
    expect(stdout).toBe(`ok ${file}: orders 1.0.0 (1 warnings)\n`);
    expect(stderr).toBe(`${file}:7:45 warning [rule_not_declared] schema.columns[0].severity.enum: column "id" declares no enum rule, so its severity changes nothing; declare it (enum: [...]) or remove enum from severity\n`);
  });
});
