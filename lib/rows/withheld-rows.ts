import { GateError } from '../errors.js';
import type { RuleId } from '../report/report.js';

/** Why a row is withheld: one finding of a row-level rule. */
export interface RowReason {
  readonly rule: RuleId;
  readonly column?: string;
  readonly message: string;
}

/**
 * One file's rows to withhold: 0-based data row numbers as the checker numbers them (sorted
 * ascending, unique), and the reasons for each (a parallel array).
 */
export interface WithheldFile {
  readonly path: string;
  readonly rows: readonly number[];
  readonly reasons: readonly (readonly RowReason[])[];
}

/**
 * Refuses row numbers the checker cannot have given: a rewrite that silently kept or dropped the
 * wrong rows would publish changed data, so a caller's slip stops here rather than in the lake.
 */
export function checkRowNumbers(rows: readonly number[], path: string): void {
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (!Number.isSafeInteger(row) || row < 0) throw badRows(path, `row ${String(row)} is not a 0-based row number`);
    if (i > 0 && row <= rows[i - 1]!) throw badRows(path, `rows must be ascending and unique, but ${row} follows ${rows[i - 1]}`);
  }
}

/** Rows asked for that the file does not have: the numbering differs from the checker's. */
export function rowsPastEnd(path: string, rows: readonly number[], next: number, rowCount: number): GateError {
  return badRows(path, `${rows.length - next} of the rows to withhold (from row ${rows[next]}) are past the file's last row (it has ${rowCount} rows)`);
}

function badRows(path: string, detail: string): GateError {
  return new GateError('bad_arguments', `cannot withhold rows of ${path}: ${detail}`, { context: { path } });
}
