import { describe, expect, it } from 'vitest';
import { makeOrders, ordersToParquet, ORDERS_PARQUET_SCHEMA, type Plant } from '../fixtures/orders-fixture.js';
import { duckdbParquet } from '../fixtures/duckdb-parquet.js';
import { contractFrom, counts, memoryFile, NEXT_MORNING, ordersContract, validate } from '../fixtures/partition.js';

function ordersFile(path: string, rows: number, firstRow = 0, plant: Plant[] = [], rowGroupSize = 250_000) {
  return memoryFile(path, ordersToParquet(makeOrders({ rows, firstRow, plant }), { rowGroupSize }));
}

describe('validatePartition on Parquet', () => {
  it('passes a clean partition and counts rows per file', async () => {
    const report = await validate(ordersContract(), [ordersFile('a.parquet', 700), ordersFile('b.parquet', 500, 700)]);
    expect(report.status).toBe('pass');
    expect(report.violations).toEqual([]);
    expect(report.rows).toBe(1200);
    expect(report.files.map((f) => [f.path, f.rows])).toEqual([['a.parquet', 700], ['b.parquet', 500]]);
    expect(report.checked_at).toBe('2026-11-30T05:00:00Z');
  });

  it('reports each planted violation with its exact count and samples, across row groups', async () => {
    const plant: Plant[] = [
      { row: 5, column: 'status', value: 'pending' },
      { row: 1500, column: 'status', value: 'refunded' },
      { row: 7, column: 'amount', value: -1 },
      { row: 9, column: 'order_id', value: 'ord_XYZ' },
      { row: 1999, column: 'coupon', value: 'X'.repeat(40) },
    ];
    const report = await validate(ordersContract(), [ordersFile('p.parquet', 2000, 0, plant, 512)]);
    expect(counts(report)).toEqual({ 'enum:status': 2, 'min:amount': 1, 'pattern:order_id': 1, 'length:coupon': 1 });
    const enumViolation = report.violations.find((v) => v.rule === 'enum');
    expect(enumViolation?.samples).toEqual([
      { file: 'p.parquet', row: 5, value: 'pending' },
      { file: 'p.parquet', row: 1500, value: 'refunded' },
    ]);
    expect(enumViolation?.message).toBe('2 rows of status have a value not in [placed, paid, cancelled]');
  });

  it('reports a null once under required, not again under enum, pattern or min', async () => {
    const plant: Plant[] = [
      { row: 1, column: 'status', value: null },
      { row: 2, column: 'amount', value: null },
      { row: 3, column: 'order_id', value: null },
    ];
    const report = await validate(ordersContract(), [ordersFile('p.parquet', 1000, 0, plant)]);
    expect(counts(report)).toEqual({ 'required:order_id': 1, 'required:status': 1, 'required:amount': 1 });
  });

  it('requires refund_amount only where status is cancelled', async () => {
    // Row 4 is cancelled (every fifth order), row 1 is not.
    const plant: Plant[] = [{ row: 4, column: 'refund_amount', value: null }, { row: 1, column: 'refund_amount', value: null }];
    const report = await validate(ordersContract(), [ordersFile('p.parquet', 1000, 0, plant)]);
    expect(report.violations).toHaveLength(1);
    expect(report.violations[0]).toMatchObject({ rule: 'required', column: 'refund_amount', count: 1, samples: [{ row: 4 }] });
    expect(report.violations[0]?.message).toContain('although status is cancelled');
  });

  it('counts distinct duplicated grain keys across files and samples every occurrence', async () => {
    const plant: Plant[] = [{ row: 10, column: 'order_id', value: 'ord_00000000' }, { row: 11, column: 'order_id', value: 'ord_00000000' }];
    const report = await validate(ordersContract(), [ordersFile('a.parquet', 600), ordersFile('b.parquet', 600, 600, plant)]);
    expect(counts(report)).toEqual({ grain: 1 });
    expect(report.violations[0]?.samples).toEqual([
      { file: 'a.parquet', row: 0, value: 'ord_00000000' },
      { file: 'b.parquet', row: 10, value: 'ord_00000000' },
      { file: 'b.parquet', row: 11, value: 'ord_00000000' },
    ]);
  });

  it('counts every key of a DuckDB-written file uploaded twice, sampling the first occurrences as text', async () => {
    // 40,000 rows of two columns: a row group read in slices, its text keys compared as bytes.
    const rows = 40_000;
    const bytes = await duckdbParquet(`SELECT 'k' || (i % 10000) AS region, i // 10000 AS n FROM range(${rows}) t(i)`);
    const contract = contractFrom(`name: twice\nversion: 1.0.0\nowner: { team: t, notify: [t@example.com] }\nproduces: { format: parquet, partition: "dt={ds}" }
schema:\n  grain: [region, n]\n  columns:\n    - { name: region, type: string, required: true }\n    - { name: n, type: int64, required: true }\n`);
    const report = await validate(contract, [memoryFile('a.parquet', bytes), memoryFile('b.parquet', bytes)]);
    expect(counts(report)).toEqual({ grain: rows });
    expect(report.violations[0]?.samples.map((s) => [s.file, s.row])).toEqual([0, 1, 2, 3, 4].map((row) => ['a.parquet', row]));
    expect(report.violations[0]?.samples[0]?.value).toEqual({ region: 'k0', n: 0 });
  });

  it('checks a composite grain on the combination, and a null part as required', async () => {
    const contract = ordersContract((y) => y.replace('grain: [order_id]', 'grain: [status, coupon]'));
    const report = await validate(contract, [ordersFile('p.parquet', 1000)]);
    const grain = report.violations.find((v) => v.rule === 'grain');
    expect(grain?.samples[0]?.value).toEqual({ status: 'placed', coupon: 'WINTER0' });
    expect(report.violations.find((v) => v.rule === 'required')?.column).toBe('coupon');
  });

  it('reports a missing column per file and does not check its values', async () => {
    const schema = ORDERS_PARQUET_SCHEMA.filter((e) => e.name !== 'amount').map((e) => (e.name === 'root' ? { ...e, num_children: 6 } : e));
    const columns = makeOrders({ rows: 1000 });
    const files = [memoryFile('a.parquet', ordersToParquet(columns, { schema })), memoryFile('b.parquet', ordersToParquet(columns, { schema }))];
    const report = await validate(ordersContract((y) => y.replace('grain: [order_id]', 'grain: []')), files);
    expect(counts(report)).toEqual({ 'missing_column:amount': 2 });
  });

  it('reports a column of the wrong stored type once per file with the type it has', async () => {
    const schema = ORDERS_PARQUET_SCHEMA.map((e) => (e.name === 'amount' ? { name: 'amount', type: 'DOUBLE' as const, repetition_type: 'OPTIONAL' as const } : e));
    const report = await validate(ordersContract(), [memoryFile('a.parquet', ordersToParquet(makeOrders({ rows: 1000, plant: [{ row: 0, column: 'amount', value: -5 }] }), { schema }))]);
    expect(counts(report)).toEqual({ 'type:amount': 1 });
    expect(report.violations[0]?.samples).toEqual([{ file: 'a.parquet', row: null, value: 'DOUBLE (float64)' }]);
  });

  it('rejects columns the contract does not name only when extra_columns is reject', async () => {
    const withoutCoupon = (y: string) => y.replace(/\n\s+- \{ name: coupon.*\n/, '\n');
    const files = () => [ordersFile('a.parquet', 1000), ordersFile('b.parquet', 1000, 1000)];
    expect((await validate(ordersContract(withoutCoupon), files())).status).toBe('pass');
    const strict = ordersContract((y) => withoutCoupon(y).replace('extra_columns: allow', 'extra_columns: reject'));
    expect(counts(await validate(strict, files()))).toEqual({ 'unexpected_column:coupon': 2 });
  });

  it('enforces the volume band on the whole partition', async () => {
    expect(counts(await validate(ordersContract(), [ordersFile('a.parquet', 999)]))).toEqual({ min_rows: 1 });
    const small = ordersContract((y) => y.replace('max_rows: 5000000', 'max_rows: 1500'));
    const report = await validate(small, [ordersFile('a.parquet', 1000), ordersFile('b.parquet', 1000, 1000)]);
    expect(report.violations).toEqual([{ rule: 'max_rows', severity: 'error', count: 1, message: 'the partition has 2000 rows; the contract allows at most 1500', samples: [] }]);
  });

  it('fails freshness when the newest updated_at is older than max_lag_hours, naming the newest row', async () => {
    const report = await validate(ordersContract(), [ordersFile('a.parquet', 1000)], NEXT_MORNING + 48 * 3_600_000);
    const freshness = report.violations.find((v) => v.rule === 'freshness');
    expect(freshness).toMatchObject({ column: 'updated_at', count: 1 });
    expect(freshness?.samples[0]?.file).toBe('a.parquet');
    expect(freshness?.message).toMatch(/hours before 2026-12-02T05:00:00.000Z; the contract allows 26$/);
  });

  it('flags timestamps later than the check time as not_in_future', async () => {
    const plant: Plant[] = [{ row: 3, column: 'ordered_at', value: new Date(NEXT_MORNING + 1000) }];
    const report = await validate(ordersContract(), [ordersFile('a.parquet', 1000, 0, plant)]);
    expect(report.violations).toEqual([expect.objectContaining({ rule: 'not_in_future', column: 'ordered_at', count: 1, samples: [{ file: 'a.parquet', row: 3, value: '2026-11-30T05:00:01.000Z' }] })]);
  });

  it('reports an unreadable file with the reason and still validates the others', async () => {
    const good = ordersToParquet(makeOrders({ rows: 1000 }));
    const truncated = memoryFile('cut.parquet', good.slice(0, good.length - 100));
    const notParquet = memoryFile('notes.parquet', 'hello, this is not parquet');
    const report = await validate(ordersContract(), [ordersFile('ok.parquet', 1000, 5000), truncated, notParquet]);
    expect(counts(report)).toEqual({ unreadable: 2 });
    expect(report.violations[0]?.samples.map((s) => s.file)).toEqual(['cut.parquet', 'notes.parquet']);
    expect(report.violations[0]?.samples[0]?.value).toMatch(/footer/);
    expect(report.rows).toBe(1000);
  });
});
