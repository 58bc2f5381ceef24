import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { LoadOptions } from '../contract/contract-defaults.js';
import { describeError, GateError } from '../errors.js';
import { DEFAULT_LAYOUT, isMarkerShaped, type GateLayout } from '../gate/gate-layout.js';
import { handleStorageEvent, type EventOutcome } from '../gate/handle-event.js';
import type { LeaseSettings } from '../gate/partition-lease.js';
import type { MarkerResult } from '../gate/process-marker.js';
import { localNotifier } from '../notify/local-notifier.js';
import { readContractPaths } from '../storage/contract-paths.js';
import { formatRegistration } from '../registry/format-registration.js';
import { registerContracts } from '../registry/register-contract.js';
import { registryContracts, type RegistryProblem } from '../registry/registry-contracts.js';
import { registryPager } from '../registry/registry-pager.js';
import { createS3Client } from '../storage/s3-client.js';
import { s3ObjectStore } from '../storage/s3-object-store.js';
import type { ObjectStore } from '../storage/object-store.js';
import { gatePages } from '../status/gate-pages.js';
import type { ObjectCreatedEvent, PageResponse } from './emulator-protocol.js';
import { startS3Emulator } from './s3-emulator.js';
import { lockServeDir } from './serve-lock.js';
import { threadedObjectChecks } from '../parallel/threaded-object-checks.js';
import { prestartCheckWorkers } from '../parallel/worker-pool.js';
import { s3Notification } from './s3-notification.js';
import { runProbe, type ProbeDeps } from '../sla/probe.js';

export interface LocalGateOptions {
  readonly dir: string;
  readonly contractsDir: string;
  readonly bucket: string;
  readonly port?: number;
  readonly layout?: GateLayout;
  readonly clock?: () => number;
  /** Where verdict lines go (stdout for `serve`). */
  readonly print: (line: string) => void;
  /** How often the SLA probe runs; 0 turns it off. @default 60_000 */
  readonly probeEveryMs?: number;
  /** How often staging is searched for markers no handler finished (SQS's redelivery, locally); 0 turns it off. @default 30_000 */
  readonly resumeEveryMs?: number;
  /** Defaults for what contracts leave out (`serve --default-notify`); each use is printed as a warning. */
  readonly loadOptions?: LoadOptions;
}

export interface LocalGate {
  readonly endpoint: string;
  readonly bucket: string;
  /** A store on the local endpoint, as any S3 client would see it. */
  readonly store: ObjectStore;
  /** Resolves when every marker event received so far has been handled. */
  settled(): Promise<void>;
  /** Handles every marker left in staging that no handler is on, as start-up does. */
  resume(): Promise<void>;
  /** Runs the gate on an event, as if Lambda had been invoked with it (for replays and tests). */
  deliver(event: unknown): Promise<EventOutcome>;
  readonly outcomes: readonly EventOutcome[];
  stop(): Promise<void>;
}

/**
 * The whole gate without an AWS account: an S3-compatible endpoint on 127.0.0.1 whose
 * object-created events for `_READY` markers under `staging/` run the same handler as the
 * Lambda, with notifications written to `<dir>/notifications.jsonl`, and whose `/_gate/` is the
 * lake's status page.
 */
