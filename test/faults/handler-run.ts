import { describeError, GateError } from '../../lib/errors.js';
import type { ContractSource } from '../../lib/gate/contract-registry.js';
import { CALL_MARGIN_MS } from '../../lib/gate/deadline-store.js';
import { handleStorageEvent } from '../../lib/gate/handle-event.js';
import { processMarker, type GateDeps } from '../../lib/gate/process-marker.js';
import { NOW } from '../fixtures/gate-fixture.js';
import type { BucketObserver } from './bucket-observer.js';
import { handlerStore } from './fault-client.js';
import type { FaultPlan } from './fault-plan.js';
import type { StagedDrop } from './five-file-drop.js';
import { HandlerLife } from './handler-life.js';
import { Crash, isInjected } from './injected-faults.js';
import type { NoticeLog } from './notice-log.js';
import type { Rng } from './seeded-rng.js';
import { markerEvent } from './storage-event.js';
import type { Violations } from './violations.js';

/** One delivery of a drop's marker to a fresh handler. */
export interface Delivery {
  readonly plan: FaultPlan;
  /** processMarker directly, or the event Lambda receives (an S3 notification, or one inside SQS). */
  readonly via: 'marker' | 's3-event' | 'sqs-event';
  readonly startDelayMs: number;
  /** How long after the first delivery this one starts, on the handlers' (virtual) clock. */
  readonly laterMs?: number;
  /** The handler must stop budgetMs of virtual time past the gate's call margin; the clock moves tickMs a request. */
  readonly deadline?: { readonly budgetMs: number; readonly tickMs: number };
}

export interface RunStats {
  handlers: number;
  /** Injected faults (crashes, error responses, resets) and deadline stops. */
  faults: number;
  /** Handlers that ended with an error instead of carrying the drop out. */
  failed: number;
}

export interface RunContext {
  readonly endpoint: string;
  readonly bucket: string;
  readonly contracts: ContractSource;
  readonly notices: NoticeLog;
  observerFor(drop: StagedDrop): Pick<BucketObserver, 'checkpoint'>;
  /** What the run's handlers met, for the table: that faults really fired is worth seeing. */
  readonly stats: RunStats;
  /** A number for the drop's next handler, the same on every replay of the seed: its faults derive from it. */
  nextHandler(drop: StagedDrop): number;
  /** How many handlers the drop has had so far in this run. */
  handlersOf(drop: StagedDrop): number;
  readonly violations: Violations;
  /** Chance of a bucket checkpoint after each applied mutating request. */
  readonly checkpointChance: number;
  readonly rng: Rng;
}

/** Runs one delivery; true when the handler carried the drop out (or found it already done). */
export async function deliver(ctx: RunContext, drop: StagedDrop, delivery: Delivery): Promise<boolean> {
  const { life, deps } = startHandler(ctx, drop, delivery);
  await new Promise((resolve) => setTimeout(resolve, delivery.startDelayMs));
  const done = delivery.via === 'marker' ? await viaMarker(ctx, drop, deps, life) : await viaEvent(ctx, drop, deps, life, delivery.via);
  ctx.stats.handlers += 1;
  ctx.stats.faults += life.injected + (life.dead ? 1 : 0) + (life.pastDeadline ? 1 : 0);
  ctx.stats.failed += done ? 0 : 1;
  if (life.lateStarts > 0) ctx.violations.add('clean-failure', `${life.id} started ${life.lateStarts} storage call(s) with less than ${CALL_MARGIN_MS} ms before its deadline`);
  return done;
}

/** A fresh handler, as a new Lambda invocation: its own client, faults, clock, deadline and notifier. */
function startHandler(ctx: RunContext, drop: StagedDrop, delivery: Delivery): { life: HandlerLife; deps: GateDeps } {
  const index = ctx.nextHandler(drop);
  const { deadline } = delivery;
  const life = new HandlerLife(`handler ${index} (${drop.partition})`, deadline && NOW + CALL_MARGIN_MS + deadline.budgetMs, deadline?.tickMs, delivery.laterMs);
  // Checkpoints draw from a stream of their own, so their rate does not shift the faults.
  const sampling = ctx.rng.fork(-index);
  const afterMutation = () => (sampling.chance(ctx.checkpointChance) ? ctx.observerFor(drop).checkpoint() : Promise.resolve());
  const store = handlerStore(ctx.endpoint, ctx.bucket, { plan: delivery.plan, rng: ctx.rng.fork(index), life, hooks: { afterMutation } });
  const deps: GateDeps = { store, notifier: ctx.notices.notifierFor(life), contracts: ctx.contracts, clock: life.clock };
  return { life, deps: life.deadline === undefined ? deps : { ...deps, deadline: life.deadline } };
}

async function viaMarker(ctx: RunContext, drop: StagedDrop, deps: GateDeps, life: HandlerLife): Promise<boolean> {
  try {
    await processMarker(deps, drop.marker);
    return true;
  } catch (error) {
    if (!isCleanFailure(error, life, ctx.handlersOf(drop) > 1)) ctx.violations.add('clean-failure', `${life.id} failed without an injected cause: ${causeChain(error)}`);
    return false;
  }
}

/** The event path reports failures as text; a failure is clean when this handler met a fault, its deadline or another handler. */
async function viaEvent(ctx: RunContext, drop: StagedDrop, deps: GateDeps, life: HandlerLife, via: 's3-event' | 'sqs-event'): Promise<boolean> {
  const event = markerEvent(ctx.bucket, drop, via === 'sqs-event' ? `msg-${life.id}` : undefined);
  const outcome = await handleStorageEvent({ ...deps, bucket: ctx.bucket }, event);
  for (const failure of outcome.failures) {
    if (!(life.dead || life.injected > 0 || life.pastDeadline || ctx.handlersOf(drop) > 1)) ctx.violations.add('clean-failure', `${life.id} failed without a cause: ${failure.error}`);
    // An SQS message not reported back is deleted: nothing would ever deliver this drop again.
    if (via === 'sqs-event' && !outcome.batchItemFailures.some((f) => f.itemIdentifier === failure.messageId)) ctx.violations.add('clean-failure', `${life.id}: the failed message is not in batchItemFailures`);
  }
  return outcome.failures.length === 0 && outcome.results.length > 0;
}

/**
 * Clean: the deadline's retryable stop, an error caused by an injected fault, or a failed
 * precondition or a busy partition when the drop has had other handlers (its protocol's "someone else's state";
 * a lone handler meeting no fault should never see one).
 */
function isCleanFailure(error: unknown, life: HandlerLife, contended: boolean): boolean {
  if (error instanceof GateError && error.code === 'deadline') return life.deadline !== undefined;
  if (error instanceof GateError && error.code === 'precondition_failed' && contended) return true;
  // Another handler held the partition's lease past the wait (a linked pair's handlers share two leases): retried.
  if (error instanceof GateError && error.code === 'partition_busy' && contended) return true;
  return (error instanceof GateError || error instanceof Crash) && isInjected(error);
}

function causeChain(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e !== undefined && parts.length < 6; e = (e as { cause?: unknown }).cause) {
    parts.push(e instanceof GateError ? `GateError(${e.code}): ${e.message}` : describeError(e));
  }
  return parts.join(' <- ');
}
