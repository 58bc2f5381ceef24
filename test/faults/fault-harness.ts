import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contractRegistry } from '../../lib/gate/contract-registry.js';
import { processMarker } from '../../lib/gate/process-marker.js';
import { startS3Emulator } from '../../lib/local/s3-emulator.js';
import { ordersContract } from '../fixtures/gate-fixture.js';
import { runPairSeed } from './pair-run.js';
import { closeHandlerSockets, handlerStore } from './fault-client.js';
import { NO_FAULTS } from './fault-plan.js';
import { runSeed, type HarnessEnv, type RunReport } from './fault-run.js';
import { stageDrop, type DropKind } from './five-file-drop.js';
import { HandlerLife } from './handler-life.js';
import { NoticeLog } from './notice-log.js';
import type { MutationCounts } from './scenarios.js';
import { seededRng } from './seeded-rng.js';

/** orders v1, and a v2 for the linked pairs (v1 renumbered: the same files pass or fail alike). */
const CONTRACTS = [ordersContract(), ordersContract((yaml) => yaml.replace('version: 1.2.0', 'version: 2.0.0'), 'orders.v2.yaml')];

export interface HarnessOptions {
  readonly seeds: readonly number[];
  /** Seeds run at once: the emulator is one process, so a few keep it and this one busy. */
  readonly parallel: number;
  readonly checkpointChance: number;
  /** Linked v1/v2 pairs (pair-run.ts) instead of single drops. */
  readonly pairs?: boolean;
  readonly onRun?: (report: RunReport, done: number) => void;
}

/**
 * Reads the harness's knobs from the environment, so a failing seed is replayed from the shell:
 * FAULT_SEEDS (how many), FAULT_FIRST_SEED, FAULT_PARALLEL (seeds at once per emulator),
 * FAULT_WORKERS (processes, each with an emulator), FAULT_CHECKPOINTS (chance per mutation),
 * FAULT_PAIRS=1 (linked v1/v2 pair trials instead of single drops).
 */
export function optionsFromEnv(defaults: { seeds: number; workers: number }): HarnessOptions & { workers: number } {
  const number = (name: string, fallback: number) => (process.env[name] === undefined ? fallback : Number(process.env[name]));
  const first = number('FAULT_FIRST_SEED', 0);
  const seeds = Array.from({ length: number('FAULT_SEEDS', defaults.seeds) }, (_, i) => first + i);
  const pairs = process.env.FAULT_PAIRS === '1';
  return { seeds, parallel: number('FAULT_PARALLEL', 3), checkpointChance: number('FAULT_CHECKPOINTS', 0.25), workers: number('FAULT_WORKERS', defaults.workers), ...(pairs ? { pairs } : {}) };
}

export interface HarnessResult {
  readonly reports: RunReport[];
  /** The crash sweeps' range: mutating calls of a fault-free publish and quarantine. */
  readonly counts: MutationCounts;
}

/** Starts a local S3 endpoint, runs every seed against it, and stops it again. */
export async function runFaultHarness(options: HarnessOptions): Promise<HarnessResult> {
  const dir = mkdtempSync(join(process.env.FAULT_DIR ?? scratchRoot(), 'cg-faults-'));
  const emulator = await startS3Emulator({ dir, buckets: ['lake'] });
  try {
    const base = { endpoint: emulator.endpoint, bucket: 'lake', contracts: contractRegistry(CONTRACTS), checkpointChance: options.checkpointChance };
    const store = handlerStore(base.endpoint, base.bucket, { plan: NO_FAULTS, rng: seededRng(0), life: new HandlerLife('harness') });
    const counts = await mutationCounts({ ...base, store });
    const env: HarnessEnv = { ...base, store, counts, ...(options.pairs ? { pairCounts: await pairMutationCounts({ ...base, store }) } : {}) };
    return { reports: await runPool(env, options), counts: env.pairCounts ?? env.counts };
  } finally {
    await emulator.stop();
    closeHandlerSockets();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runPool(env: HarnessEnv, options: HarnessOptions): Promise<RunReport[]> {
  const reports: RunReport[] = [];
  const queue = [...options.seeds];
  const worker = async () => {
    for (let seed = queue.shift(); seed !== undefined; seed = queue.shift()) {
      const report = options.pairs ? await runPairSeed(env, seed) : await runSeed(env, seed);
      reports.push(report);
      options.onRun?.(report, reports.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.parallel) }, worker));
  return reports.sort((a, b) => a.seed - b.seed);
}

/** Counts the mutating requests of a fault-free publish and quarantine: the crash sweeps' range. */
async function mutationCounts(env: Omit<HarnessEnv, 'counts'>): Promise<MutationCounts> {
  const count = async (kind: DropKind, partition: string) => {
    const drop = await stageDrop(env.store, kind, partition, false);
    const life = new HandlerLife(`baseline ${kind}`);
    const store = handlerStore(env.endpoint, env.bucket, { plan: NO_FAULTS, rng: seededRng(1), life });
    await processMarker({ store, notifier: new NoticeLog().notifierFor(life), contracts: env.contracts, clock: life.clock }, drop.marker);
    return life.mutations;
  };
  return { good: await count('good', 'dt=2099-12-30'), bad: await count('bad', 'dt=2099-12-31') };
}

/** The same for a linked pair: one handler settles both sides (a good pair, and one whose v2 fails). */
async function pairMutationCounts(env: Omit<HarnessEnv, 'counts'>): Promise<MutationCounts> {
  const count = async (v2: DropKind, partition: string) => {
    await stageDrop(env.store, 'good', partition, true, { major: 1, sibling: 2 });
    const drop = await stageDrop(env.store, v2, partition, true, { major: 2, sibling: 1 });
    const life = new HandlerLife(`baseline pair ${v2}`);
    const store = handlerStore(env.endpoint, env.bucket, { plan: NO_FAULTS, rng: seededRng(1), life });
    await processMarker({ store, notifier: new NoticeLog().notifierFor(life), contracts: env.contracts, clock: life.clock }, drop.marker);
    return life.mutations;
  };
  return { good: await count('good', 'dt=2099-12-28'), bad: await count('bad', 'dt=2099-12-29') };
}

/** s3rver keeps every object as three small files; in memory (tmpfs) the emulator is much faster. */
function scratchRoot(): string {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}
