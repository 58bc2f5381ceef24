import { describe, expect, it } from 'vitest';
import { writeCached, writerVariant } from '../writers/index.js';
import { oracleCounts } from './duckdb-oracle.js';
import { loadTestContract, reportCounts, validateFiles } from './engine-counts.js';
import { describeWriterMatrix } from './matrix-suite.js';
import { MATRIX_NOW, MATRIX_TABLES } from './matrix-tables.js';

// The wide table's cases are in writer-matrix-wide.test.ts (a second file runs on a second core).
describeWriterMatrix(MATRIX_TABLES.filter((t) => t.label !== 'wide'));

// Worker threads split a file by row-group ranges and merge the slices: duplicates across slices
// and counts must come out the same. Two multi-group files keep this affordable (a worker starts tsx).
describe.each(['duckdb-small-groups', 'arrow-rs-small-pages'])('the orders table written by %s, checked in two worker threads', (id) => {
  it('counts every rule as DuckDB does', async () => {
    const table = MATRIX_TABLES.find((t) => t.label === 'orders')!;
    const contract = await loadTestContract(table.contractPath);
    const path = await writeCached(writerVariant(id), table.table(), table.label);
    const report = await validateFiles(contract, [path], MATRIX_NOW, 2);
    expect(reportCounts(report)).toEqual(await oracleCounts(contract, path, MATRIX_NOW));
  });
});
