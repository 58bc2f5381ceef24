import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildCheckPlan } from '../checks/check-plan.js';
import type { Slice, SliceResult } from '../checks/check-slice.js';
import { finishRun, runChecks, type CheckRun, type PartitionFile, type ValidateOptions } from '../checks/validate-partition.js';
import type { Contract } from '../contract/model.js';
import { GateError } from '../errors.js';
import { openTable } from '../formats/open-table.js';
import type { SliceTask } from './slice-worker.js';

/**
 * Below this a partition is checked in one thread. Measured on 2 cores at 150 MB (5M rows), with
 * the grain hashed from page bytes: two workers took 1.28-1.58 s against one thread's 1.11-1.37 s
 * and added ~80 MB of RSS (more V8 heaps), so workers start only where decoding dominates by far;
 * `--workers` overrides.
 */
export const PARALLEL_MIN_BYTES = 512 * 1024 * 1024;

export interface ParallelOptions extends ValidateOptions {
  /** Worker threads to use; 0 or 1 checks in this thread. @default the machine's cores, when the partition is big enough */
  readonly workers?: number;
}

/**
 * Checks a local partition with every core: files, and row-group ranges of big Parquet files,
 * are checked in worker threads and merged in order, so the report is the one a single thread
 * would write.
 */
export async function runChecksInParallel(contract: Contract, now: number, files: readonly PartitionFile[], options: ParallelOptions = {}): Promise<CheckRun> {
  const plan = buildCheckPlan(contract, now);
  const bytes = files.reduce((sum, f) => sum + f.byteLength, 0);
  const workers = options.workers ?? (bytes >= PARALLEL_MIN_BYTES ? availableParallelism() : 1);
  if (workers <= 1) return runChecks(plan, files, options);
  const slices = await planSlices(contract, files, workers * 2);
  if (slices.length <= 1) return runChecks(plan, files, options);
  const results = await runPool(slices.map((slice) => ({ contract, now, file: { path: files[slice.fileIndex]!.path, byteLength: files[slice.fileIndex]!.byteLength }, slice })), Math.min(workers, slices.length), options);
  return finishRun(plan, files, results);
}

/** One slice per file, and big Parquet files cut into contiguous row-group ranges. */
async function planSlices(contract: Contract, files: readonly PartitionFile[], target: number): Promise<Slice[]> {
  const slices: Slice[] = [];
  const perFile = Math.max(1, Math.ceil(target / files.length));
  for (const [fileIndex, file] of files.entries()) {
    const groups = await rowGroupCount(contract, file);
    const pieces = Math.min(perFile, Math.max(1, groups));
    for (let piece = 0; piece < pieces; piece++) {
      const from = Math.floor((piece * groups) / pieces);
      const to = Math.floor(((piece + 1) * groups) / pieces);
      slices.push(groups > 1 ? { fileIndex, groups: { from, to }, first: piece === 0 } : { fileIndex, first: true });
    }
  }
  return slices;
}

async function rowGroupCount(contract: Contract, file: PartitionFile): Promise<number> {
  if (contract.produces.format !== 'parquet') return 1;
  const opened = await file.open();
  try {
    const schema = await openTable('parquet', opened.source).schema();
    return schema.kind === 'typed' ? schema.groupRows.length : 1;
  } catch {
    return 1; // an unreadable file is one slice; the worker reports why
  } finally {
    await opened.close();
  }
}

function runPool(tasks: readonly SliceTask[], size: number, options: ValidateOptions): Promise<SliceResult[]> {
  const results: SliceResult[] = new Array(tasks.length);
  let next = 0;
  let done = 0;
  let rows = 0;
  return new Promise((resolve, reject) => {
    const pool = Array.from({ length: size }, () => startWorker());
    const fail = (error: unknown) => {
      pool.forEach((worker) => void worker.terminate());
      reject(error instanceof Error ? error : new GateError('internal', String(error)));
    };
    const feed = (worker: Worker, index: number) => {
      worker.once('message', (message: { ok: true; result: SliceResult } | { ok: false; error: string }) => {
        if (!message.ok) return fail(new GateError('storage_failed', message.error));
        results[index] = message.result;
        rows += message.result.rows;
        done += 1;
        options.onProgress?.({ filesDone: done, filesTotal: tasks.length, rowsRead: rows });
        if (done === tasks.length) {
          pool.forEach((w) => void w.terminate());
          return resolve(results);
        }
        if (next < tasks.length) feed(worker, next++);
      });
      worker.postMessage(tasks[index]);
    };
    pool.forEach((worker) => {
      worker.once('error', fail);
      if (next < tasks.length) feed(worker, next++);
    });
  });
}

/** Under tsx or vitest this module is TypeScript: the worker then registers tsx before loading its entry. */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./slice-worker.js', import.meta.url));
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/index\.cjs$/, 'index.mjs');
  const entry = new URL('./slice-worker.ts', import.meta.url).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`, { eval: true });
}
