import type { ContractSource } from '../../lib/gate/contract-registry.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { BucketObserver } from './bucket-observer.js';
import { NO_FAULTS, type FaultPlan } from './fault-plan.js';
import { checkFinalState } from './final-state.js';
import { stageDrop, type StagedDrop } from './five-file-drop.js';
import { deliver, type Delivery, type RunContext, type RunStats } from './handler-run.js';
import { NoticeLog } from './notice-log.js';
import { scenarioFor, type MutationCounts, type PlannedDrop } from './scenarios.js';
import { seededRng, type Rng } from './seeded-rng.js';
import { startSuccessReader } from './success-reader.js';
import { Violations, type Violation } from './violations.js';

/** Redeliveries after the scenario's own deliveries; the last is fault-free, so a correct gate always ends. */
export const MAX_REDELIVERIES = 6;

/**
 * A redelivery comes after the queue's visibility timeout (at least the function's timeout, at
 * most 15 minutes on Lambda), so a gate that leases its claims to a handler may take them over.
 */
const REDELIVERY_GAP_MS = 20 * 60_000;

export interface HarnessEnv {
  readonly endpoint: string;
  readonly bucket: string;
  readonly contracts: ContractSource;
  readonly counts: MutationCounts;
  /** The same for a linked pair settled by one handler (pair trials only). */
  readonly pairCounts?: MutationCounts;
  /** The harness's own view of the bucket: fault-free, used to stage, observe and check. */
  readonly store: ObjectStore;
  readonly checkpointChance: number;
}

export interface RunReport {
  readonly seed: number;
  readonly scenario: string;
  readonly violations: readonly Violation[];
  readonly stats: RunStats;
  readonly ms: number;
}

/** One seed: stage its drops, run its scenario with a reader polling, redeliver, check every invariant. */
export async function runSeed(env: HarnessEnv, seed: number): Promise<RunReport> {
  const started = Date.now();
  const { scenario, run } = scenarioFor(seed);
  const rng = seededRng(seed);
  const planned = scenario.plan(rng.fork(0), run, env.counts);
  const drops: StagedDrop[] = [];
  for (const [i, drop] of planned.entries()) drops.push(await stageDrop(env.store, drop.kind, partitionFor(seed, i), drop.manifest));
  const ctx = runContext(env, drops, rng.fork(1));
  const reader = startSuccessReader(env.store, drops, ctx.violations);
  try {
    await Promise.all(drops.map((drop, i) => deliverAll(ctx, drop, (planned[i] as PlannedDrop).deliveries, scenario.sequential)));
    for (const drop of drops) await ctx.observerFor(drop).checkpoint();
    await Promise.all(drops.map((drop) => converge(ctx, drop, scenario.redelivery)));
  } finally {
    await reader.stop();
  }
  for (const drop of drops) await checkFinalState(env.store, drop, ctx.notices, ctx.violations);
  return { seed, scenario: scenario.name, violations: ctx.violations.list, stats: ctx.stats, ms: Date.now() - started };
}

/** What a run's handlers share: the notices sent, the violations found, an observer per drop. */
export function runContext(env: HarnessEnv, drops: readonly StagedDrop[], rng: Rng): RunContext {
  const violations = new Violations();
  const observers = new Map(drops.map((drop) => [drop, new BucketObserver(env.store, drop, violations)]));
  const handled = new Map<StagedDrop, number>();
  const nextHandler = (drop: StagedDrop) => {
    handled.set(drop, (handled.get(drop) ?? 0) + 1);
    return drops.indexOf(drop) * 1_000 + handled.get(drop)!;
  };
  const handlersOf = (drop: StagedDrop) => handled.get(drop) ?? 0;
  return { ...env, notices: new NoticeLog(), violations, rng, observerFor: (drop) => observers.get(drop)!, nextHandler, handlersOf, stats: { handlers: 0, faults: 0, failed: 0 } };
}

export async function deliverAll(ctx: RunContext, drop: StagedDrop, deliveries: readonly Delivery[], sequential: boolean): Promise<void> {
  if (!sequential) return void (await Promise.all(deliveries.map((d) => deliver(ctx, drop, d))));
  for (const delivery of deliveries) await deliver(ctx, drop, delivery);
}

/** Delivers again until a handler gets to the end; bounded, the last try without faults. */
export async function converge(ctx: RunContext, drop: StagedDrop, faults: FaultPlan): Promise<void> {
  for (let attempt = 1; attempt <= MAX_REDELIVERIES; attempt++) {
    const plan = attempt === MAX_REDELIVERIES ? NO_FAULTS : faults;
    if (await deliver(ctx, drop, { plan, via: 'marker', startDelayMs: 0, laterMs: attempt * REDELIVERY_GAP_MS })) return;
  }
  ctx.violations.add('converged', `${drop.partition}: ${MAX_REDELIVERIES} redeliveries, none finished`);
}

/** A partition of its own for every drop of every seed: one day each from 2100-01-01, due after the data was written (a past day would be judged as of its own due time). */
export function partitionFor(seed: number, index: number): string {
  const day = new Date(Date.UTC(2100, 0, 1) + (seed * 4 + index) * 86_400_000);
  return `dt=${day.toISOString().slice(0, 10)}`;
}
