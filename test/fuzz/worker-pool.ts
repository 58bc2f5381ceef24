import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FuzzTask, WorkerReply } from './fuzz-worker.js';

/**
 * Runs fuzz tasks on a few worker threads, each under a heap limit, many files per worker. A
 * worker that overruns the time limit, runs out of memory or dies is replaced, and the file it
 * had is charged with that outcome.
 */
export type Outcome = 'read' | 'unreadable' | 'TIMEOUT' | 'OOM' | 'CRASH';

export interface TaskResult {
  readonly id: number;
  readonly outcome: Outcome;
  readonly detail: string;
  readonly ms: number;
}

export interface PoolOptions {
  readonly workers: number;
  readonly timeoutMs: number;
  readonly heapMb: number;
  /**
   * Array buffers live outside the heap limit, so the process is watched too: a file in flight
   * while RSS grows by more than this since it started is charged OOM (with several workers, an
   * innocent neighbour may be too). Growth, not level: freed thread memory is not always returned.
   */
  readonly rssGrowthMb: number;
}

export interface PoolStats {
  restarts: number;
  peakRssMb: number;
}

interface InFlight {
  readonly rssAtStart: number;
  readonly abort: (detail: string) => void;
}

export async function runPool(count: number, makeTask: (id: number) => FuzzTask, options: PoolOptions, onResult: (result: TaskResult) => void): Promise<PoolStats> {
  const stats: PoolStats = { restarts: 0, peakRssMb: 0 };
  const inFlight = new Set<InFlight>();
  const watch = setInterval(() => {
    const rssMb = rssNowMb();
    stats.peakRssMb = Math.max(stats.peakRssMb, rssMb);
    for (const task of inFlight) {
      if (rssMb - task.rssAtStart > options.rssGrowthMb) task.abort(`process RSS grew from ${task.rssAtStart} to ${rssMb} MB while this file was read`);
    }
  }, 25);
  let next = 0;
  const slot = async () => {
    let worker = await startWorker(options.heapMb);
    while (next < count) {
      const result = await runOne(worker, makeTask(next++), options.timeoutMs, inFlight);
      onResult(result);
      if (result.outcome === 'TIMEOUT' || result.outcome === 'OOM' || result.detail.startsWith('worker ')) {
        await worker.terminate();
        worker = await startWorker(options.heapMb);
        stats.restarts += 1;
      }
    }
    await worker.terminate();
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.workers, count)) }, slot));
  } finally {
    clearInterval(watch);
  }
  return stats;
}

const rssNowMb = () => Math.round(process.memoryUsage.rss() / 2 ** 20);

/** Sends one file and waits for the first of: its reply, the time limit, the worker failing. */
function runOne(worker: Worker, task: FuzzTask, timeoutMs: number, inFlight: Set<InFlight>): Promise<TaskResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    let done = false;
    const finish = (outcome: Outcome, detail: string, ms = performance.now() - started) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      inFlight.delete(watched);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      resolve({ id: task.id, outcome, detail, ms });
    };
    const watched: InFlight = { rssAtStart: rssNowMb(), abort: (detail) => finish('OOM', `worker ${detail}`) };
    inFlight.add(watched);
    const onMessage = (reply: WorkerReply) => reply.id === task.id && finish(reply.outcome, reply.detail, reply.ms);
    const onError = (error: Error & { code?: string }) =>
      error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? finish('OOM', `worker ran out of memory: ${error.message}`) : finish('CRASH', `worker error: ${error.message}`);
    const onExit = (code: number) => finish('CRASH', `worker exited with code ${code}`);
    // The main thread may have been busy making the next file: a reply already queued wins over the timer.
    const timer = setTimeout(() => setImmediate(() => finish('TIMEOUT', `no answer within ${timeoutMs} ms`)), timeoutMs);
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    const bytes = task.bytes.byteOffset === 0 && task.bytes.byteLength === task.bytes.buffer.byteLength ? task.bytes : task.bytes.slice();
    worker.postMessage({ ...task, bytes } satisfies FuzzTask, [bytes.buffer as ArrayBuffer]);
  });
}

/** Starts a worker on the TypeScript sources (through tsx) and waits until it has loaded them. */
function startWorker(heapMb: number): Promise<Worker> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/index\.cjs$/, 'index.mjs');
  const entry = new URL('./fuzz-worker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); }).then(() => require('node:worker_threads').parentPort.postMessage('ready'));`;
  const worker = new Worker(code, { eval: true, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
  return new Promise((resolve, reject) => {
    worker.once('message', () => resolve(worker));
    worker.once('error', reject);
  });
}
