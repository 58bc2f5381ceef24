/**
 * A worker thread's entry: checks one slice of a partition file and sends the result back.
 * It rebuilds the check plan from the contract (rules are functions and do not cross threads)
 * and the file from its description: a local path, or an S3 object read pinned to its ETag.
 */
import { parentPort } from 'node:worker_threads';
import { buildCheckPlan } from '../checks/check-plan.js';
import { checkSlice, type Slice } from '../checks/check-slice.js';
import type { PartitionFile } from '../checks/partition-file.js';
import type { Contract } from '../contract/model.js';
import { GateError } from '../errors.js';
import { localPartitionFile } from '../storage/local-files.js';
import { objectFile } from '../storage/object-file.js';
import type { ObjectStore } from '../storage/object-store.js';
import { withKnownTail, type KnownTail } from './known-tail.js';

/** A file as another thread can open it: plain data, with its footer when the planner read it (known-tail.ts). */
export type WorkerFile = (
  | { readonly kind: 'local'; readonly path: string; readonly byteLength: number }
  | { readonly kind: 's3'; readonly bucket: string; readonly endpoint?: string; readonly key: string; readonly size: number; readonly etag?: string }
) & { readonly tail?: KnownTail };

export interface SliceTask {
  readonly contract: Contract;
  readonly now: number;
  /** The partition path, when known: freshness and not_in_future are judged as of its due time. */
  readonly partition?: string;
  readonly file: WorkerFile;
  readonly slice: Slice;
}

export type SliceReply =
  | { readonly ok: true; readonly result: Awaited<ReturnType<typeof checkSlice>> }
  | { readonly ok: false; readonly error: string; readonly code?: string };

const stores = new Map<string, ObjectStore>();

async function openWorkerFile(file: WorkerFile): Promise<PartitionFile> {
  if (file.kind === 'local') return withKnownTail(localPartitionFile(file.path, file.byteLength), file.tail);
  const id = `${file.endpoint ?? ''} ${file.bucket}`;
  // The SDK is loaded by the first S3 slice: a worker started early for local files never loads it.
  const store = stores.get(id) ?? (await s3Store(file.bucket, file.endpoint));
  stores.set(id, store);
  return withKnownTail(objectFile(store, file), file.tail);
}

async function s3Store(bucket: string, endpoint: string | undefined): Promise<ObjectStore> {
  const [{ createS3Client }, { s3ObjectStore }] = await Promise.all([import('../storage/s3-client.js'), import('../storage/s3-object-store.js')]);
  return s3ObjectStore({ client: createS3Client({ endpoint }), bucket });
}

parentPort?.on('message', (task: SliceTask) => {
  const plan = buildCheckPlan(task.contract, task.now, task.partition === undefined ? {} : { partition: task.partition });
  openWorkerFile(task.file)
    .then((file) => checkSlice(plan, file, task.slice))
    .then((result) => parentPort?.postMessage({ ok: true, result } satisfies SliceReply, [...new Set(result.hashes.flat().map((h) => h.buffer as ArrayBuffer))]))
    // The code crosses too: a pinned read that failed because the file changed must stay that error.
    .catch((error: unknown) => parentPort?.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error), ...(error instanceof GateError ? { code: error.code } : {}) } satisfies SliceReply));
});
