import type { Report } from '../../lib/report/report.js';

/**
 * What both engines are compared on: the verdict, the row counts, and each rule's count per
 * column, keyed `rule` or `rule:column` (counts of one rule and column added up).
 */
export interface Outcome {
  readonly status: 'pass' | 'fail';
  readonly rows: number;
  readonly fileRows: readonly number[];
  readonly counts: Readonly<Record<string, number>>;
}

export function countKey(rule: string, column: string | undefined): string {
  return column === undefined ? rule : `${rule}:${column}`;
}

export function outcomeOfReport(report: Report): Outcome {
  const counts: Record<string, number> = {};
  for (const v of report.violations) {
    const key = countKey(v.rule, v.column);
    counts[key] = (counts[key] ?? 0) + v.count;
  }
  return { status: report.status, rows: report.rows, fileRows: report.files.map((f) => f.rows), counts };
}

/** Every difference between the expected (oracle) and actual (contract-gate) outcome, in words. */
export function differences(expected: Outcome, actual: Outcome): string[] {
  const out: string[] = [];
  if (expected.status !== actual.status) out.push(`status: DuckDB ${expected.status}, contract-gate ${actual.status}`);
  if (expected.rows !== actual.rows) out.push(`rows: DuckDB ${expected.rows}, contract-gate ${actual.rows}`);
  if (expected.fileRows.join() !== actual.fileRows.join()) out.push(`file rows: DuckDB [${expected.fileRows.join(', ')}], contract-gate [${actual.fileRows.join(', ')}]`);
  const keys = [...new Set([...Object.keys(expected.counts), ...Object.keys(actual.counts)])].sort();
  for (const key of keys) {
    const [e, a] = [expected.counts[key] ?? 0, actual.counts[key] ?? 0];
    if (e !== a) out.push(`${key}: DuckDB ${e}, contract-gate ${a}`);
  }
  return out;
}
