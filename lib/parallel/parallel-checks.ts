import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { buildCheckPlan, type CheckPlan } from '../checks/check-plan.js';
import { checkSlice, type Slice, type SliceResult } from '../checks/check-slice.js';
import { finishRun, runChecks, type CheckRun, type PartitionFile, type ValidateOptions } from '../checks/validate-partition.js';
import type { PlanFacts } from '../checks/plan-facts.js';
import type { Contract } from '../contract/model.js';
import { GateError, isGateErrorCode } from '../errors.js';
import { withKnownTail } from './known-tail.js';
import { planWork, sliceByWork, sliceWork, totalWork, type FileWork } from './plan-work.js';
import type { SliceReply, SliceTask, WorkerFile } from './slice-worker.js';
import { cutTextFiles } from './text-slices.js';
import { prestartCheckWorkers, warmPool, WorkerPool } from './worker-pool.js';

/**
 * Below this many values to decode (rows × columns the footers leave unproven, see plan-work.ts)
 * a partition is checked in one thread. With the workers started ahead and the footers read once,
 * the busier thread's CPU seconds, one thread against two (a shared 2-core box at load 17-21, so
 * indicative): 20k rows 1.02 / 0.86, spread 2M (~12M values) 2.02 / 1.81, CSV 2M 4.50 / 3.53,
 * 40 % nulls 2M 3.40 / 2.06, spread 5M (30M values) 3.22 / 2.60, 80 columns 1M 18.4 / 10.2. Below
 * some 10M values the gain is within the noise and a worker still costs its heap (~30-60 MB) and
 * ~0.3 s of the other core. `--workers` overrides.
 */
export const PARALLEL_MIN_VALUES = 8_000_000;

export interface ParallelOptions extends ValidateOptions {
  /** Threads to check with, this one included; 0 or 1 checks in this thread only. @default the machine's cores, when the partition has enough to decode */
  readonly workers?: number;
  /** Threads the default may use. @default the machine's cores (availableParallelism) */
  readonly cores?: number;
  /** Values to decode from which the default uses them all. @default PARALLEL_MIN_VALUES */
  readonly minValues?: number;
  /** Bytes below which a CSV or JSON Lines range is not cut off on its own. @default MIN_RANGE_BYTES (text-slices.ts) */
  readonly minRangeBytes?: number;
  /** How a worker opens file `index`. @default the file's path on the local disk */
  readonly describe?: (file: PartitionFile, index: number) => WorkerFile;
  /** What the contract's cross-partition rules need, read from the lake beforehand. */
  readonly facts?: PlanFacts;
}

/**
 * Bytes of a partition from which `validate` starts its workers with the process, before the
 * footers say whether they are needed: a worker that proves idle cost the other core ~0.2 s.
 */
export const PRESTART_MIN_BYTES = 16 * 1024 * 1024;

/** Starts the workers a run of `bytes` with `--workers` (when given) is likely to use, ahead of it. */
export function prestartFor(bytes: number, workers?: number, cores = availableParallelism()): void {
  prestartCheckWorkers((workers ?? (bytes >= PRESTART_MIN_BYTES ? cores : 1)) - 1);
}

const onLocalDisk = (file: PartitionFile): WorkerFile => ({ kind: 'local', path: file.path, byteLength: file.byteLength });

/**
 * Checks a partition with every core: files, row-group ranges of big Parquet files and byte
 * ranges of big CSV and JSON Lines files are checked in this thread and worker threads and merged
 * in order, so the report is the one a single thread would write. Footers are read once, here,
 * and handed to every slice; workers open the files themselves, as `describe` says.
 */
