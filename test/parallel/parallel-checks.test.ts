import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import { runChecks } from '../../lib/checks/validate-partition.js';
import type { PartitionFile } from '../../lib/checks/partition-file.js';
import { runChecksInParallel } from '../../lib/parallel/parallel-checks.js';
import { localPartitionFiles } from '../../lib/storage/local-files.js';
import { makeOrders, ordersToParquet, type Plant } from '../fixtures/orders-fixture.js';
import { NEXT_MORNING, ordersContract } from '../fixtures/partition.js';

function partition(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cg-parallel-'));
  // Violations in several row groups of several files, and duplicates across files and slices.
  const plants: Plant[][] = [
    [{ row: 10, column: 'status', value: 'pending' }, { row: 2_500, column: 'amount', value: -1 }, { row: 3_999, column: 'order_id', value: 'ord_00000007' }],
    [{ row: 5, column: 'amount', value: null }, { row: 1_200, column: 'order_id', value: 'ord_00000007' }],
    [{ row: 3_000, column: 'coupon', value: 'X'.repeat(40) }],
  ];
  plants.forEach((plant, i) => writeFileSync(join(dir, `part-${i}.parquet`), ordersToParquet(makeOrders({ rows: 4_000, firstRow: i * 4_000, plant }), { rowGroupSize: 1_000 })));
  return dir;
}

describe('runChecksInParallel', () => {
  it('writes exactly the report one thread writes, with row-group slices checked in worker threads', async () => {
    const files = await localPartitionFiles([partition()]);
    const contract = ordersContract((y) => y.replace('min_rows: 1000', 'min_rows: 1'));
    const single = await runChecks(buildCheckPlan(contract, NEXT_MORNING), files);
    const parallel = await runChecksInParallel(contract, NEXT_MORNING, files, { workers: 2 });
    expect(single.report.violations.map((v) => v.rule)).toEqual(['required', 'enum', 'min', 'length', 'grain']);
    expect(parallel.report).toEqual(single.report);
    expect(parallel.newest).toBe(single.newest);
    // The ranged columns' spans, joined from slices of several threads: the planted -1 is the least amount.
    expect(single.report.observed?.map((r) => [r.column, r.allowed_min ?? r.allowed_max])).toEqual([['amount', '0'], ['ordered_at', new Date(NEXT_MORNING).toISOString()]]);
    expect(single.report.observed?.[0]?.min).toBe('-1');
    expect(parallel.report.observed).toEqual(single.report.observed);
  });
});

/** The file, counting the reads that reach its end (where a Parquet reader finds the footer). */
function countingTailReads(file: PartitionFile, count: { tails: number }): PartitionFile {
  return {
    ...file,
    async open() {
      const opened = await file.open();
      const source = opened.source;
      return { ...opened, source: { byteLength: source.byteLength, slice: (start: number, end = source.byteLength) => {
        if (end >= source.byteLength) count.tails++;
        return source.slice(start, end);
      } } };
    },
  };
}

describe('footers in a threaded run', () => {
  it('are read once, when the work is planned, however many slices and passes of this thread use them', async () => {
    const count = { tails: 0 };
    const files = (await localPartitionFiles([partition()])).map((file) => countingTailReads(file, count));
    const contract = ordersContract((y) => y.replace('min_rows: 1000', 'min_rows: 1'));
    // This thread checks slices of files and re-reads the duplicated keys: each footer read once all the same.
    const run = await runChecksInParallel(contract, NEXT_MORNING, files, { workers: 2 });
    expect(run.report.violations.map((v) => v.rule)).toContain('grain');
    expect(count.tails).toBe(files.length);
  });
});
