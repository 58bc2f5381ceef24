import { textLayout, type CheckPlan } from '../checks/check-plan.js';
import type { Slice } from '../checks/check-slice.js';
import type { PartitionFile } from '../checks/partition-file.js';
import { csvRanges } from '../formats/csv-ranges.js';
import { jsonlRanges } from '../formats/jsonl-ranges.js';
import type { TextRange } from '../formats/table-file.js';

/**
 * Below this many bytes a range is not worth its own slice: each range pays a worker's message
 * and its reader's start. A 4 MiB CSV range is some 60,000 rows, a few tens of milliseconds.
 */
export const MIN_RANGE_BYTES = 4 * 1024 * 1024;

/**
 * Cuts the whole-file slices of big CSV and JSON Lines files into byte ranges of about `share`
 * work each (csv-ranges.ts, jsonl-ranges.ts: each starts where a record starts, with its row and
 * line numbers, so its samples read as the whole file's). Parquet slices pass as they are.
 */
export async function cutTextFiles(plan: CheckPlan, files: readonly PartitionFile[], slices: readonly Slice[], parts: (slice: Slice) => number, minRangeBytes = MIN_RANGE_BYTES): Promise<Slice[]> {
  if (plan.format === 'parquet') return [...slices];
  const cut = await Promise.all(slices.map(async (slice) => {
    const file = files[slice.fileIndex]!;
    const count = Math.min(parts(slice), Math.floor(file.byteLength / Math.max(1, minRangeBytes)));
    if (slice.groups || slice.textRange || count <= 1) return [slice];
    const ranges = await rangesOf(plan, file, count);
    if (ranges.length <= 1) return [slice];
    return ranges.map((textRange, i): Slice => ({ fileIndex: slice.fileIndex, textRange, first: i === 0 }));
  }));
  return cut.flat();
}

async function rangesOf(plan: CheckPlan, file: PartitionFile, parts: number): Promise<TextRange[]> {
  const opened = await file.open();
  try {
    if (plan.format === 'jsonl') return await jsonlRanges(opened.source, parts);
    const layout = textLayout(plan);
    return await csvRanges(opened.source, parts, { ...(layout.csv ? { dialect: layout.csv } : {}), columns: layout.columns });
  } finally {
    await opened.close();
  }
}
