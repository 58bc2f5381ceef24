import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DataFormat } from '../../lib/contract/model.js';
import { runChecksInParallel } from '../../lib/parallel/parallel-checks.js';
import { localPartitionFiles } from '../../lib/storage/local-files.js';
import { duckdbParquet } from '../fixtures/duckdb-parquet.js';
import { makeOrders, orderId, ordersToCsv, ordersToJsonLines, ordersToParquet, type OrdersColumn, type Plant } from '../fixtures/orders-fixture.js';
import { NEXT_MORNING, ordersContract } from '../fixtures/partition.js';
import { pick, randomInt, seededRandom } from '../fixtures/seeded-random.js';

/**
 * Generated partitions, written by real writers, checked with one thread and with two: the
 * reports must be equal whole (counts, samples and their order, notes, observed ranges), while
 * the two-thread run really is cut (row groups of Parquet files, byte ranges of CSV and JSON Lines).
 */
const BAD: Record<OrdersColumn, readonly unknown[]> = {
  order_id: [null, 'ORD-1', 'ord_zz'],
  status: [null, 'pending', ''],
  amount: [null, -1, -0.01],
  refund_amount: [null],
  ordered_at: [null, new Date('2099-01-01T00:00:00Z')],
  updated_at: [null],
  coupon: ['X'.repeat(40)],
};

/** File sizes in rows: one big file, so that a text file is worth several ranges of its own. */
const ROWS = [9_000, 2_500, 2_000];

function plants(random: () => number, rows: number, allRows: number): Plant[] {
  const out: Plant[] = [];
  for (let k = randomInt(random, 3, 25); k > 0; k--) {
    const column = pick(random, Object.keys(BAD) as OrdersColumn[]);
    out.push({ row: randomInt(random, 0, rows - 1), column, value: pick(random, BAD[column]) });
  }
  // Keys repeated from anywhere in the partition: across files, row groups and ranges.
  for (let k = randomInt(random, 1, 12); k > 0; k--) out.push({ row: randomInt(random, 0, rows - 1), column: 'order_id', value: orderId(randomInt(random, 0, allRows - 1)) });
  return out;
}

async function writePartition(seed: number, format: DataFormat): Promise<string> {
  const random = seededRandom(seed);
  const dir = mkdtempSync(join(tmpdir(), `cg-threads-${format}-`));
  const total = ROWS.reduce((a, b) => a + b, 0);
  let firstRow = 0;
  for (const [i, rows] of ROWS.entries()) {
    const columns = makeOrders({ rows, firstRow, plant: plants(random, rows, total) });
    firstRow += rows;
    const name = join(dir, `part-${i}.${format}`);
    if (format === 'csv') writeFileSync(name, ordersToCsv(columns));
    else if (format === 'jsonl') writeFileSync(name, ordersToJsonLines(columns));
    else writeFileSync(name, ordersToParquet(columns, { rowGroupSize: randomInt(random, 400, 2_500) }));
  }
  // A second writer: DuckDB rewrites the big file in its own groups and encodings.
  if (format === 'parquet') {
    const source = join(dir, 'part-0.parquet');
    writeFileSync(join(dir, 'part-3.parquet'), await duckdbParquet(`SELECT * FROM read_parquet('${source}')`, `ROW_GROUP_SIZE ${randomInt(random, 1_000, 3_000)}`));
  }
  return dir;
}

function contractFor(format: DataFormat) {
  return ordersContract((yaml) => yaml.replace('min_rows: 1000', 'min_rows: 1').replace('format: parquet', `format: ${format}`));
}

async function run(dir: string, format: DataFormat, workers: number) {
  const files = await localPartitionFiles([dir]);
  let slices = 0;
  const checked = await runChecksInParallel(contractFor(format), NEXT_MORNING, files, {
    workers,
    minRangeBytes: 16 * 1024,
    onProgress: (progress) => { slices = Math.max(slices, progress.filesTotal); },
  });
  return { checked, slices, files: files.length };
}

describe('a partition checked with one thread and with two', () => {
  it.each([
    ['parquet', 11], ['parquet', 12], ['csv', 21], ['csv', 22], ['jsonl', 31], ['jsonl', 32],
  ] as const)('writes the same report for %s files (seed %i)', async (format, seed) => {
    const dir = await writePartition(seed, format);
    const one = await run(dir, format, 1);
    const two = await run(dir, format, 2);
    expect(two.slices).toBeGreaterThan(two.files);
    expect(one.checked.report.violations.length).toBeGreaterThan(3);
    expect(one.checked.report.violations.map((v) => v.rule)).toContain('grain');
    expect(two.checked.report).toEqual(one.checked.report);
    expect(JSON.stringify(two.checked.report)).toBe(JSON.stringify(one.checked.report));
    expect(two.checked.newest).toBe(one.checked.newest);
    expect(two.checked.withheld).toEqual(one.checked.withheld);
  });
});
