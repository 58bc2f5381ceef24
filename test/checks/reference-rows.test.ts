import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import { runChecks, validatePartition } from '../../lib/checks/validate-partition.js';
import { hashValue } from '../../lib/checks/key-hash.js';
import { strictContract } from '../../lib/checks/rule-severity.js';
import { runChecksInParallel } from '../../lib/parallel/parallel-checks.js';
import { localPartitionFiles } from '../../lib/storage/local-files.js';
import { duckdbParquet } from '../fixtures/duckdb-parquet.js';
import { makeOrders, orderId, ordersToParquet } from '../fixtures/orders-fixture.js';
import { contractFrom, memoryFile, NEXT_MORNING, ordersContract, validate } from '../fixtures/partition.js';

/** A small orders dataset whose order 1001 is the reference order: pre-tax total 100.00. */
const CONTRACT = (format: 'parquet' | 'csv', rows: string) => contractFrom(`name: orders
version: 1.0.0
owner: { team: orders, notify: [orders@example.com] }
produces: { format: ${format} }
schema:
  grain: [order_id]
  columns:
    - { name: order_id, type: int64, required: true }
    - { name: status, type: string, required: true, enum: [placed, paid] }
    - { name: amount, type: "decimal(12,2)", required: true, min: 0 }
reference_rows:
${rows}
`);

const REFERENCE = `  - key: { order_id: 1001 }
    expect: { amount: 100.00, status: paid }
    required: true`;

/** 5,000 orders; order 1001 is paid and its amount is `total`, as a producer's DuckDB job writes it. */
async function ordersParquet(total: string): Promise<Uint8Array> {
  return duckdbParquet(`SELECT i::BIGINT AS order_id, CASE WHEN i = 1001 THEN 'paid' ELSE 'placed' END AS status,
    (CASE WHEN i = 1001 THEN ${total} ELSE (i % 500) / 4 END)::DECIMAL(12,2) AS amount FROM range(5000) r(i)`, 'ROW_GROUP_SIZE 1000');
}

