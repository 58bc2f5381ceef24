import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildCheckPlan, type CheckPlan } from '../checks/check-plan.js';
import { checkSlice, type SliceResult } from '../checks/check-slice.js';
import { finishRun, runChecks, type CheckRun, type PartitionFile, type ValidateOptions } from '../checks/validate-partition.js';
import type { PlanFacts } from '../checks/plan-facts.js';
import type { Contract } from '../contract/model.js';
import { GateError, isGateErrorCode } from '../errors.js';
import { planWork, sliceByWork, totalWork } from './plan-work.js';
import type { SliceReply, SliceTask, WorkerFile } from './slice-worker.js';

/**
 * Below this many values to decode (rows × columns the footers leave unproven, see plan-work.ts)
 * a partition is checked in one thread. Measured on 2 quiet cores: 5M orders rows with violations
 * in every row group (30M values) took 2.09-2.27 s in one thread and 2.24-2.69 s in two (each
 * worker its own heap and warm-up, and confirming duplicates stays on this thread); 1M rows of 80
 * columns (80M values) took 9.1 s in one and 6.2 s in two. `--workers` overrides.
 */
export const PARALLEL_MIN_VALUES = 50_000_000;

export interface ParallelOptions extends ValidateOptions {
  /** Threads to check with, this one included; 0 or 1 checks in this thread only. @default the machine's cores, when the partition has enough to decode */
  readonly workers?: number;
  /** Threads the default may use. @default the machine's cores (availableParallelism) */
  readonly cores?: number;
  /** Values to decode from which the default uses them all. @default PARALLEL_MIN_VALUES */
  readonly minValues?: number;
  /** How a worker opens file `index`. @default the file's path on the local disk */
  readonly describe?: (file: PartitionFile, index: number) => WorkerFile;
  /** What the contract's cross-partition rules need, read from the lake beforehand. */
  readonly facts?: PlanFacts;
}

const onLocalDisk = (file: PartitionFile): WorkerFile => ({ kind: 'local', path: file.path, byteLength: file.byteLength });

/**
 * Checks a partition with every core: files, and row-group ranges of big Parquet files, are
 * checked in this thread and worker threads and merged in order, so the report is the one a
 * single thread would write. Workers open the files themselves, as `describe` says.
 */
export async function runChecksInParallel(contract: Contract, now: number, files: readonly PartitionFile[], options: ParallelOptions = {}): Promise<CheckRun> {
  const plan = buildCheckPlan(contract, now, options.facts);
  if (options.workers !== undefined && options.workers <= 1) return runChecks(plan, files, options);
  const cores = options.cores ?? availableParallelism();
  if (options.workers === undefined && cores <= 1) return runChecks(plan, files, options);
  const work = await planWork(plan, files);
  const workers = options.workers ?? (totalWork(work) >= (options.minValues ?? PARALLEL_MIN_VALUES) ? cores : 1);
  if (workers <= 1) return runChecks(plan, files, options);
  // Twice the workers: a slice that proves cheaper than its estimate leaves room to rebalance.
  const slices = sliceByWork(work, workers * 2);
  if (slices.length <= 1) return runChecks(plan, files, options);
  const describe = options.describe ?? onLocalDisk;
  const partition = options.facts?.partition;
  const tasks = slices.map((slice) => ({ contract, now, ...(partition === undefined ? {} : { partition }), file: describe(files[slice.fileIndex]!, slice.fileIndex), slice }));
  const results = await runPool(plan, files, tasks, Math.min(workers, slices.length), options);
  return finishRun(plan, files, results);
}

/**
 * Runs the slices on this thread and `size - 1` workers, each taking the next slice when done.
 * This thread works too: one V8 heap and one warm-up fewer than a worker per core.
 */
async function runPool(plan: CheckPlan, files: readonly PartitionFile[], tasks: readonly SliceTask[], size: number, options: ValidateOptions): Promise<SliceResult[]> {
  const results: SliceResult[] = new Array(tasks.length);
  const workers = Array.from({ length: size - 1 }, () => startWorker());
  let next = 0;
  let rows = 0;
  let done = 0;
  const run = async (check: (task: SliceTask) => Promise<SliceResult>) => {
    try {
      for (let index = next++; index < tasks.length; index = next++) {
        results[index] = await check(tasks[index]!);
        rows += results[index]!.rows;
        options.onProgress?.({ filesDone: ++done, filesTotal: tasks.length, rowsRead: rows });
      }
    } catch (error) {
      next = tasks.length; // the others stop after their slice: the run has failed
      throw error;
    }
  };
  const here = (task: SliceTask) => checkSlice(plan, files[task.slice.fileIndex]!, task.slice);
  try {
    await Promise.all([run(here), ...workers.map((worker) => run((task) => inWorker(worker, task)))]);
    return results;
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

function inWorker(worker: Worker, task: SliceTask): Promise<SliceResult> {
  return new Promise((resolve, reject) => {
    const onError = (error: unknown) => reject(error instanceof Error ? error : new GateError('internal', String(error)));
    worker.once('error', onError);
    worker.once('message', (message: SliceReply) => {
      worker.off('error', onError);
      if (message.ok) resolve(message.result);
      else reject(new GateError(isGateErrorCode(message.code) ? message.code : 'storage_failed', message.error));
    });
    worker.postMessage(task);
  });
}

/**
 * The worker's entry beside this module: compiled (dist/), bundled beside the chunk this module
 * is in (dist/bundles/handlers/, flat; see handler-bundles.ts) or a NodejsFunction's index.mjs,
 * or TypeScript under tsx or vitest, which registers tsx first.
 */
function startWorker(): Worker {
  if (import.meta.url.endsWith('.mjs')) return new Worker(new URL('./slice-worker.mjs', import.meta.url));
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./slice-worker.js', import.meta.url));
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/index\.cjs$/, 'index.mjs');
  const entry = new URL('./slice-worker.ts', import.meta.url).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`, { eval: true });
}
