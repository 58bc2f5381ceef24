import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ObjectCreatedEvent } from '../lib/local/emulator-protocol.js';
import { startS3Emulator } from '../lib/local/s3-emulator.js';
import { createS3Client } from '../lib/storage/s3-client.js';
import type { Variant } from './lambda-data.js';
import { BUCKET, outcomeProblems, sqsEvent, stageDrop, STAGING, type HandlerResult } from './lambda-outcome.js';
import { requestPhases, startRecordingProxy } from './lambda-proxy.js';

/**
 * One invocation of the bundled validate function, in a child process pinned to `cpus`, with the
 * heap flags Lambda's runtime derives from the memory setting, against a fresh local S3 endpoint
 * holding one staged drop. The handler's logs are kept, and shown only when it went wrong.
 */
export interface InvokeSpec {
  readonly bundleDir: string;
  readonly variant: Variant;
  readonly rows: number;
  readonly file: { readonly path: string; readonly bytes: number };
  /** taskset's CPU list ("0", "0,1"); undefined runs unpinned. */
  readonly cpus: string | undefined;
  readonly memoryMb: number;
  readonly timeoutMs: number;
  readonly sns: { readonly endpoint: string; readonly published: URLSearchParams[] };
}

export interface Invocation extends Omit<HandlerResult, 'result' | 'error'> {
  readonly variant: Variant;
  readonly rows: number;
  readonly bytes: number;
  readonly cpus: string;
  readonly memory_mb: number;
  readonly process_ms: number;
  readonly phases: ReturnType<typeof requestPhases>;
  readonly problems: string[];
}

/**
 * As the Lambda Node.js runtime's bootstrap sets them from AWS_LAMBDA_FUNCTION_MEMORY_SIZE: a
 * tenth of the memory for the young generation (half of it per semi-space), the rest for the old
 * one. The deployment itself adds no NODE_OPTIONS (gate-function.ts: no source maps to enable).
 */
export function heapFlags(memoryMb: number): string[] {
  const newSpace = Math.floor(memoryMb / 10);
  return ['--expose-gc', '--max-http-header-size=81920', `--max-semi-space-size=${Math.floor(newSpace / 2)}`, `--max-old-space-size=${memoryMb - newSpace}`];
}

export async function invokeOnce(spec: InvokeSpec): Promise<Invocation> {
  const dir = mkdtempSync(join(tmpdir(), 'cg-lambda-s3-'));
  let markerCreated!: (event: ObjectCreatedEvent) => void;
  const created = new Promise<ObjectCreatedEvent>((resolveEvent) => (markerCreated = resolveEvent));
  const emulator = await startS3Emulator({ dir, buckets: [BUCKET], onObjectCreated: (e) => e.key === `${STAGING}_READY` && markerCreated(e) });
  const proxy = await startRecordingProxy(emulator.endpoint);
  const client = createS3Client({ endpoint: emulator.endpoint });
  try {
    const event = sqsEvent(await stageDrop(client, spec.file.path, created));
    writeFileSync(join(dir, 'event.json'), JSON.stringify(event));
    const noticesBefore = spec.sns.published.length;
    const child = await runHandler(spec, proxy.endpoint, dir);
    const handled = readResult(join(dir, 'result.json'), child);
    const problems = await outcomeProblems(client, spec.variant, spec.rows, handled, spec.sns.published.slice(noticesBefore));
    if (problems.length > 0) process.stderr.write(`handler output (${spec.variant}, ${spec.rows} rows, cpus ${spec.cpus ?? 'all'}):\n${child.output}\n`);
    return {
      variant: spec.variant, rows: spec.rows, bytes: spec.file.bytes, cpus: spec.cpus ?? 'unpinned', memory_mb: spec.memoryMb,
      init_ms: handled.init_ms, handler_ms: handled.handler_ms, on_cpu_ms: handled.on_cpu_ms, queued_ms: handled.queued_ms, memory: handled.memory,
      check_threads: handled.check_threads, threads_started: handled.threads_started,
      peak_rss_mb: handled.peak_rss_mb, cpu_ms: handled.cpu_ms, process_ms: child.wallMs, phases: requestPhases(proxy.requests, STAGING), problems,
    };
  } finally {
    client.destroy();
    await proxy.stop();
    await emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface ChildRun { readonly status: number | null; readonly wallMs: number; readonly output: string }

/** Asynchronous, not spawnSync: the loopback SNS endpoint and the proxy live in this process's event loop. */
function runHandler(spec: InvokeSpec, endpoint: string, dir: string): Promise<ChildRun> {
  const node = [process.execPath, ...heapFlags(spec.memoryMb), 'invoke.mjs', join(dir, 'event.json'), join(dir, 'result.json'), String(spec.timeoutMs)];
  const [command, ...args] = spec.cpus === undefined ? node : ['taskset', '-c', spec.cpus, ...node];
  const env = {
    ...passedThrough(),
    PATH: process.env.PATH ?? '', AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(spec.memoryMb),
    GATE_BUCKET: BUCKET, GATE_TOPIC_ARN: 'arn:aws:sns:eu-west-1:000000000000:contract-gate-bench', AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'AKIDBENCH', AWS_SECRET_ACCESS_KEY: 'bench', AWS_EC2_METADATA_DISABLED: 'true',
    AWS_ENDPOINT_URL_S3: endpoint, AWS_ENDPOINT_URL_SNS: spec.sns.endpoint,
  };
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(command!, args, { cwd: spec.bundleDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    // The end of what the handler printed is what explains a failure; the rest is dropped.
    const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-64 * 1024));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), spec.timeoutMs + 30_000);
    child.on('error', fail);
    child.on('close', (status) => {
      clearTimeout(timer);
      done({ status, wallMs: performance.now() - started, output });
    });
  });
}

/** The handler's tuning knobs (GATE_CHECK_THREADS, ...) and glibc's (MALLOC_*) reach it from the bench's environment. */
function passedThrough(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => /^(GATE_|MALLOC_)/.test(e[0]) && e[1] !== undefined));
}

function readResult(path: string, child: ChildRun): HandlerResult {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as HandlerResult;
  } catch {
    const none = { heap_used_mb: NaN, external_mb: NaN, array_buffers_mb: NaN, os_threads: NaN };
    return { peak_rss_mb: NaN, cpu_ms: NaN, init_ms: NaN, handler_ms: NaN, on_cpu_ms: NaN, queued_ms: NaN, memory: none, check_threads: NaN, threads_started: NaN, result: null, error: `no result: the process exited ${child.status} (killed past the timeout, or out of memory?)` };
  }
}
