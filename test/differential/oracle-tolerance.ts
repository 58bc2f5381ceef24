import type { ReportStatus, ToleranceOutcome } from '../../lib/report/report.js';
import type { SpecContract, SpecTolerance } from './contract-spec.js';
import { queryRows } from './duckdb-session.js';
import type { FileView } from './file-view.js';
import type { Findings } from './oracle.js';
import { rowCounts } from './oracle-rules.js';
import { severityOfKey } from './oracle-severity.js';

export interface OracleVerdict {
  readonly status: ReportStatus;
  readonly tolerance?: ToleranceOutcome;
  /** Per file (by index), the 0-based rows withheld; set only when the batch is published without them. */
  readonly withheld?: readonly (readonly number[])[];
}

/**
 * Per file, the distinct rows breaking at least one row-level rule that is an error (README,
 * "Row tolerance"): the row conditions of oracle-rules.ts, OR-ed, over rows numbered in file order.
 */
export async function invalidRowsByFile(contract: SpecContract, views: readonly FileView[]): Promise<number[][]> {
  const out: number[][] = [];
  for (const view of views) {
    const broken = rowCounts(contract, view).filter((c) => severityOfKey(contract, c.key) === 'error').map((c) => `(${c.where})`);
    if (broken.length === 0) {
      out.push([]);
      continue;
    }
    // One thread scans in file order, so row_number() is the row's place in the file.
    const numbered = `SELECT *, row_number() OVER () - 1 AS "__row" FROM ${view.from}`;
    const rows = await queryRows(`SELECT "__row" AS row FROM (${numbered}) WHERE ${broken.join(' OR ')} ORDER BY 1`);
    out.push(rows.map((row) => Number(row.row)));
  }
  return out;
}

/**
 * pass with no finding, warn with warnings only; with a row tolerance and only row-level errors,
 * warn when the invalid rows are within floor(fraction × rows) (exactly, in decimal) or
 * max_invalid_rows, with those rows withheld, and fail beyond; any other error fails.
 */
export function oracleVerdict(contract: SpecContract, findings: Findings, rows: number, invalid: readonly (readonly number[])[] | undefined): OracleVerdict {
  const keys = Object.keys(findings.counts);
  const errors = keys.filter((key) => findings.severities[key] === 'error');
  if (errors.length === 0) return { status: keys.length === 0 ? 'pass' : 'warn' };
  const { tolerance } = contract;
  if (!tolerance || !invalid || errors.some((key) => findings.batchLevel.has(key))) return { status: 'fail' };
  const invalidRows = invalid.reduce((sum, file) => sum + file.length, 0);
  const allowed = allowedRows(tolerance, rows);
  const outcome = (withheld: boolean): ToleranceOutcome => ({ invalid_rows: invalidRows, allowed_rows: allowed, tolerance: toleranceText(tolerance), withheld });
  if (invalidRows > allowed) return { status: 'fail', tolerance: outcome(false) };
  return { status: 'warn', tolerance: outcome(true), withheld: invalid };
}

function allowedRows(tolerance: SpecTolerance, rows: number): number {
  if ('rows' in tolerance) return tolerance.rows;
  const [whole = '0', fraction = ''] = tolerance.fraction.split('.');
  return Number((BigInt(`${whole}${fraction}`) * BigInt(rows)) / 10n ** BigInt(fraction.length));
}

/** As the contract says it: `2%` for 0.02, `100 rows`. */
function toleranceText(tolerance: SpecTolerance): string {
  if ('rows' in tolerance) return `${tolerance.rows} rows`;
  const [, fraction = ''] = tolerance.fraction.split('.');
  const digits = fraction.padEnd(2, '0');
  const percent = `${Number(digits.slice(0, 2))}${digits.length > 2 ? `.${digits.slice(2)}` : ''}`;
  return `${percent}%`;
}
