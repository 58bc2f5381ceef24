import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { WorkerPool } from '../../lib/parallel/worker-pool.js';

/** A worker that answers each message with its thread id, so a test sees which worker ran. */
function echoWorker(started: Worker[]): () => Worker {
  return () => {
    const worker = new Worker("const { parentPort, threadId } = require('node:worker_threads'); parentPort.on('message', () => parentPort.postMessage(threadId));", { eval: true });
    started.push(worker);
    return worker;
  };
}

function ask(worker: Worker): Promise<number> {
  return new Promise((resolve) => {
    worker.once('message', resolve);
    worker.postMessage('who');
  });
}

describe('WorkerPool', () => {
  it('hands out the workers it started ahead, and the same ones again to the next run', async () => {
    const started: Worker[] = [];
    const pool = new WorkerPool(echoWorker(started));
    pool.prestart(1);
    expect(started).toHaveLength(1);
    const first = pool.take();
    const id = await ask(first);
    pool.give(first);
    const again = pool.take();
    expect(await ask(again)).toBe(id);
    expect(started).toHaveLength(1);
    pool.give(again);
    await pool.close();
  });

  it('starts a new worker for the next run when the one it had was ended', async () => {
    const started: Worker[] = [];
    const pool = new WorkerPool(echoWorker(started));
    pool.prestart(1);
    const first = pool.take();
    await pool.end(first);
    const next = pool.take();
    expect(next).not.toBe(first);
    expect(started).toHaveLength(2);
    await ask(next);
    pool.give(next);
    await pool.close();
  });
});