describe('reference_rows', () => {
  it('fails a partition whose reference order total went from pre-tax to post-tax, naming the key, the column, the expected and the found value', async () => {
    const report = await validate(CONTRACT('parquet', REFERENCE), [memoryFile('part-0.parquet', await ordersParquet('108.00'))]);
    expect(report.status).toBe('fail');
    // Every schema and value rule passes: only the semantic check sees the tax.
    expect(report.violations).toEqual([{
      rule: 'reference_value', severity: 'error', column: 'amount', count: 1,
      message: 'reference row order_id=1001: amount is "108.00", expected "100.00"',
      samples: [{ file: 'part-0.parquet', row: 1001, value: '108.00' }],
    }]);
  });

  it('passes the pre-tax total, and a total within the tolerance', async () => {
    expect((await validate(CONTRACT('parquet', REFERENCE), [memoryFile('part-0.parquet', await ordersParquet('100.00'))])).status).toBe('pass');
    const tolerant = REFERENCE.replace('amount: 100.00', 'amount: { value: 100.00, absolute: 0.01 }');
    expect((await validate(CONTRACT('parquet', tolerant), [memoryFile('part-0.parquet', await ordersParquet('100.01'))])).status).toBe('pass');
    const relative = REFERENCE.replace('amount: 100.00', 'amount: { value: 100.00, relative: 0.05 }');
    const taxed = await validate(CONTRACT('parquet', relative), [memoryFile('part-0.parquet', await ordersParquet('108.00'))]);
    expect(taxed.violations.map((v) => v.message)).toEqual(['reference row order_id=1001: amount is "108.00", expected "100.00" within ±5%']);
  });

  it('fails a required reference row that is absent, and says nothing of an absent optional one', async () => {
    const rows = `${REFERENCE}\n  - { key: { order_id: 999999 }, expect: { amount: 1 } }\n  - { key: { order_id: 888888 }, required: true }`;
    const report = await validate(CONTRACT('parquet', rows), [memoryFile('part-0.parquet', await ordersParquet('100.00'))]);
    expect(report.violations.map((v) => [v.rule, v.severity, v.message])).toEqual([
      ['reference_missing', 'error', 'reference row order_id=888888 is required, and no row of the partition has that key'],
    ]);
  });

  it('reads a CSV by the same rules: a changed status and a null amount are each named', async () => {
    const csv = 'order_id,status,amount\n1,placed,3.50\n1001,placed,\n1002,paid,7.25\n';
    const report = await validate(CONTRACT('csv', REFERENCE), [memoryFile('part-0.csv', csv)]);
    expect(report.violations.map((v) => [v.rule, v.column, v.message, v.samples[0]?.row])).toEqual([
      ['required', 'amount', '1 row has no value for amount', 1],
      ['reference_value', 'status', 'reference row order_id=1001: status is "placed", expected "paid"', 1],
      ['reference_value', 'amount', 'reference row order_id=1001: amount is null, expected "100.00"', 1],
    ]);
  });

  it('weighs a row marked warn as a warning, and --strict makes it an error', async () => {
    const contract = CONTRACT('parquet', `${REFERENCE}\n    severity: warn`);
    const files = [memoryFile('part-0.parquet', await ordersParquet('108.00'))];
    const report = await validate(contract, files);
    expect([report.status, report.violations.map((v) => [v.rule, v.severity])]).toEqual(['warn', [['reference_value', 'warning']]]);
    expect((await validate(strictContract(contract), files)).status).toBe('fail');
  });

  it('is found by a string grain, which is otherwise hashed straight from the bytes, and an amount the footers prove in range', async () => {
    const stringKeys = contractFrom(`name: orders
version: 1.0.0
owner: { team: orders, notify: [orders@example.com] }
produces: { format: parquet }
schema:
  grain: [order_id]
  columns:
    - { name: order_id, type: string, required: true }
    - { name: amount, type: "decimal(12,2)", required: true, min: 0 }
reference_rows:
  - { key: { order_id: o2500 }, expect: { amount: 12.34 }, required: true }
`);
    const bytes = await duckdbParquet("SELECT 'o' || i AS order_id, (CASE WHEN i = 2500 THEN 13.33 ELSE (i % 500) / 4 END)::DECIMAL(12,2) AS amount FROM range(4000) r(i)", 'ROW_GROUP_SIZE 1000');
    const report = await validate(stringKeys, [memoryFile('part-0.parquet', bytes)]);
    expect(report.violations.map((v) => [v.rule, v.message, v.samples[0]?.row])).toEqual([['reference_value', 'reference row order_id=o2500: amount is "13.33", expected "12.34"', 2_500]]);
  });
});

describe('reference_rows and hash collisions', () => {
  it.each([
    ['a grain hashed from the page bytes, whose hits are read again', 'string', "'o' || i", 'o2500', 'o7'],
    ['a decoded grain, compared at once', 'int64', 'i::BIGINT', '2500', '7'],
  ])('never fail a good partition: %s', async (_what, type, id, key, collider) => {
    const contract = contractFrom(`name: orders
version: 1.0.0
owner: { team: orders, notify: [orders@example.com] }
produces: { format: parquet }
schema:
  grain: [order_id]
  columns:
    - { name: order_id, type: ${type}, required: true }
    - { name: amount, type: "decimal(12,2)", required: true, min: 0 }
reference_rows:
  - { key: { order_id: ${type === 'string' ? key : Number(key)} }, expect: { amount: 12.34 }, required: true }
`);
    const bytes = await duckdbParquet(`SELECT ${id} AS order_id, (CASE WHEN i = 2500 THEN 12.34 ELSE 99 END)::DECIMAL(12,2) AS amount FROM range(4000) r(i)`, 'ROW_GROUP_SIZE 1000');
    const plan = buildCheckPlan(contract, NEXT_MORNING);
    // As if row 7's key hashed like the reference key: its amount (99) would be judged against 12.34.
    const byHash = plan.referenceRows!.byHash as Map<number, unknown>;
    byHash.set(hashValue(type === 'string' ? collider : Number(collider)), [...byHash.values()][0]);
    const report = await validatePartition(plan, [memoryFile('part-0.parquet', bytes)]);
    expect(report.violations).toEqual([]);
  });
});

