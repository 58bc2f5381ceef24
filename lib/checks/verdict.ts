import { ROW_LEVEL_RULES, type ReportStatus, type ToleranceOutcome, type Violation } from '../report/report.js';
import type { RowTolerance } from '../contract/model.js';
import { MAX_WITHHELD_ROWS, type InvalidRowList } from './invalid-rows.js';

/** The rows to withhold from one file of the partition, by its index in the run. */
export interface WithheldRows {
  readonly fileIndex: number;
  readonly list: InvalidRowList;
}

export interface Verdict {
  readonly status: ReportStatus;
  readonly tolerance?: ToleranceOutcome;
  /** Set only when the batch is published without them. */
  readonly withheld?: readonly WithheldRows[];
  readonly notes: readonly string[];
}

/**
 * pass, warn or fail from the findings. With a row tolerance and only row-level errors, the
 * batch passes with its invalid rows withheld when they are few enough; any other error fails it.
 * The recorded rows must account for every row-level finding (a finding names its row, and the
 * most rows any one rule broke is a floor for the distinct rows): if they do not, the batch fails,
 * as publishing rows no one recorded as invalid would publish unvalidated data.
 */
export function verdictOf(violations: readonly Violation[], tolerance: RowTolerance | undefined, scanned: number, invalid: readonly WithheldRows[]): Verdict {
  const errors = violations.filter((v) => v.severity === 'error');
  if (errors.length === 0) return { status: violations.length === 0 ? 'pass' : 'warn', notes: [] };
  if (!tolerance || !errors.every(isRowLevel)) return { status: 'fail', notes: [] };
  const invalidRows = invalid.reduce((sum, file) => sum + file.list.rows.length, 0);
  const allowed = 'rowTolerance' in tolerance ? Math.floor(tolerance.rowTolerance * scanned) : tolerance.maxInvalidRows;
  const outcome = (withheld: boolean): ToleranceOutcome => ({ invalid_rows: invalidRows, allowed_rows: allowed, tolerance: describeTolerance(tolerance), withheld });
  if (invalid.some((file) => file.list.overflow)) {
    return { status: 'fail', tolerance: outcome(false), notes: [`more than ${MAX_WITHHELD_ROWS} rows broke row-level rules: the gate withholds at most ${MAX_WITHHELD_ROWS} rows, so the whole batch is quarantined`] };
  }
  const floor = Math.max(...errors.map((v) => v.count));
  if (invalidRows < floor || invalidRows === 0) return { status: 'fail', tolerance: outcome(false), notes: ['the invalid rows could not all be told apart, so the whole batch is quarantined'] };
  if (invalidRows > allowed) return { status: 'fail', tolerance: outcome(false), notes: [] };
  return { status: 'warn', tolerance: outcome(true), withheld: invalid.filter((file) => file.list.rows.length > 0), notes: [] };
}

function isRowLevel(violation: Violation): boolean {
  return ROW_LEVEL_RULES.has(violation.rule) && violation.samples.length > 0 && violation.samples.every((s) => s.row !== null);
}

export function describeTolerance(tolerance: RowTolerance): string {
  return 'rowTolerance' in tolerance ? `${Number((tolerance.rowTolerance * 100).toPrecision(6))}%` : `${tolerance.maxInvalidRows} rows`;
}