export async function runChecksInParallel(contract: Contract, now: number, files: readonly PartitionFile[], options: ParallelOptions = {}): Promise<CheckRun> {
  const plan = buildCheckPlan(contract, now, options.facts);
  if (options.workers !== undefined && options.workers <= 1) return runChecks(plan, files, options);
  const cores = options.cores ?? availableParallelism();
  if (options.workers === undefined && cores <= 1) return runChecks(plan, files, options);
  const work = await planWork(plan, files);
  const known = files.map((file, index) => withKnownTail(file, work[index]?.tail));
  const workers = options.workers ?? (totalWork(work) >= (options.minValues ?? PARALLEL_MIN_VALUES) ? cores : 1);
  if (workers <= 1) return runChecks(plan, known, options);
  const slices = await slicesFor(plan, known, work, workers, options.minRangeBytes);
  if (slices.length <= 1) return runChecks(plan, known, options);
  const describe = options.describe ?? onLocalDisk;
  const partition = options.facts?.partition;
  const tasks = slices.map((slice): SliceTask => {
    const tail = work[slice.fileIndex]?.tail;
    const file = { ...describe(files[slice.fileIndex]!, slice.fileIndex), ...(tail ? { tail } : {}) };
    return { contract, now, ...(partition === undefined ? {} : { partition }), file, slice };
  });
  // The biggest slices first, so the last to finish is a small one; results keep slice order.
  const byteLengths = files.map((file) => file.byteLength);
  const weights = slices.map((slice) => sliceWork(work, byteLengths, slice));
  const order = slices.map((_, index) => index).sort((a, b) => weights[b]! - weights[a]! || a - b);
  const results = await runPool(plan, known, tasks, order, Math.min(workers, slices.length), options);
  return finishRun(plan, known, results);
}

/**
 * Four slices a thread: this thread also starts the run and confirms duplicates after it, so the
 * slices are handed out small enough that the workers take the larger share of them.
 */
const SLICES_PER_THREAD = 4;

async function slicesFor(plan: CheckPlan, files: readonly PartitionFile[], work: readonly FileWork[], workers: number, minRangeBytes?: number): Promise<Slice[]> {
  const target = workers * SLICES_PER_THREAD;
  const share = Math.max(1, totalWork(work) / target);
  const whole = sliceByWork(work, target);
  const byteLengths = files.map((file) => file.byteLength);
  const parts = (slice: Slice) => Math.round(sliceWork(work, byteLengths, slice) / share);
  return cutTextFiles(plan, files, whole, parts, minRangeBytes);
}

/**
 * Runs the slices on this thread and `size - 1` workers, each taking the next slice when done.
 * This thread works too: one V8 heap and one warm-up fewer than a worker per core. Workers come
 * from the warm pool when the process started one (worker-pool.ts) and go back to it after.
 */
async function runPool(plan: CheckPlan, files: readonly PartitionFile[], tasks: readonly SliceTask[], order: readonly number[], size: number, options: ValidateOptions): Promise<SliceResult[]> {
  const results: SliceResult[] = new Array(tasks.length);
  const pool = warmPool() ?? new WorkerPool();
  const workers = Array.from({ length: size - 1 }, () => pool.take());
  const broken = new Set<Worker>();
  let failure: { error: unknown } | undefined;
  let next = 0;
  let rows = 0;
  let done = 0;
  const run = async (check: (task: SliceTask) => Promise<SliceResult>) => {
    try {
      for (let at = next++; at < order.length; at = next++) {
        const index = order[at]!;
        results[index] = await check(tasks[index]!);
        rows += results[index]!.rows;
        options.onProgress?.({ filesDone: ++done, filesTotal: tasks.length, rowsRead: rows });
      }
    } catch (error) {
      next = order.length; // the others stop after their slice: the run has failed
      failure ??= { error };
    }
  };
  const here = (task: SliceTask) => checkSlice(plan, files[task.slice.fileIndex]!, task.slice);
  // Every thread is waited for, failed or not: a worker given back mid-slice would answer the next run.
  await Promise.all([run(here), ...workers.map((worker) => run((task) => inWorker(worker, task, broken)))]);
  await Promise.all(workers.map((worker) => (broken.has(worker) ? pool.end(worker) : pool.give(worker))));
  if (pool !== warmPool()) await pool.close();
  if (failure) throw failure.error;
  return results;
}

/** One slice in `worker`; a worker that fails rather than answers is put in `broken`, not reused. */
function inWorker(worker: Worker, task: SliceTask, broken: Set<Worker>): Promise<SliceResult> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      worker.off('error', onError).off('exit', onExit).off('message', onMessage);
    };
    const onError = (error: unknown) => {
      stop();
      broken.add(worker);
      reject(error instanceof Error ? error : new GateError('internal', String(error)));
    };
    const onExit = (code: number) => onError(new GateError('internal', `a check worker stopped (exit code ${code}) before it finished its slice`));
    const onMessage = (message: SliceReply) => {
      stop();
      if (message.ok) resolve(message.result);
      else reject(new GateError(isGateErrorCode(message.code) ? message.code : 'storage_failed', message.error));
    };
    worker.on('error', onError).on('exit', onExit).on('message', onMessage);
    worker.postMessage(task);
  });
}