export async function startLocalGate(options: LocalGateOptions): Promise<LocalGate> {
  const layout = options.layout ?? DEFAULT_LAYOUT;
  // Warnings are shown only with defaults: then they say which settings came from outside the files.
  const files = await readContractPaths([options.contractsDir]);
  const lock = await lockServeDir(options.dir);
  const notifier = localNotifier({ file: join(options.dir, 'notifications.jsonl'), print: options.print });
  const running = new Set<{ readonly key: string; readonly done: Promise<void> }>();
  const failed = new Map<string, ObjectCreatedEvent>();
  const outcomes: EventOutcome[] = [];
  // Set once the endpoint is up: no marker can arrive before anyone knows where to drop it.
  let deps: Parameters<typeof handleStorageEvent>[0] | undefined;
  const run = (event: ObjectCreatedEvent) => {
    if (!deps) return;
    const entry = { key: event.key, done: handle(deps, event, options.print).then((outcome) => {
      outcomes.push(outcome);
      if (outcome.failures.length > 0) failed.set(event.key, event);
    }) };
    running.add(entry);
    void entry.done.finally(() => running.delete(entry));
  };
  // Set with the registry, as deps is: until then a page says the gate is starting.
  let pages: ((url: string) => Promise<PageResponse>) | undefined;
  const onPage = (url: string): Promise<PageResponse> => pages?.(url) ?? Promise.resolve({ status: 503, contentType: 'text/plain; charset=utf-8', body: 'the gate is starting: try again in a moment\n' });
  const onObjectCreated = (event: ObjectCreatedEvent) => {
    // Same filter as the deployed bucket notification: staging/ prefix, marker suffix.
    if (isMarkerShaped(layout, event.key)) run(event);
  };
  const emulator = await startS3Emulator({ dir: join(options.dir, 'buckets'), buckets: [options.bucket], port: options.port ?? 4566, onObjectCreated, onPage }).catch(async (error: unknown) => {
    await lock.release();
    throw error;
  });
  const store = s3ObjectStore({ client: createS3Client({ endpoint: emulator.endpoint }), bucket: options.bucket });
  const contracts = await publishDirectory(store, files, options, registryPager({ store, notifier, layout, ...(options.clock ? { clock: options.clock } : {}) })).catch(async (error: unknown) => {
    await emulator.stop();
    await lock.release();
    throw error;
  });
  // As the deployed gate checks: big partitions with every core, the workers kept warm between drops.
  const threads = availableParallelism();
  prestartCheckWorkers(threads - 1);
  const checks = threadedObjectChecks({ bucket: options.bucket, endpoint: emulator.endpoint }, threads);
  const ready = { store, notifier, contracts, clock: options.clock ?? Date.now, layout, bucket: options.bucket, lease: serveLease(), checks };
  deps = ready;
  pages = gatePages({ store, layout, clock: ready.clock, contracts: async () => (await contracts.current()).all() });
  const resume = async () => {
    const busy = new Set([...running].map((entry) => entry.key));
    // A failed delivery is delivered again even when its marker is gone: a decision may be left to finish.
    const again = new Map([...failed, ...(await leftMarkers(store, layout, options.bucket)).map((event) => [event.key, event] as const)]);
    failed.clear();
    for (const event of again.values()) if (!busy.has(event.key)) run(event);
  };
  await resume().catch((error: unknown) => options.print(`gate: cannot search staging for interrupted drops: ${describeError(error)}`));
  const timers = [
    scheduleProbe({ store, notifier, contracts, layout }, ready.clock, options.probeEveryMs ?? 60_000, options.print),
    every(options.resumeEveryMs ?? 30_000, () => resume().catch((error: unknown) => options.print(`gate: resume: FAILED: ${describeError(error)}`))),
  ];
  return {
    endpoint: emulator.endpoint,
    bucket: options.bucket,
    store,
    outcomes,
    deliver: (event) => handleStorageEvent(ready, event),
    async settled() {
      while (running.size > 0) await Promise.allSettled([...running].map((entry) => entry.done));
    },
    resume,
    async stop() {
      for (const timer of timers) timer.stop();
      await Promise.allSettled([...running].map((entry) => entry.done));
      await emulator.stop();
      await lock.release();
    },
  };
}

/**
 * `--contracts DIR` is published into the local registry, as a producer's CI would publish it,
 * and the gate then reads the registry, looking again on every drop: a contract published while
 * `serve` runs is enforced on the next drop. A file the registry refuses stops the start.
 */
