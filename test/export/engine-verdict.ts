import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import type { RowReason } from '../../lib/checks/invalid-rows.js';
import { runChecks } from '../../lib/checks/validate-partition.js';
import type { Contract } from '../../lib/contract/model.js';
import type { Report } from '../../lib/report/report.js';
import { memoryFile, NEXT_MORNING } from '../fixtures/partition.js';
import type { RowCase } from './row-cases.js';

/** The gate's report on one JSON Lines file, checked at the morning after the matrix's data day. */
export async function engineReport(contract: Contract, bytes: Uint8Array, path = 'dt=2026-11-29/part-0.jsonl'): Promise<Report> {
  return (await runChecks(buildCheckPlan(contract, NEXT_MORNING), [memoryFile(path, bytes)])).report;
}

/** A finding that weighs as an error, on one row: what makes the gate refuse it. */
export type RowFinding = Pick<RowReason, 'rule' | 'column'>;

export interface Judged {
  /** The case's line, as its writer wrote it. */
  readonly line: string;
  /** The findings at error on this row; empty when the gate takes the row. */
  readonly errors: readonly RowFinding[];
  /** Judged in the file of all rows, whose report counts it, rather than on its own. */
  readonly together: boolean;
}

/**
 * The gate's verdict on each case's row. A run costs the reader's full-size batch buffers
 * however short the file, so the rows are judged together, in one file of all their lines, under
 * a row tolerance that withholds, and so names, each row breaking a rule at error. A case on a
 * rule of many rows (a grain or unique column, a key the contract does not list) is judged on its
 * own file, since the other rows would share its values.
 */
export async function judgeCases(contract: Contract, cases: readonly RowCase[], files: readonly (Uint8Array | undefined)[]): Promise<{ judged: (Judged | undefined)[]; report: Report }> {
  const lines = files.map((bytes) => (bytes ? new TextDecoder().decode(bytes).trim() : undefined));
  const alone = (c: RowCase) => c.breaks === 'extra_columns' || Object.keys(c.changes).some((name) => manyRowColumns(contract).has(name));
  const together = cases.flatMap((c, i) => (!alone(c) && lines[i] !== undefined ? [i] : []));
  const tolerant: Contract = { ...contract, onViolation: { maxInvalidRows: 100_000 } };
  const bytes = new TextEncoder().encode(together.map((i) => `${lines[i]}\n`).join(''));
  const run = await runChecks(buildCheckPlan(tolerant, NEXT_MORNING), [memoryFile('dt=2026-11-29/part-0.jsonl', bytes)]);
  if (run.report.status === 'fail') throw new Error(`the batch of cases failed as a whole: ${run.report.violations.map((v) => `${v.rule} ${v.column ?? ''}`).join(', ')} ${run.report.notes?.join(' ') ?? ''}`);
  const withheld = run.withheld?.[0]?.list;
  const judged: (Judged | undefined)[] = lines.map(() => undefined);
  together.forEach((caseIndex, row) => {
    const at = withheld?.rows.indexOf(row) ?? -1;
    judged[caseIndex] = { line: lines[caseIndex]!, errors: at < 0 ? [] : withheld!.reasons[at]!.map(({ rule, column }) => ({ rule, column })), together: true };
  });
  for (const [i, c] of cases.entries()) {
    if (!alone(c) || lines[i] === undefined) continue;
    const report = await engineReport(contract, files[i]!);
    judged[i] = { line: lines[i], errors: report.violations.filter((v) => v.severity === 'error').map((v) => ({ rule: v.rule, column: v.column ?? undefined })), together: false };
  }
  return { judged, report: run.report };
}

/** Columns whose rules span rows: a grain column or a unique one. */
function manyRowColumns(contract: Contract): Set<string> {
  return new Set(contract.schema.columns.filter((c) => c.unique || contract.schema.grain.includes(c.name)).map((c) => c.name));
}

/**
 * The integer literals of a JSON line past ±2^53. JSON.parse holds them, and an int64 bound
 * near them, as the nearest double, whose neighbours are 2 or more apart there: a validator on
 * parsed JSON cannot tell 2^63 from 2^63-1. The gate's reader keeps them exact.
 */
export function unsafeIntegers(line: string): string[] {
  const literals = line.replace(/"(?:[^"\\]|\\.)*"/g, '""').match(/-?\d{16,}(?![\d.eE])/g) ?? [];
  return literals.filter((literal) => !Number.isSafeInteger(Number(literal)));
}
