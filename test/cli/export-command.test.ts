import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { runCli } from '../../lib/cli/run-cli.js';
import { EXPORT_USAGE } from '../../lib/cli/usage.js';
import { EXPORT_TARGETS, exportContract } from '../../lib/export/export-contract.js';
import { ordersContract } from '../fixtures/partition.js';

const ORDERS = 'contracts/orders.v1.yaml';

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false };
  return { code: await runCli(['export', ...args], io), stdout, stderr };
}

const tempDir = () => mkdtempSync(join(tmpdir(), 'cg-export-'));

describe('contract-gate export', () => {
  it.each(EXPORT_TARGETS)('exits 0 and prints the %s export on stdout', async (target) => {
    const { code, stdout, stderr } = await run([ORDERS, '--to', target]);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toBe(exportContract(ordersContract(), target));
  });

  it('writes the export to the --out file and says where', async () => {
    const out = join(tempDir(), 'schema.yml');
    const { code, stdout } = await run([ORDERS, '--to', 'dbt', '--out', out]);
    expect(code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(exportContract(ordersContract(), 'dbt'));
    expect(stdout).toBe(`wrote dbt export of orders 1.2.0 to ${out}\n`);
  });

  it('puts the table at the --location it is given', async () => {
    const { code, stdout } = await run([ORDERS, '--to', 'sql', '--location', 's3://lake/published/orders/v1/']);
    expect(code).toBe(0);
    expect(stdout).toContain("LOCATION 's3://lake/published/orders/v1/'");
  });

  it('names the types for the warehouse --adapter names, and SQL-standard ones without it', async () => {
    const bigquery = await run([ORDERS, '--to', 'dbt', '--adapter', 'bigquery']);
    expect(bigquery.code).toBe(0);
    expect(bigquery.stdout).toBe(exportContract(ordersContract(), 'dbt', { adapter: 'bigquery' }));
    expect(bigquery.stdout).toContain('data_type: numeric(12,2)');
    expect((await run([ORDERS, '--to', 'dbt'])).stdout).toContain('data_type: decimal(12,2)');
  });

  it('exits 2 naming the valid targets for an unknown one', async () => {
    const { code, stdout, stderr } = await run([ORDERS, '--to', 'avro']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`contract-gate export: unknown export target "avro"; expected one of ${EXPORT_TARGETS.join(', ')}\n`);
  });

  it.each([
    ['no --to', [ORDERS], '--to is required'],
    ['no contract', ['--to', 'sql'], 'name one contract file'],
    ['a --location that is not on S3', [ORDERS, '--to', 'sql', '--location', '/tmp/lake'], '--location must be s3://'],
    ['a --location for a target without a table', [ORDERS, '--to', 'jsonschema', '--location', 's3://lake/x/'], '--location applies to --to dbt and sql only'],
    ['an --adapter for a target other than dbt', [ORDERS, '--to', 'sql', '--adapter', 'athena'], '--adapter applies to --to dbt only'],
    ['an unknown --adapter', [ORDERS, '--to', 'dbt', '--adapter', 'oracle'], 'unknown dbt adapter "oracle"; expected one of ansi, snowflake, bigquery, postgres, redshift, duckdb, athena, databricks'],
    ['an unknown option', [ORDERS, '--to', 'sql', '--format', 'json'], "unknown option '--format'\nusage: contract-gate export"],
    ['a --check for a target other than dbt', [ORDERS, '--to', 'sql', '--check', 'x.sql'], '--check applies to --to dbt only'],
    ['a --write for a target other than dbt', [ORDERS, '--to', 'odcs', '--write', 'x.yaml'], '--write applies to --to dbt only'],
    ['--check with --write', [ORDERS, '--to', 'dbt', '--check', 'a.yml', '--write', 'a.yml'], 'give one of --check, --write and --out, not --check and --write'],
    ['--check with --out', [ORDERS, '--to', 'dbt', '--check', 'a.yml', '--out', 'b.yml'], 'give one of --check, --write and --out, not --check and --out'],
    ['a contract file that does not exist', ['contracts/missing.v1.yaml', '--to', 'sql'], 'cannot read the contract file'],
  ])('exits 2 with %s', async (_case, args, message) => {
    const { code, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('names every export target in its usage line', () => {
    expect(EXPORT_USAGE).toContain(`--to ${EXPORT_TARGETS.join('|')} `);
  });

  it('exits 2 listing every problem of an invalid contract', async () => {
    const path = join(tempDir(), 'broken.v1.yaml');
    writeFileSync(path, 'name: broken\nversion: one\nowner: { team: x, notify: [a@b.c] }\nproduces: { format: parquet }\nschema:\n  columns:\n    - { name: id, type: strin }\n');
    const { code, stderr } = await run([path, '--to', 'dbt']);
    expect(code).toBe(2);
    expect(stderr).toContain('is not a valid contract');
    expect(stderr).toContain('unknown type "strin"');
  });
});

describe('contract-gate export --to dbt --check and --write: the dbt tests in CI', () => {
  const REGENERATE = (file: string, adapter?: string) => `npx contract-gate export ${ORDERS} --to dbt${adapter ? ` --adapter ${adapter}` : ''} --write ${file}`;

  it('exits 1 on a hand-edited generated test, with a diff and the command that regenerates, and 0 after that command', async () => {
    const file = join(tempDir(), '_orders.yml');
    expect((await run([ORDERS, '--to', 'dbt', '--write', file])).code).toBe(0);
    expect(await run([ORDERS, '--to', 'dbt', '--check', file])).toEqual({ code: 0, stdout: `${file} is up to date with orders 1.2.0 (model orders, source table published.orders_v1)\n`, stderr: '' });

    writeFileSync(file, readFileSync(file, 'utf8').replace('max_value: 32', 'max_value: 64'));
    const drifted = await run([ORDERS, '--to', 'dbt', '--check', file]);
    expect(drifted.code).toBe(1);
    expect(drifted.stderr).toBe('');
    expect(drifted.stdout).toContain(`${file} is out of date: its dbt tests are not the ones ${ORDERS} (orders 1.2.0) generates\n  model orders differs\n`);
    expect(drifted.stdout).toContain('--- committed\n+++ generated from orders 1.2.0\n@@ ');
    expect(drifted.stdout).toContain('\n-              max_value: 64\n+              max_value: 32\n');
    expect(drifted.stdout).toContain(`\n  ${REGENERATE(file)}\n`);

    const regenerated = await run(REGENERATE(file).split(' ').slice(3));
    expect(regenerated).toEqual({ code: 0, stdout: `wrote the dbt export of orders 1.2.0 into ${file} (model orders, source table published.orders_v1; the rest of the file kept)\n`, stderr: '' });
    expect((await run([ORDERS, '--to', 'dbt', '--check', file])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(exportContract(ordersContract(), 'dbt'));
  });

  it('ignores what a project adds outside the generated part, and --write keeps it', async () => {
    const file = join(tempDir(), 'schema.yml');
    const project = `version: 2\nmodels:\n  - name: customers  # ours\n    columns: [{ name: id }]\n${exportContract(ordersContract(), 'dbt').replace(/^[\s\S]*?models:\n/, '').replace('    config:\n', '    tags: [finance]\n    config:\n      materialized: table\n')}`;
    writeFileSync(file, project);
    expect((await run([ORDERS, '--to', 'dbt', '--check', file])).code).toBe(0);
    writeFileSync(file, project.replace('- not_null\n          - unique', '- not_null'));
    expect((await run([ORDERS, '--to', 'dbt', '--check', file])).code).toBe(1);
    expect((await run([ORDERS, '--to', 'dbt', '--write', file])).code).toBe(0);
    expect((await run([ORDERS, '--to', 'dbt', '--check', file])).code).toBe(0);
    const written = readFileSync(file, 'utf8');
    for (const kept of ['- name: customers # ours', 'tags: [ finance ]', 'materialized: table']) expect(written).toContain(kept);
  });

  it('exits 1 for a file that was never written, and --write makes it, directories too', async () => {
    const file = join(tempDir(), 'models', 'staging', '_orders.yml');
    const { code, stdout } = await run([ORDERS, '--to', 'dbt', '--check', file]);
    expect(code).toBe(1);
    expect(stdout).toBe(`${file} does not exist: the dbt tests of ${ORDERS} (orders 1.2.0) were never written there\n\nTo fix, change the contract if the tests should change, then regenerate the file and commit it:\n  ${REGENERATE(file)}\nIt rewrites only model orders, source table published.orders_v1; the rest of the file is kept.\n`);
    expect(existsSync(file)).toBe(false);
    expect((await run([ORDERS, '--to', 'dbt', '--write', file])).code).toBe(0);
    expect((await run([ORDERS, '--to', 'dbt', '--check', file])).code).toBe(0);
  });

  it('says when a file is already up to date and leaves it alone', async () => {
    const file = join(tempDir(), 'schema.yml');
    await run([ORDERS, '--to', 'dbt', '--write', file]);
    expect((await run([ORDERS, '--to', 'dbt', '--write', file])).stdout).toBe(`${file} is up to date with orders 1.2.0; not rewritten\n`);
  });

  it.each(['snowflake', 'bigquery', 'postgres', 'duckdb', 'athena'] as const)('checks the types --adapter %s names, and says which adapter a file was written for', async (adapter) => {
    const file = join(tempDir(), 'schema.yml');
    expect((await run([ORDERS, '--to', 'dbt', '--adapter', adapter, '--write', file])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(exportContract(ordersContract(), 'dbt', { adapter }));
    expect((await run([ORDERS, '--to', 'dbt', '--adapter', adapter, '--check', file])).code).toBe(0);
    const other = adapter === 'postgres' ? 'duckdb' : 'postgres';
    const mismatched = await run([ORDERS, '--to', 'dbt', '--adapter', other, '--check', file]);
    expect(mismatched.code).toBe(1);
    expect(mismatched.stdout).toContain(`The committed model was exported with --adapter ${adapter}; if that is the warehouse, check with --adapter ${adapter}.`);
    expect(mismatched.stdout).toContain(REGENERATE(file, other));
  });

  it('exits 2 naming a committed file that is not YAML, and the fix', async () => {
    const file = join(tempDir(), 'schema.yml');
    writeFileSync(file, 'version: 2\nmodels: [\n');
    const { code, stderr } = await run([ORDERS, '--to', 'dbt', '--check', file]);
    expect(code).toBe(2);
    expect(stderr).toContain(`${file}: not a dbt schema file: `);
    expect(stderr).toContain('Fix the YAML, or delete the file and write it again with --write');
  });
});
