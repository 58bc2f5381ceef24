import type { ByteSource } from '../formats/byte-source.js';
import type { CheckPlan } from '../checks/check-plan.js';
import type { Slice } from '../checks/check-slice.js';
import type { PartitionFile } from '../checks/partition-file.js';
import { checkFileSchema } from '../checks/schema-check.js';
import { columnsToDecode } from '../checks/settle-by-statistics.js';
import { ViolationLog } from '../checks/violation-log.js';
import { openTable } from '../formats/open-table.js';
import { tailRecorder, type KnownTail } from './known-tail.js';

/** Values a text file is taken to hold per byte: a CSV row of a few columns is some 50 bytes. */
const TEXT_VALUES_PER_BYTE = 0.1;

/** How much decoding a file asks for: values (rows × columns to decode) per row group, from footers alone. */
export interface FileWork {
  readonly fileIndex: number;
  /** One entry per row group; one entry for a file without row groups. */
  readonly groups: readonly number[];
  /** The footer's bytes as planning read them, for the slices of the file to start from. */
  readonly tail?: KnownTail;
}

/**
 * Estimates from each file's footer what the checks will decode: a row group whose statistics
 * prove its rules costs only its key columns. Nothing is decoded (dictionaries are not read: a
 * column they would prove counts as work), so the estimate is cheap and errs towards work.
 */
export async function planWork(plan: CheckPlan, files: readonly PartitionFile[]): Promise<FileWork[]> {
  return Promise.all(files.map((file, fileIndex) => fileWork(plan, file, fileIndex)));
}

async function fileWork(plan: CheckPlan, file: PartitionFile, fileIndex: number): Promise<FileWork> {
  if (plan.format !== 'parquet') return { fileIndex, groups: textWork(file) };
  const opened = await file.open();
  const recorder = tailRecorder(opened.source);
  try {
    const groups = await groupWork(plan, file, recorder.source);
    const tail = recorder.tail();
    return { fileIndex, groups, ...(tail ? { tail } : {}) };
  } finally {
    await opened.close();
  }
}

function textWork(file: PartitionFile): number[] {
  return [file.byteLength * TEXT_VALUES_PER_BYTE];
}

async function groupWork(plan: CheckPlan, file: PartitionFile, source: ByteSource): Promise<number[]> {
  try {
    const table = openTable('parquet', source);
    const columns = checkFileSchema(plan, await table.schema(), file.path, new ViolationLog([]));
    const groups: number[] = [];
    const select = async (group: Parameters<typeof columnsToDecode>[2]) => {
      const decoded = await columnsToDecode(plan, columns, { ...group, dictionary: undefined });
      groups.push(group.rowCount * decoded.length);
      return [];
    };
    for await (const batch of table.batches(columns.map((c) => c.plan.spec.name), { select })) void batch;
    return groups.length > 0 ? groups : [0];
  } catch {
    return textWork(file); // an unreadable file is one slice; its checker reports why
  }
}

/**
 * Cuts files into slices of about equal work, `target` in all: contiguous row-group ranges of
 * big Parquet files, never crossing a file. A file is at least one slice.
 */
export function sliceByWork(work: readonly FileWork[], target: number): Slice[] {
  const share = Math.max(1, totalWork(work) / Math.max(1, target));
  const slices: Slice[] = [];
  for (const { fileIndex, groups } of work) {
    if (groups.length <= 1) {
      slices.push({ fileIndex, first: true });
      continue;
    }
    let from = 0;
    let load = 0;
    for (let group = 0; group < groups.length; group++) {
      load += groups[group]!;
      const last = group === groups.length - 1;
      if (last || load >= share) {
        slices.push({ fileIndex, groups: { from, to: group + 1 }, first: from === 0 });
        from = group + 1;
        load = 0;
      }
    }
  }
  return slices;
}

export function totalWork(work: readonly FileWork[]): number {
  return work.reduce((sum, file) => sum + file.groups.reduce((a, b) => a + b, 0), 0);
}

/** A slice's estimated work: its row groups', or its file's share by bytes for a text range. */
export function sliceWork(work: readonly FileWork[], byteLengths: readonly number[], slice: Slice): number {
  const groups = work[slice.fileIndex]?.groups ?? [];
  if (slice.groups) return groups.slice(slice.groups.from, slice.groups.to).reduce((a, b) => a + b, 0);
  const whole = groups.reduce((a, b) => a + b, 0);
  const range = slice.textRange;
  const bytes = byteLengths[slice.fileIndex] ?? 0;
  return range && bytes > 0 ? (whole * (range.end - range.start)) / bytes : whole;
}
