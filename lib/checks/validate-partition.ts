import { GateError } from '../errors.js';
import type { ByteSource } from '../formats/byte-source.js';
import { openTable } from '../formats/open-table.js';
import { countedSource } from '../formats/prefetched-source.js';
import { UnreadableError, type RowGroupInfo } from '../formats/table-file.js';
import type { FileSummary, Report } from '../report/report.js';
import type { CheckPlan } from './check-plan.js';
import { checkBatch } from './check-batch.js';
import { confirmDuplicates } from './confirm-duplicates.js';
import { checkPartitionRules } from './partition-rules.js';
import { columnsToDecode } from './settle-by-statistics.js';
import { PartitionState } from './partition-state.js';
import { checkFileSchema, logExtraColumns } from './schema-check.js';

/** One file of a partition, opened only when its turn comes so open handles stay few. */
export interface PartitionFile {
  /** How the file is named in the report: a path or an object key. */
  readonly path: string;
  readonly byteLength: number;
  open(): Promise<OpenedFile>;
}

export interface OpenedFile {
  readonly source: ByteSource;
  close(): Promise<void>;
}

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
  const state = new PartitionState(plan, files.map((f) => f.path));
  const summaries: FileSummary[] = [];
  for (const [index, file] of files.entries()) {
    const rowsBefore = state.rows;
    const progress = () => options.onProgress?.({ filesDone: index, filesTotal: files.length, rowsRead: state.rows });
    await validateFile(state, file, index, progress);
    summaries.push({ path: file.path, rows: state.rows - rowsBefore, bytes: file.byteLength });
    options.onProgress?.({ filesDone: index + 1, filesTotal: files.length, rowsRead: state.rows });
  }
  await confirmDuplicates(state, files);
  checkPartitionRules(state);
  const violations = state.log.violations();
  const report: Report = {
    status: violations.length === 0 ? 'pass' : 'fail',
    contract: plan.contract,
    rows: state.rows,
    files: summaries,
    violations,
    checked_at: isoSeconds(plan.now),
  };
  const stats: RunStats = { bytes_total: files.reduce((sum, f) => sum + f.byteLength, 0), bytes_read: state.reads.bytes, read_requests: state.reads.requests };
  return state.newest ? { report, newest: state.newest.value, stats } : { report, stats };
}

/** ISO-8601 without milliseconds when they are zero, as reports print times. */
export function isoSeconds(millis: number): string {
  return new Date(millis).toISOString().replace('.000Z', 'Z');
}

async function validateFile(state: PartitionState, file: PartitionFile, index: number, progress: () => void): Promise<void> {
  state.fileStarts[index] = state.scanned;
  const opened = await file.open();
  try {
    const table = openTable(state.plan.format, countedSource(opened.source, state.reads));
    const schema = await table.schema();
    if (schema.kind === 'typed') state.keySets.forEach((keySet) => keySet.hashes.reserve(schema.rows));
    const columns = checkFileSchema(state.plan, schema, file.path, state.log);
    const keys = new Set<string>();
    const select = (group: RowGroupInfo) => columnsToDecode(state.plan, columns, group);
    for await (const batch of table.batches(columns.map((c) => c.plan.spec.name), select)) {
      checkBatch(state, columns, file.path, batch);
      batch.keys?.forEach((key) => keys.add(key));
      progress();
    }
    logExtraColumns(state.plan, keys, file.path, state.log);
  } catch (error) {
    if (error instanceof GateError) throw error;
    const reason = error instanceof UnreadableError ? error.message : `the reader failed: ${error instanceof Error ? error.message : String(error)}`;
    state.log.add('unreadable', undefined, '{count} {file|files} could not be read', { file: file.path, row: null, value: reason });
  } finally {
    await opened.close();
  }
}
