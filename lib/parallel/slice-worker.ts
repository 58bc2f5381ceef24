/**
 * A worker thread's entry: checks one slice of a local partition file and sends the result back.
 * It rebuilds the check plan from the contract (rules are functions and do not cross threads).
 */
import { parentPort } from 'node:worker_threads';
import { buildCheckPlan } from '../checks/check-plan.js';
import { checkSlice, type Slice } from '../checks/check-slice.js';
import type { Contract } from '../contract/model.js';
import { localPartitionFile } from '../storage/local-files.js';

export interface SliceTask {
  readonly contract: Contract;
  readonly now: number;
  readonly file: { readonly path: string; readonly byteLength: number };
  readonly slice: Slice;
}

parentPort?.on('message', (task: SliceTask) => {
  const plan = buildCheckPlan(task.contract, task.now);
  checkSlice(plan, localPartitionFile(task.file.path, task.file.byteLength), task.slice)
    .then((result) => parentPort?.postMessage({ ok: true, result }, [...new Set(result.hashes.flat().map((h) => h.buffer as ArrayBuffer))]))
    .catch((error: unknown) => parentPort?.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) }));
});
