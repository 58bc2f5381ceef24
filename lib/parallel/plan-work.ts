import type { CheckPlan } from '../checks/check-plan.js';
import type { Slice } from '../checks/check-slice.js';
import type { PartitionFile } from '../checks/partition-file.js';
import { checkFileSchema } from '../checks/schema-check.js';
import { columnsToDecode } from '../checks/settle-by-statistics.js';
import { ViolationLog } from '../checks/violation-log.js';
import { openTable } from '../formats/open-table.js';

/** Values a text file is taken to hold per byte: a CSV row of a few columns is some 50 bytes. */
const TEXT_VALUES_PER_BYTE = 0.1;

/** How much decoding a file asks for: values (rows × columns to decode) per row group, from footers alone. */
export interface FileWork {
  readonly fileIndex: number;
  /** One entry per row group; one entry for a file without row groups. */
  readonly groups: readonly number[];
}

/**
 * Estimates from each file's footer what the checks will decode: a row group whose statistics
 * prove its rules costs only its key columns. Nothing is decoded (dictionaries are not read: a
 * column they would prove counts as work), so the estimate is cheap and errs towards work.
 */
export async function planWork(plan: CheckPlan, files: readonly PartitionFile[]): Promise<FileWork[]> {
  return Promise.all(files.map(async (file, fileIndex) => ({ fileIndex, groups: await fileWork(plan, file) })));
}

async function fileWork(plan: CheckPlan, file: PartitionFile): Promise<number[]> {
  const textWork = [file.byteLength * TEXT_VALUES_PER_BYTE];
  if (plan.format !== 'parquet') return textWork;
  const opened = await file.open();
  try {
    const table = openTable('parquet', opened.source);
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
    return textWork; // an unreadable file is one slice; its checker reports why
  } finally {
    await opened.close();
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