describe('reference_rows across slices', () => {
  function partition(): string {
    const dir = mkdtempSync(join(tmpdir(), 'cg-reference-rows-'));
    // Reference order 2,500 lies in the second file; file 0 holds a mismatch in its last row group.
    const plants = [[{ row: 3_900, column: 'amount' as const, value: 99.99 }], []];
    plants.forEach((plant, i) => writeFileSync(join(dir, `part-${i}.parquet`), ordersToParquet(makeOrders({ rows: 4_000, firstRow: i * 4_000, plant }), { rowGroupSize: 1_000 })));
    return dir;
  }

  it('writes the report one thread writes when row-group slices are checked in worker threads', async () => {
    const rows = [
      `  - { key: { order_id: ${orderId(3_900)} }, expect: { amount: 1.00 }, required: true }`,
      `  - { key: { order_id: ${orderId(4_000 + 2_500)} }, expect: { status: paid }, required: true }`,
      `  - { key: { order_id: ${orderId(99_999)} }, required: true }`,
    ];
    const contract = ordersContract((y) => `${y.replace('min_rows: 1000', 'min_rows: 1')}reference_rows:\n${rows.join('\n')}\n`);
    const files = await localPartitionFiles([partition()]);
    const single = await runChecks(buildCheckPlan(contract, NEXT_MORNING), files);
    const parallel = await runChecksInParallel(contract, NEXT_MORNING, files, { workers: 2 });
    expect(single.report.violations.map((v) => [v.rule, v.column, v.message])).toEqual([
      ['reference_missing', undefined, `reference row order_id=${orderId(99_999)} is required, and no row of the partition has that key`],
      ['reference_value', 'status', `reference row order_id=${orderId(6_500)}: status is "placed", expected "paid"`],
      ['reference_value', 'amount', `reference row order_id=${orderId(3_900)}: amount is "99.99", expected "1.00"`],
    ]);
    expect(parallel.report).toEqual(single.report);
  });

  it('confirms hits of a grain hashed from the bytes across worker threads, as one thread does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-reference-hashed-'));
    for (const i of [0, 1]) {
      writeFileSync(join(dir, `part-${i}.parquet`), await duckdbParquet(`SELECT 'o' || (i + ${i * 10_000}) AS order_id, (CASE WHEN i + ${i * 10_000} = 17500 THEN 13.33 ELSE (i % 500) / 4 END)::DECIMAL(12,2) AS amount FROM range(10000) r(i)`, 'ROW_GROUP_SIZE 2048'));
    }
    const contract = contractFrom(`name: orders
version: 1.0.0
owner: { team: orders, notify: [orders@example.com] }
produces: { format: parquet }
schema:
  grain: [order_id]
  columns:
    - { name: order_id, type: string, required: true }
    - { name: amount, type: "decimal(12,2)", required: true, min: 0 }
reference_rows:
  - { key: { order_id: o17500 }, expect: { amount: 12.34 }, required: true }
  - { key: { order_id: o3 }, expect: { amount: 0.75 }, required: true }
  - { key: { order_id: o99999 }, required: true }
`);
    const files = await localPartitionFiles([dir]);
    const single = await runChecks(buildCheckPlan(contract, NEXT_MORNING), files);
    const parallel = await runChecksInParallel(contract, NEXT_MORNING, files, { workers: 2 });
    expect(single.report.violations.map((v) => [v.rule, v.message, v.samples[0]?.row])).toEqual([
      ['reference_missing', 'reference row order_id=o99999 is required, and no row of the partition has that key', undefined],
      ['reference_value', 'reference row order_id=o17500: amount is "13.33", expected "12.34"', 7_500],
    ]);
    expect(parallel.report).toEqual(single.report);
  });
});
