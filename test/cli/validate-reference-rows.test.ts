import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { runCli } from '../../lib/cli/run-cli.js';
import type { Report } from '../../lib/report/report.js';
import { duckdbParquet } from '../fixtures/duckdb-parquet.js';
import { findAll, parseStrictXml } from './strict-xml.js';

const CONTRACT = `name: orders
version: 1.0.0
owner: { team: orders, notify: [orders@example.com] }
produces: { format: parquet, partition: "dt={ds}" }
schema:
  grain: [order_id]
  columns:
    - { name: order_id, type: int64, required: true }
    - { name: amount, type: "decimal(12,2)", required: true, min: 0 }
reference_rows:
  - key: { order_id: 1001 }
    expect: { amount: 100.00 }
    required: true
    description: the known test order, pre-tax
`;

/** A partition as a producer's DuckDB job writes it, after amounts turned post-tax (8%). */
async function taxedPartition(): Promise<{ contract: string; partition: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'cg-validate-reference-'));
  const partition = join(dir, 'dt=2026-11-29');
  mkdirSync(partition);
  writeFileSync(join(partition, 'part-0.parquet'), await duckdbParquet('SELECT i::BIGINT AS order_id, (CASE WHEN i = 1001 THEN 100.00 ELSE i % 90 END * 1.08)::DECIMAL(12,2) AS amount FROM range(3000) r(i)'));
  writeFileSync(join(dir, 'orders.v1.yaml'), CONTRACT);
  return { contract: join(dir, 'orders.v1.yaml'), partition };
}

async function validate(args: string[]) {
  let stdout = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: () => undefined, isTTY: false };
  return { code: await runCli(['validate', ...args, '--now', '2026-11-30T05:00:00Z'], io), stdout };
}

describe('validate with reference rows', () => {
  it('exits 1 on a post-tax reference order whose schema passes, naming the key, the column, the expected and the found value', async () => {
    const { contract, partition } = await taxedPartition();
    const { code, stdout } = await validate(['--contract', contract, partition, '--format', 'json']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as Report;
    expect(report.violations.map((v) => [v.rule, v.column, v.message, v.samples])).toEqual([
      ['reference_value', 'amount', 'reference row order_id=1001: amount is "108.00", expected "100.00"', [{ file: expect.stringMatching(/part-0\.parquet$/), row: 1001, value: '108.00' }]],
    ]);
    const junit = parseStrictXml((await validate(['--contract', contract, partition, '--format', 'junit'])).stdout);
    const failed = findAll(junit, 'testcase').filter((c) => c.children.some((child) => child.name === 'failure')).map((c) => c.attributes.name);
    expect(failed).toEqual(['reference_value amount']);
    expect(findAll(junit, 'testcase').map((c) => c.attributes.name)).toContain('reference_missing');
  });
});
