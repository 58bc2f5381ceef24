import { buildCheckPlan } from '../checks/check-plan.js';
import { runChecks, type PartitionFile, type Progress } from '../checks/validate-partition.js';
import type { Contract } from '../contract/model.js';
import { partitionOfPaths } from '../contract/partition-template.js';
import { runChecksInParallel } from '../parallel/parallel-checks.js';
import type { Report } from '../report/report.js';
import { localPartitionFiles } from '../storage/local-files.js';
import { objectFile } from '../storage/object-file.js';
import type { ObjectStore } from '../storage/object-store.js';

export interface ValidateFilesOptions {
  /** The instant freshness is judged at (epoch milliseconds): pin it to replay old data. @default Date.now() */
  readonly now?: number;
  /**
   * The partition path (e.g. `dt=2026-11-29`): freshness and not_in_future are judged as of its
   * due time when that came before `now`. @default read from the paths where the template allows
   */
  readonly partition?: string;
  readonly onProgress?: (progress: Progress) => void;
}

/**
 * Validates local files as `contract-gate validate` does: a file stands for itself, a directory
 * for every file below it whose name does not start with `_` or `.`. Big partitions are checked
 * with the machine's cores unless `workers` is 0 or 1.
 */
export async function validateLocalPartition(contract: Contract, paths: readonly string[], options: ValidateFilesOptions & { readonly workers?: number } = {}): Promise<Report> {
  const files = await localPartitionFiles(paths);
  const partition = options.partition ?? partitionOfPaths(paths, contract.produces.partition);
  const run = await runChecksInParallel(contract, options.now ?? Date.now(), files, {
    ...(partition === undefined ? {} : { facts: { partition } }),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.workers === undefined ? {} : { workers: options.workers }),
  });
  return run.report;
}

/**
 * Validates the objects under `prefix` (a partition's folder, ending in `/`) as the gate does:
 * names starting with `_` or `.` at any level are not data, and every read is pinned to the
 * version listed, so an object replaced mid-run fails the run instead of mixing two versions.
 */
export async function validateStoredPartition(contract: Contract, store: ObjectStore, prefix: string, options: ValidateFilesOptions = {}): Promise<Report> {
  const files: PartitionFile[] = [];
  for await (const object of store.list(prefix)) {
    if (object.key.slice(prefix.length).split('/').some((segment) => segment.startsWith('_') || segment.startsWith('.'))) continue;
    files.push(objectFile(store, object));
  }
  const partition = options.partition ?? partitionOfPaths([prefix], contract.produces.partition);
  const run = await runChecks(buildCheckPlan(contract, options.now ?? Date.now(), partition === undefined ? {} : { partition }), files, options.onProgress ? { onProgress: options.onProgress } : {});
  return run.report;
}
