import type { Contract } from '../../lib/contract/model.js';
import type { Report, ReportStatus } from '../../lib/report/report.js';
import { writeCached, type WriterVariant } from '../writers/index.js';
import { oracleCounts, type RuleCounts } from './duckdb-oracle.js';
import { reportCounts, validateFiles } from './engine-counts.js';
import { MATRIX_NOW, type MatrixTable } from './matrix-tables.js';

/** Both engines' findings for one file of the matrix. */
export interface MatrixOutcome {
  readonly path: string;
  readonly expected: RuleCounts & { readonly status: 'pass' | 'fail' };
  readonly actual: RuleCounts & { readonly status: ReportStatus };
  readonly report: Report;
}

const outcomes = new Map<string, Promise<MatrixOutcome>>();

/**
 * Writes (or finds in the cache) the table's file for the variant, then asks DuckDB and
 * contract-gate about it. Computed once per case and shared by the tests that look at it.
 */
export function matrixOutcome(table: MatrixTable, contract: Contract, variant: WriterVariant): Promise<MatrixOutcome> {
  const key = `${table.label}\u0000${variant.id}`;
  let outcome = outcomes.get(key);
  if (!outcome) outcomes.set(key, (outcome = computeOutcome(table, contract, variant)));
  return outcome;
}

async function computeOutcome(table: MatrixTable, contract: Contract, variant: WriterVariant): Promise<MatrixOutcome> {
  const path = await writeCached(variant, table.table(), table.label);
  const oracle = await oracleCounts(contract, path, MATRIX_NOW);
  const report = await validateFiles(contract, [path], MATRIX_NOW);
  return {
    path,
    expected: { ...oracle, status: Object.keys(oracle.counts).length > 0 ? 'fail' : 'pass' },
    actual: { ...reportCounts(report), status: report.status },
    report,
  };
}
