import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { startLoopbackSns } from '../test/fixtures/loopback-sns.js';
import { bundleHandler } from './lambda-bundle.js';
import { ensurePartition, ROW_GROUP, type Variant } from './lambda-data.js';
import { heapFlags, invokeOnce, type Invocation } from './lambda-invoke.js';
import { printSizing, printTable, summaryRows } from './lambda-report.js';
import { cpuRatios, deployedConfig, estimate, TWO_VCPU_MB } from './lambda-sizing.js';

/**
 * `npm run bench:lambda`: the validate function as deployed (the esbuild bundle, the runtime's
 * heap flags for its memory, one CPU as Lambda gives at 1,769 MB) handling one SQS-wrapped S3
 * `_READY` event per partition against a local S3 endpoint: wall, rows/s, peak RSS for orders
 * partitions of 1M, 5M and 10M rows, each a bad drop (must be quarantined) and a good one (must
 * be published); the largest size again as the 3,538 MB function on two CPUs. Then the largest
 * partition one invocation validates within its timeout. Writes bench/lambda-results.json;
 * exits 1 if any drop was not handled as the gate promises.
 *
 * Knobs: LAMBDA_SIZES ("1000000,5000000,10000000"), LAMBDA_RUNS (2), LAMBDA_ENV (prod: the
 * cdk.json environment whose memory and timeout are used).
 */
const SIZES = (process.env.LAMBDA_SIZES ?? '1000000,5000000,10000000').split(',').map(Number).sort((a, b) => a - b);
const RUNS = Number(process.env.LAMBDA_RUNS ?? 2);
const ENV_NAME = process.env.LAMBDA_ENV ?? 'prod';
if (SIZES.some((n) => !Number.isSafeInteger(n) || n < 1000) || !Number.isInteger(RUNS) || RUNS < 1) throw new Error('LAMBDA_SIZES: whole numbers >= 1000, comma-separated; LAMBDA_RUNS: a whole number >= 1');
const VARIANTS: readonly Variant[] = ['bad', 'good'];
// Read before pinning: availableParallelism() follows this process's CPU affinity.
const CORES = availableParallelism();

const loadavg = (): string => readFileSync('/proc/loadavg', 'utf8').trim();
const load = { start: loadavg(), end: '' };
const deployed = await deployedConfig(ENV_NAME);
const files = new Map<string, { path: string; bytes: number }>();
for (const rows of SIZES) for (const variant of VARIANTS) files.set(`${variant}|${rows}`, await ensurePartition(variant, rows));

const pinned = pinSelf();
const bundle = await bundleHandler();
const sns = await startLoopbackSns();
const runs: Invocation[] = [];
try {
  for (let run = 1; run <= RUNS; run++) {
    for (const rows of SIZES) {
      for (const variant of VARIANTS) {
        for (const { cpus, memoryMb } of configs(rows)) {
          process.stderr.write(`run ${run}/${RUNS}: ${rows.toLocaleString('en-US')} rows, ${variant}, CPUs ${cpus ?? 'unpinned'} @ ${memoryMb} MB...\n`);
          const result = await invokeOnce({ bundleDir: bundle.dir, variant, rows, file: files.get(`${variant}|${rows}`)!, cpus, memoryMb, timeoutMs: deployed.timeoutS * 1000, sns });
          for (const problem of result.problems) process.stderr.write(`  FAILED: ${problem}\n`);
          runs.push(result);
        }
      }
    }
  }
} finally {
  await sns.stop();
  rmSync(bundle.dir, { recursive: true, force: true });
}
load.end = loadavg();

const rows = summaryRows(runs);
const estimates = VARIANTS.map((variant) => estimate(variant, runs, deployed));
const ratios = cpuRatios(runs);
const failed = runs.filter((r) => r.problems.length > 0);
console.log(`\nvalidate function "${ENV_NAME}": ${deployed.memoryMb} MB, timeout ${deployed.timeoutS} s; node ${heapFlags(deployed.memoryMb).join(' ')}; bundle ${(bundle.codeBytes / 2 ** 20).toFixed(2)} MB`);
console.log(`orders, 6 columns, Snappy, DuckDB ROW_GROUP_SIZE ${ROW_GROUP.toLocaleString('en-US')}, one file per partition; ${RUNS} run(s), medians; handler pinned with taskset ${pinned ? '(this process and the S3 endpoint on CPU 1)' : 'NOT (taskset missing or one core)'}; ${CORES} cores`);
console.log(`load average (/proc/loadavg) at start: ${load.start}; at end: ${load.end}  (a shared machine: wall times are noisy)\n`);
printTable(rows);
printSizing(deployed, estimates, ratios);
console.log(`threads in the handler path: ${bundle.threadModules.length ? bundle.threadModules.join(', ') : 'no lib/parallel module in the bundle'}; bundle names worker_threads: ${bundle.mentionsWorkerThreads ? 'yes' : 'no'}; slice-worker.mjs shipped: ${bundle.sliceWorker ? 'yes' : 'no'}`);
console.log(failed.length === 0 ? 'every bad drop was quarantined with exactly the planted violations, every good drop published' : `${failed.length} invocation(s) FAILED (see above)`);

writeFileSync(join('bench', 'lambda-results.json'), `${JSON.stringify({
  generated_at: new Date().toISOString(), node: process.version, cores: CORES, load_average: load, runs: RUNS, sizes: SIZES,
  deployed, node_flags: heapFlags(deployed.memoryMb), pinned, bundle: { code_bytes: bundle.codeBytes, thread_modules: bundle.threadModules, mentions_worker_threads: bundle.mentionsWorkerThreads, slice_worker: bundle.sliceWorker },
  table: rows, estimates, cpu_ratios: ratios, invocations: runs, failed: failed.length,
}, null, 2)}\n`);
process.exitCode = failed.length === 0 ? 0 : 1;

/**
 * The deployed function on one CPU, as Lambda runs it at 1,769 MB; for the largest size also
 * the 3,538 MB function on two, right after: a noisy moment then hits both.
 */
function configs(rows: number): { cpus: string | undefined; memoryMb: number }[] {
  if (!pinned) return [{ cpus: undefined, memoryMb: deployed.memoryMb }];
  const one = { cpus: '0', memoryMb: deployed.memoryMb };
  return rows === SIZES.at(-1) ? [one, { cpus: '0,1', memoryMb: TWO_VCPU_MB }] : [one];
}

/**
 * Moves this process (and so the S3 endpoint and proxy it starts later) to CPU 1, leaving CPU 0
 * to the handler as Lambda leaves its vCPU to the function; S3 is another machine there.
 */
function pinSelf(): boolean {
  if (CORES < 2 || spawnSync('taskset', ['--version']).status !== 0) return false;
  return spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' }).status === 0;
}
