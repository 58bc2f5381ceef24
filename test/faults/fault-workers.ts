import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { HarnessOptions, HarnessResult } from './fault-harness.js';
import type { RunReport } from './fault-run.js';
import type { MutationCounts } from './scenarios.js';

/** Between the parent and a worker process, over the IPC channel. */
export type WorkerMessage = { type: 'report'; report: RunReport } | { type: 'done'; counts: MutationCounts };
export type WorkerJob = Omit<HarnessOptions, 'onRun'>;

/**
 * Runs the seeds in child processes, each with its own emulator. The SDK's per-request work
 * keeps one Node process busy; on a 2-core machine two harness processes and two emulators
 * finish a thousand seeds well inside the budget where one would not.
 */
export async function runInWorkers(options: HarnessOptions, workers: number): Promise<HarnessResult> {
  const reports: RunReport[] = [];
  const shares = Array.from({ length: workers }, (_, w) => options.seeds.filter((_, i) => i % workers === w)).filter((s) => s.length > 0);
  const counts = await Promise.all(shares.map((seeds) => runWorker({ ...options, seeds }, (report) => {
    reports.push(report);
    options.onRun?.(report, reports.length);
  })));
  return { reports: reports.sort((a, b) => a.seed - b.seed), counts: counts[0] ?? { good: 0, bad: 0 } };
}

function runWorker(options: HarnessOptions, onReport: (report: RunReport) => void): Promise<MutationCounts> {
  const child = forkWorker();
  const job: WorkerJob = { seeds: options.seeds, parallel: options.parallel, checkpointChance: options.checkpointChance, ...(options.pairs ? { pairs: true } : {}) };
  return new Promise((resolve, reject) => {
    let counts: MutationCounts | undefined;
    child.on('message', (message: WorkerMessage) => {
      if (message.type === 'report') onReport(message.report);
      else counts = message.counts;
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 && counts ? resolve(counts) : reject(new Error(`a fault worker exited with code ${code} before finishing its ${options.seeds.length} seeds`))));
    child.send(job);
  });
}

/** Under tsx this module is TypeScript, and so is the worker entry next to it. */
function forkWorker(): ChildProcess {
  const typescript = import.meta.url.endsWith('.ts');
  const entry = new URL(`./fault-worker.${typescript ? 'ts' : 'js'}`, import.meta.url);
  const execArgv = typescript ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [];
  return fork(entry, [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}
