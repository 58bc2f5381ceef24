import { parentPort } from 'node:worker_threads';
import { readLikeTheEngine, type ReadOutcome, type ReadPath } from './read-like-engine.js';

/**
 * Reads each file it is sent the way the engine does (see read-like-engine.ts) and reports what
 * happened. Anything but a clean read or an UnreadableError is a crash.
 */
export type { ReadPath } from './read-like-engine.js';

export interface FuzzTask {
  readonly id: number;
  readonly bytes: Uint8Array;
  readonly path: ReadPath;
}

export interface WorkerReply extends ReadOutcome {
  readonly id: number;
  readonly ms: number;
}

parentPort?.on('message', async (task: FuzzTask) => {
  const started = performance.now();
  const result = await readLikeTheEngine(task.bytes, task.path);
  parentPort?.postMessage({ id: task.id, ...result, ms: performance.now() - started } satisfies WorkerReply);
});
