import type { SliceResult } from '../checks/check-slice.js';
import { logDuplicates } from '../checks/confirm-duplicates.js';
import { finishRun, type CheckRun, type PartitionFile } from '../checks/validate-partition.js';
import { ViolationLog } from '../checks/violation-log.js';
import type { ReadStats } from '../formats/prefetched-source.js';
import type { RunContext } from './fanout-context.js';
import type { FileResult } from './map-file.js';
import type { ShardResult } from './reduce-shard.js';

/**
 * The map's file results and the reduce's shard results as the report a single handler writes.
 * The files go through finishRun in file order without hashes, so its uniqueness pass finds no
 * candidates; the shards' confirmed duplicates join as one more slice result after them, logged
 * by the same code in the same partition order. Counts, samples and the partition rules then come
 * out of finishRun exactly as for one handler.
 */
export async function mergeFanout(context: RunContext, files: readonly PartitionFile[], results: readonly FileResult[], shards: readonly ShardResult[]): Promise<CheckRun> {
  const slices: SliceResult[] = results.map((result) => ({ ...result, hashes: [] }));
  if (files.length === 0) return finishRun(context.plan, files, slices);
  return finishRun(context.plan, files, [...slices, confirmedSlice(context, files.length - 1, results, shards)]);
}

function confirmedSlice(context: RunContext, lastFile: number, results: readonly FileResult[], shards: readonly ShardResult[]): SliceResult {
  const starts: number[] = [];
  let scanned = 0;
  for (const result of results) {
    starts[result.fileIndex] = scanned;
    scanned += result.scanned;
  }
  const log = new ViolationLog([]);
  const reads: ReadStats = { bytes: 0, requests: 0 };
  for (const [index, keySet] of context.keySets.entries()) {
    const parts = shards.filter((s) => s.keySet === index).map((s) => s.duplicates);
    logDuplicates(log, keySet, parts, (o) => (starts[o.fileIndex] ?? 0) + o.row);
  }
  for (const shard of shards) {
    reads.bytes += shard.reads.bytes;
    reads.requests += shard.reads.requests;
  }
  // Rows and scanned stay zero: the slice adds findings and reads, not rows.
  return { fileIndex: lastFile, rows: 0, scanned: 0, entries: log.entries(), hashes: [], reads };
}
