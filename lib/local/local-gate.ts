import { join } from 'node:path';
import { describeError } from '../errors.js';
import { DEFAULT_LAYOUT, isMarkerShaped, type GateLayout } from '../gate/gate-layout.js';
import { handleStorageEvent, type EventOutcome } from '../gate/handle-event.js';
import type { MarkerResult } from '../gate/process-marker.js';
import { localNotifier } from '../notify/local-notifier.js';
import { loadContractDirectory } from '../storage/contract-directory.js';
import { createS3Client } from '../storage/s3-client.js';
import { s3ObjectStore } from '../storage/s3-object-store.js';
import type { ObjectStore } from '../storage/object-store.js';
import type { ObjectCreatedEvent } from './emulator-protocol.js';
import { startS3Emulator } from './s3-emulator.js';
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
}

export interface LocalGate {
  readonly endpoint: string;
  readonly bucket: string;
  /** A store on the local endpoint, as any S3 client would see it. */
  readonly store: ObjectStore;
  /** Resolves when every marker event received so far has been handled. */
  settled(): Promise<void>;
  /** Runs the gate on an event, as if Lambda had been invoked with it (for replays and tests). */
  deliver(event: unknown): Promise<EventOutcome>;
  readonly outcomes: readonly EventOutcome[];
  stop(): Promise<void>;
}

/**
 * The whole gate without an AWS account: an S3-compatible endpoint on 127.0.0.1 whose
 * object-created events for `_READY` markers under `staging/` run the same handler as the
 * Lambda, with notifications written to `<dir>/notifications.jsonl`.
 */
export async function startLocalGate(options: LocalGateOptions): Promise<LocalGate> {
  const layout = options.layout ?? DEFAULT_LAYOUT;
  const contracts = await loadContractDirectory(options.contractsDir);
  const notifier = localNotifier({ file: join(options.dir, 'notifications.jsonl'), print: options.print });
  const inFlight = new Set<Promise<void>>();
  const outcomes: EventOutcome[] = [];
  // Set once the endpoint is up: no marker can arrive before anyone knows where to drop it.
  let deps: Parameters<typeof handleStorageEvent>[0] | undefined;
  const onObjectCreated = (event: ObjectCreatedEvent) => {
    // Same filter as the deployed bucket notification: staging/ prefix, marker suffix.
    if (!deps || !isMarkerShaped(layout, event.key)) return;
    const run = handle(deps, event, options.print).then((outcome) => void outcomes.push(outcome));
    inFlight.add(run);
    void run.finally(() => inFlight.delete(run));
  };
  const emulator = await startS3Emulator({ dir: join(options.dir, 'buckets'), buckets: [options.bucket], port: options.port ?? 4566, onObjectCreated });
  const store = s3ObjectStore({ client: createS3Client({ endpoint: emulator.endpoint }), bucket: options.bucket });
  const ready = { store, notifier, contracts, clock: options.clock ?? Date.now, layout, bucket: options.bucket };
  deps = ready;
  const probe = scheduleProbe({ store, notifier, contracts, layout }, ready.clock, options.probeEveryMs ?? 60_000, options.print);
  return {
    endpoint: emulator.endpoint,
    bucket: options.bucket,
    store,
    outcomes,
    deliver: (event) => handleStorageEvent(ready, event),
    async settled() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async stop() {
      probe.stop();
      await Promise.allSettled([...inFlight]);
      await emulator.stop();
    },
  };
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
  if (everyMs <= 0) return { stop: () => {} };
  const timer = setInterval(() => {
    runProbe({ ...deps, now: clock() })
      .then((report) => report.partitions.filter((p) => p.sent.length > 0).forEach((p) => print(`probe: ${p.contract} ${p.version} ${p.partition}: ${p.status} (${p.sent.join(', ')}): ${p.detail}`)))
      .catch((error: unknown) => print(`probe: FAILED: ${describeError(error)}`));
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

export function verdictLine(result: MarkerResult): string {
  if (!('decision' in result)) return `gate: ${result.key}: ${result.status.replace(/_/g, ' ')} (${result.reason})`;
  const { decision } = result;
  return `gate: ${decision.address.dataset} v${decision.address.major} ${decision.address.partition}: ${result.status.toUpperCase()} (${decision.report.summary}), attempt ${decision.attempt}`;
}
