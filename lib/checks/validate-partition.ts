import { isoSeconds } from '../contract/temporal.js';
import type { Report } from '../report/report.js';
import type { CheckPlan } from './check-plan.js';
import { checkSlice, mergeSlices, type SliceResult } from './check-slice.js';
import { confirmDuplicates } from './confirm-duplicates.js';
import type { InvalidRowList } from './invalid-rows.js';
import type { PartitionFile } from './partition-file.js';
import { checkPartitionRules } from './partition-rules.js';
import { observedRanges } from './observed-ranges.js';
import { checkReferences } from './reference-check.js';
import { confirmReferenceRows, logMissingReferenceRows } from './confirm-reference-rows.js';
import { verdictOf, type WithheldRows } from './verdict.js';

export type { OpenedFile, PartitionFile } from './partition-file.js';

export interface Progress {
  readonly filesDone: number;
  readonly filesTotal: number;
  readonly rowsRead: number;
}

export interface ValidateOptions {
  readonly onProgress?: (progress: Progress) => void;
}

/** What a run found beyond the report: facts the gate records in `_SUCCESS`. */
export interface CheckRun {
  readonly report: Report;
  /** The newest value of the freshness column, epoch ms, when the contract names one. */
  readonly newest?: number;
  /** What was fetched from storage: a fraction of the partition when footers prove the checks. */
  readonly stats: RunStats;
  /** Rows to withhold from their files when the batch is published under a row tolerance. */
  readonly withheld?: readonly WithheldRows[];
}

export interface RunStats {
  readonly bytes_total: number;
  readonly bytes_read: number;
  readonly read_requests: number;
}

/**
 * Validates the files of one partition together against a check plan. Data problems become
 * violations in the report; only a failure to reach the bytes (storage) throws.
 */
export async function validatePartition(plan: CheckPlan, files: readonly PartitionFile[], options: ValidateOptions = {}): Promise<Report> {
  return (await runChecks(plan, files, options)).report;
}

export async function runChecks(plan: CheckPlan, files: readonly PartitionFile[], options: ValidateOptions = {}): Promise<CheckRun> {
  const results: SliceResult[] = [];
  let rowsBefore = 0;
  for (const [index, file] of files.entries()) {
    const progress = (rows: number) => options.onProgress?.({ filesDone: index, filesTotal: files.length, rowsRead: rowsBefore + rows });
    const result = await checkSlice(plan, file, { fileIndex: index, first: true }, progress);
    results.push(result);
    rowsBefore += result.rows;
    options.onProgress?.({ filesDone: index + 1, filesTotal: files.length, rowsRead: rowsBefore });
  }
  return finishRun(plan, files, results);
}

/** From slice results to the verdict: merge, confirm duplicates, apply the partition rules. */
export async function finishRun(plan: CheckPlan, files: readonly PartitionFile[], results: readonly SliceResult[]): Promise<CheckRun> {
  const state = mergeSlices(plan, files, results);
  await confirmDuplicates(state, files);
  await checkReferences(state, files);
  await confirmReferenceRows(state, files);
  logMissingReferenceRows(state);
  const notes = checkPartitionRules(state);
  const violations = state.log.violations();
  const verdict = verdictOf(violations, plan.tolerance, state.scanned, invalidByFile(results));
  const rowsOf = (index: number) => results.filter((r) => r.fileIndex === index).reduce((sum, r) => sum + r.rows, 0);
  const allNotes = [...judgedNotes(plan), ...absentNotes(plan, state.absent, files.length), ...notes, ...verdict.notes];
  const observed = observedRanges(plan, state.spans);
  const report: Report = {
    status: verdict.status,
    contract: plan.contract,
    rows: state.rows,
    files: files.map((file, index) => ({ path: file.path, rows: rowsOf(index), bytes: file.byteLength })),
    violations,
    checked_at: isoSeconds(plan.now),
    ...(verdict.tolerance ? { tolerance: verdict.tolerance } : {}),
    ...(allNotes.length > 0 ? { notes: allNotes } : {}),
    ...(observed ? { observed } : {}),
  };
  const stats: RunStats = { bytes_total: files.reduce((sum, f) => sum + f.byteLength, 0), bytes_read: state.reads.bytes, read_requests: state.reads.requests };
  return { report, stats, ...(state.newest ? { newest: Number(state.newest.value) } : {}), ...(verdict.withheld ? { withheld: verdict.withheld } : {}) };
}

/** Said when the partition was due before the check: which moment freshness and not_in_future were held to. */
function judgedNotes(plan: CheckPlan): string[] {
  const judged = plan.freshness !== undefined || plan.columns.some((c) => c.spec.notInFuture);
  return judged && plan.judgedAt.due ? [`freshness and not_in_future were judged as of ${plan.judgedAt.text}, not the check time`] : [];
}

/** One note per contract column some files lack: what its rows were read as. */
function absentNotes(plan: CheckPlan, absent: ReadonlyMap<string, readonly string[]>, fileCount: number): string[] {
  return [...absent].map(([name, lacking]) => {
    const column = plan.columns.find((c) => c.spec.name === name);
    const fallback = column?.spec.default === undefined ? 'nulls' : `its default ${JSON.stringify(column.spec.default)}`;
    const which = lacking.length === fileCount ? (fileCount === 1 ? 'the file' : `all ${fileCount} files`) : `${lacking.length} of ${fileCount} files (${lacking.slice(0, 3).join(', ')}${lacking.length > 3 ? ', …' : ''})`;
    return `column ${name} is not in ${which}: its rows were read as ${fallback}`;
  });
}

/** The slices' invalid rows joined per file: slices of one file hold disjoint rows, in order. */
function invalidByFile(results: readonly SliceResult[]): WithheldRows[] {
  const byFile = new Map<number, { rows: number[]; reasons: InvalidRowList['reasons']; overflow: boolean }>();
  for (const result of results) {
    if (!result.invalid) continue;
    const file = byFile.get(result.fileIndex) ?? { rows: [], reasons: [], overflow: false };
    for (const [i, row] of result.invalid.rows.entries()) {
      file.rows.push(row);
      file.reasons.push(result.invalid.reasons[i]!);
    }
    file.overflow ||= result.invalid.overflow;
    byFile.set(result.fileIndex, file);
  }
  return [...byFile].sort(([a], [b]) => a - b).map(([fileIndex, list]) => ({ fileIndex, list: sorted(list) }));
}

function sorted(list: InvalidRowList): InvalidRowList {
  const order = list.rows.map((_, i) => i).sort((a, b) => list.rows[a]! - list.rows[b]!);
  return { rows: order.map((i) => list.rows[i]!), reasons: order.map((i) => list.reasons[i]!), overflow: list.overflow };
}
