import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Slice workers started before they are needed and kept between runs. A worker takes 120-300 ms
 * to start (a V8 isolate, then the check modules): started with the process, that time passes
 * while this thread reads the contract and the footers, not after. Idle workers are unref'd, so
 * a CLI run ends when its work does, and kept, so `serve` and a warm Lambda pay the start once.
 */
export class WorkerPool {
  private readonly idle: Worker[] = [];

  constructor(private readonly start: () => Worker = startSliceWorker) {}

  /** Starts workers until `count` are idle; a worker already started counts. */
  prestart(count: number): void {
    while (this.idle.length < count) this.idle.push(idled(this.started()));
  }

  /** An idle worker, or a new one: referenced while it works, so this process waits for it. */
  take(): Worker {
    const worker = this.idle.pop() ?? this.started();
    worker.ref();
    return worker;
  }

  /** Back from a run that went well; a worker that failed is ended instead (see `end`). */
  give(worker: Worker): void {
    this.idle.push(idled(worker));
  }

  async end(worker: Worker): Promise<void> {
    await worker.terminate();
  }

  async close(): Promise<void> {
    await Promise.all(this.idle.splice(0).map((worker) => worker.terminate()));
  }

  /** A worker that fails or stops while idle (its start failed) is dropped, not thrown at this process. */
  private started(): Worker {
    const worker = this.start();
    const forget = () => {
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
    };
    return worker.on('error', forget).on('exit', forget);
  }
}

let warm: WorkerPool | undefined;

/**
 * Starts `count` slice workers for the runs of this process to come (`validate` at its start, the
 * Lambda handler and `serve` at theirs). Without it, a run starts its workers and ends them after.
 */
export function prestartCheckWorkers(count: number): void {
  if (count < 1) return;
  warm ??= new WorkerPool();
  warm.prestart(count);
}

/** The pool prestartCheckWorkers filled, if any: a run gives its workers back to it. */
export function warmPool(): WorkerPool | undefined {
  return warm;
}

function idled(worker: Worker): Worker {
  worker.unref();
  return worker;
}

/**
 * The worker's entry beside this module: compiled (dist/), bundled beside the chunk this module
 * is in (dist/bundles/handlers/, flat; see handler-bundles.ts) or a NodejsFunction's index.mjs,
 * or TypeScript under tsx or vitest, which registers tsx first.
 */
export function startSliceWorker(): Worker {
  if (import.meta.url.endsWith('.mjs')) return new Worker(new URL('./slice-worker.mjs', import.meta.url));
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./slice-worker.js', import.meta.url));
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/index\.cjs$/, 'index.mjs');
  const entry = new URL('./slice-worker.ts', import.meta.url).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`, { eval: true });
}
