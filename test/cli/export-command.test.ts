import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
