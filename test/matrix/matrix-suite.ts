import { beforeAll, describe, expect, it } from 'vitest';
import type { Contract } from '../../lib/contract/model.js';
import { PARQUET_WRITERS, type WriterVariant } from '../writers/index.js';
import { loadTestContract, unreadableReasons } from './engine-counts.js';
import { matrixOutcome } from './matrix-case.js';
import type { MatrixTable } from './matrix-tables.js';

/**
 * Declares the matrix cases of some tables: every writer variant of PARQUET_WRITERS. The cases
 * are split over two test files only so that vitest runs them on two cores.
 */
export function describeWriterMatrix(tables: readonly MatrixTable[]): void {
  // Each case writes one table with one writer setting (cached in .cache/writer-matrix/), then
  // compares contract-gate's report with what DuckDB's SQL finds in the very same file.
  describe.each(tables)('the $label table', (table) => {
    let contract: Contract;
    beforeAll(async () => {
      contract = await loadTestContract(table.contractPath);
    });

    describe.each(PARQUET_WRITERS)('written by $id ($settings)', (variant) => describeVariant(table, () => contract, variant));
  });
}

/** The cases of one table and writer variant. */
function describeVariant(table: MatrixTable, contract: () => Contract, variant: WriterVariant): void {
  it('is read whole: the same rows and verdict as DuckDB, and no file or row called unreadable', async () => {
    const { expected, actual, report } = await matrixOutcome(table, contract(), variant);
    expect(unreadableReasons(report)).toEqual([]);
    expect({ rows: actual.rows, status: actual.status }).toEqual({ rows: expected.rows, status: expected.status });
  });

  it('counts every rule as DuckDB does', async () => {
    const { expected, actual } = await matrixOutcome(table, contract(), variant);
    expect(actual.counts).toEqual(expected.counts);
  });
}
