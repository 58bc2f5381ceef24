import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTRACT_YAML, DATASET } from './lambda-data.js';
import { bundleValidate } from './validate-bundle.js';

/**
 * The validate function as deployed: lambdas/validate/handler.ts bundled with the construct's own
 * esbuild options (gateBundling, Node 22 as the function's runtime), then the construct's own
 * afterBundling commands (the contracts, and the slice worker where ValidateFunction asks for
 * it), in a directory outside the project so no node_modules is in reach. The bench's contract
 * is added there, and `invoke.mjs`, which plays Lambda's runtime client.
 */
export interface LambdaBundle {
  readonly dir: string;
  readonly codeBytes: number;
  /** Project modules in the bundle that start threads (lib/parallel/): none means one JS thread. */
  readonly threadModules: string[];
  /** Whether the bundled code names node:worker_threads at all. */
  readonly mentionsWorkerThreads: boolean;
  /** Whether a worker entry (slice-worker.mjs) ships beside the handler. */
  readonly sliceWorker: boolean;
}

export async function bundleHandler(): Promise<LambdaBundle> {
  const dir = mkdtempSync(join(tmpdir(), 'cg-lambda-task-'));
  const { outfile, metafile } = await bundleValidate(dir);
  writeFileSync(join(dir, 'contracts', `${DATASET}.v1.yaml`), CONTRACT_YAML);
  writeFileSync(join(dir, 'invoke.mjs'), INVOKE);
  const inputs = Object.keys(metafile.inputs);
  return {
    dir, codeBytes: statSync(outfile).size,
    threadModules: inputs.filter((path) => path.startsWith('lib/parallel/')),
    mentionsWorkerThreads: readFileSync(outfile, 'utf8').includes('worker_threads'),
    sliceWorker: existsSync(join(dir, 'slice-worker.mjs')),
  };
}

/**
 * `node invoke.mjs <event.json> <result.json> <timeout ms>`: imports the handler (Lambda's init
 * phase), then calls it once with a context whose deadline is the function's timeout, and writes
 * the timings and what the handler returned or threw. The result goes to a file because the
 * handler's own logs own stdout and stderr.
 */
const INVOKE = `import { readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
const [eventPath, resultPath, timeoutMs] = process.argv.slice(2);
// Read asynchronously: it starts libuv's thread pool now, so the thread count below sees only threads the handler starts.
const event = JSON.parse(await readFile(eventPath, 'utf8'));
// The main thread's time on a CPU and runnable but waiting for one (ns): a busy machine's share of the wall.
const sched = () => { try { const [run, wait] = readFileSync('/proc/self/schedstat', 'utf8').split(' ').map(Number); return { run, wait }; } catch { return { run: NaN, wait: NaN }; } };
const threads = () => Number(/Threads:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN);
const peak = { heap_used_mb: 0, external_mb: 0, array_buffers_mb: 0, os_threads: 0 };
const sample = () => {
  const m = process.memoryUsage();
  peak.heap_used_mb = Math.max(peak.heap_used_mb, m.heapUsed / 1048576);
  peak.external_mb = Math.max(peak.external_mb, m.external / 1048576);
  peak.array_buffers_mb = Math.max(peak.array_buffers_mb, m.arrayBuffers / 1048576);
  peak.os_threads = Math.max(peak.os_threads, threads());
};
const started = performance.now();
const bundle = await import('./index.mjs');
const imported = performance.now();
// How many threads the handler means to check with (its own rule), where it has one.
const checkThreads = typeof bundle.checkThreads === 'function' ? bundle.checkThreads(process.env) : 1;
const deadline = Date.now() + Number(timeoutMs);
const context = { functionName: 'contract-gate-bench-validate', awsRequestId: 'bench', getRemainingTimeInMillis: () => deadline - Date.now() };
const threadsBefore = threads();
const sampler = setInterval(sample, 50);
const before = sched();
let result = null, error = null;
try { result = (await bundle.handler(event, context)) ?? null; } catch (e) { error = String(e && e.stack || e); }
const handled = performance.now();
const after = sched();
clearInterval(sampler);
sample();
// The kernel's high-water mark of this process's own pages. Not getrusage's maxRSS (report-peak-rss.mjs):
// a child forked from a parent holding a partition's bytes inherits the parent's resident size there.
const hwmMb = Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) / 1024;
const cpu = process.cpuUsage();
writeFileSync(resultPath, JSON.stringify({
  peak_rss_mb: hwmMb, cpu_ms: (cpu.user + cpu.system) / 1000, init_ms: imported - started, handler_ms: handled - imported, on_cpu_ms: (after.run - before.run) / 1e6, queued_ms: (after.wait - before.wait) / 1e6,
  memory: peak, check_threads: checkThreads, threads_started: peak.os_threads - threadsBefore, result, error,
}));
// Keep-alive sockets would hold the process open; Lambda freezes it instead.
process.exit(0);
`;