async function publishDirectory(store: ObjectStore, files: Awaited<ReturnType<typeof readContractPaths>>, options: LocalGateOptions, page: (problem: RegistryProblem) => Promise<void>) {
  const loadOptions = options.loadOptions ?? {};
  const outcomes = await registerContracts(store, files, { loadOptions, now: (options.clock ?? Date.now)(), by: 'serve --contracts' });
  const report = formatRegistration(outcomes).trimEnd();
  if (outcomes.some((o) => o.status === 'refused')) {
    throw new GateError('contract_invalid', `the local registry refused contracts in ${options.contractsDir}:\n${report}\n(bump the version, or start with an empty --dir)`, { context: { dir: options.contractsDir } });
  }
  for (const line of report.split('\n')) options.print(`registry: ${line}`);
  // Warnings are shown only with defaults: then they say which settings came from outside the files.
  if (loadOptions.defaults) for (const o of outcomes) for (const problem of o.problems) options.print(problem);
  return registryContracts(store, { loadOptions, refreshMs: 0, ...(options.clock ? { clock: options.clock } : {}), warn: options.print, page });
}

/**
 * This process's claim on the partitions it handles. The serve lock makes it the only gate on
 * its directory, so a lease another `serve` left is its dead predecessor's and is taken at once.
 */
function serveLease(): LeaseSettings {
  const holder = `serve-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  return { holder, ttlMs: 15 * 60_000, takeOver: (other) => other.startsWith('serve-') && other !== holder };
}

/** The markers in staging, as the events that would have announced them. */
async function leftMarkers(store: ObjectStore, layout: GateLayout, bucket: string): Promise<ObjectCreatedEvent[]> {
  const events: ObjectCreatedEvent[] = [];
  for await (const object of store.list(layout.staging)) {
    if (!isMarkerShaped(layout, object.key)) continue;
    events.push({ bucket, key: object.key, size: object.size, etag: object.etag, eventName: 'ObjectCreated:Put', eventTime: object.lastModified.toISOString() });
  }
  return events;
}

function every(ms: number, tick: () => Promise<unknown>): { stop(): void } {
  if (ms <= 0) return { stop: () => {} };
  const timer = setInterval(() => void tick(), ms);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

async function handle(deps: Parameters<typeof handleStorageEvent>[0], event: ObjectCreatedEvent, print: (line: string) => void): Promise<EventOutcome> {
  try {
    const outcome = await handleStorageEvent(deps, s3Notification(event));
    for (const result of outcome.results) print(verdictLine(result));
    for (const failure of outcome.failures) print(`gate: ${failure.key}: FAILED, will need a redelivery: ${failure.error}`);
    return outcome;
  } catch (error) {
    print(`gate: ${event.key}: FAILED: ${describeError(error)}`);
    return { results: [], failures: [{ key: event.key, error: describeError(error) }], ignored: [], batchItemFailures: [] };
  }
}

/** The SLA probe on a timer, as the deployed schedule runs it; prints only what it sends. */
function scheduleProbe(deps: Omit<ProbeDeps, 'now'>, clock: () => number, everyMs: number, print: (line: string) => void): { stop(): void } {
  return every(everyMs, () =>
    runProbe({ ...deps, now: clock() })
      .then((report) => report.partitions.filter((p) => p.sent.length > 0).forEach((p) => print(`probe: ${p.contract} ${p.version} ${p.partition}: ${p.status} (${p.sent.join(', ')}): ${p.detail}`)))
      .catch((error: unknown) => print(`probe: FAILED: ${describeError(error)}`)),
  );
}

export function verdictLine(result: MarkerResult): string {
  if (!('decision' in result)) return `gate: ${result.key}: ${result.status.replace(/_/g, ' ')} (${result.reason})`;
  const { decision } = result;
  return `gate: ${decision.address.dataset} v${decision.address.major} ${decision.address.partition}: ${result.status.toUpperCase()} (${decision.report.summary}), attempt ${decision.attempt}`;
}
