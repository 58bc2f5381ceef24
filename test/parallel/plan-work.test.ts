import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import { planWork, sliceByWork, totalWork } from '../../lib/parallel/plan-work.js';
import { localPartitionFiles } from '../../lib/storage/local-files.js';
import { duckdbParquet } from '../fixtures/duckdb-parquet.js';
import { contractFrom, NEXT_MORNING } from '../fixtures/partition.js';

const CONTRACT = contractFrom(`name: work\nversion: 1.0.0\nowner: { team: t, notify: [t@example.com] }\nproduces: { format: parquet, partition: "dt={ds}" }
schema:\n  grain: [id]\n  columns:\n    - { name: id, type: int64, required: true }\n    - { name: amount, type: int64, required: true, min: 0 }\n    - { name: note, type: string }\n`);

describe('planWork', () => {
  it('counts only the key column of a row group whose statistics prove its rules, every checked column of one they do not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-work-'));
    // DuckDB's own writer, groups of about 10,000 rows (it rounds to its vectors); one holds a negative amount.
    const query = 'SELECT i AS id, CASE WHEN i = 25000 THEN -1 ELSE i END AS amount, \'n\' AS note FROM range(40000) t(i)';
    writeFileSync(join(dir, 'a.parquet'), await duckdbParquet(query, 'ROW_GROUP_SIZE 10000'));
    const work = await planWork(buildCheckPlan(CONTRACT, NEXT_MORNING), await localPartitionFiles([dir]));
    const groups = work[0]!.groups;
    expect(groups.length).toBeGreaterThanOrEqual(3);
    // Clean groups cost their rows once (id, the grain, is always hashed); the dirty one twice (id and amount; note has no rule).
    const dirtyRows = totalWork(work) - 40_000;
    expect(dirtyRows).toBeGreaterThan(0);
    expect(groups.filter((g) => g === 2 * dirtyRows)).toHaveLength(1);
  });
});

describe('sliceByWork', () => {
  it('cuts a file into contiguous row-group ranges of about equal work, the first reporting file-level findings', () => {
    const slices = sliceByWork([{ fileIndex: 0, groups: [10, 10, 100, 10, 10, 10, 10, 40] }], 4);
    expect(slices).toEqual([
      { fileIndex: 0, groups: { from: 0, to: 3 }, first: true },
      { fileIndex: 0, groups: { from: 3, to: 8 }, first: false },
    ]);
  });

  it('keeps each file whole when it has one row group, and never joins files', () => {
    const slices = sliceByWork([{ fileIndex: 0, groups: [5] }, { fileIndex: 1, groups: [5, 5] }], 8);
    expect(slices).toEqual([
      { fileIndex: 0, first: true },
      { fileIndex: 1, groups: { from: 0, to: 1 }, first: true },
      { fileIndex: 1, groups: { from: 1, to: 2 }, first: false },
    ]);
  });
});
