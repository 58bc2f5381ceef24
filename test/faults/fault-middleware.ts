import type { S3Client } from '@aws-sdk/client-s3';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultPlan } from './fault-plan.js';
import type { HandlerLife } from './handler-life.js';
import { connectionReset, Crash, errorResponse, type InjectedStatus } from './injected-faults.js';
import type { Rng } from './seeded-rng.js';

export interface FaultHooks {
  /** Runs after every applied mutating request, while the handler waits: a moment between two steps. */
  readonly afterMutation?: () => Promise<void>;
}

interface Call {
  readonly command: string;
  readonly method: string;
  readonly mutating: boolean;
  readonly conditional: boolean;
}

const MUTATING = new Set(['PutObjectCommand', 'CopyObjectCommand', 'DeleteObjectCommand']);

/**
 * Injects the plan's faults into every request of one client. It sits at the end of the
 * deserialize step, inside the SDK's retry loop and next to the wire: an injected 503 is a real
 * HTTP response the SDK parses and retries, and "after" faults happen once S3 has applied the request.
 */
export function attachFaults(client: S3Client, plan: FaultPlan, rng: Rng, life: HandlerLife, hooks: FaultHooks = {}): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const call = describeCall(context.commandName ?? '', args.request);
      const diesAfter = admit(call, plan, rng, life);
      const status = injectedStatus(plan, rng, call);
      if (status) {
        life.injected += 1;
        return { response: errorResponse(status, call.method) };
      }
      const result = await next(args);
      await afterSend(call, plan, rng, life, hooks, result.response, diesAfter);
      return result;
    },
    { step: 'deserialize', priority: 'low', name: 'faultInjection' },
  );
}

/** Lets a request go out, or kills the handler just before it; says whether it dies just after. */
function admit(call: Call, plan: FaultPlan, rng: Rng, life: HandlerLife): boolean {
  // A dead handler sends nothing more: whatever its code does next never reaches S3.
  if (life.dead) throw new Crash(`${life.id} is dead; ${call.command} was not sent`);
  life.startRequest(call.mutating);
  if (!call.mutating) return false;
  const fate = crashFate(plan, rng, life);
  if (fate === 'before') die(life, `before mutating request ${life.mutations} (${call.command})`);
  return fate === 'after';
}

async function afterSend(call: Call, plan: FaultPlan, rng: Rng, life: HandlerLife, hooks: FaultHooks, response: unknown, diesAfter: boolean): Promise<void> {
  if (rng.chance(plan.slowChance ?? 0)) await sleep(rng.int((plan.slowMs ?? 0) + 1));
  if (call.mutating) await hooks.afterMutation?.();
  if (diesAfter) {
    discard(response);
    die(life, `after mutating request ${life.mutations} (${call.command}) was applied`);
  }
  if (rng.chance(plan.resetAfterApply ?? 0)) {
    discard(response);
    life.injected += 1;
    throw connectionReset();
  }
}

function crashFate(plan: FaultPlan, rng: Rng, life: HandlerLife): 'before' | 'after' | undefined {
  if (plan.crash) return plan.crash.at === life.mutations ? plan.crash.mode : undefined;
  // One draw decides whether and when, so "before" and "after" are equally likely.
  const roll = rng.next();
  const chance = plan.crashChance ?? 0;
  return roll < chance / 2 ? 'before' : roll < chance ? 'after' : undefined;
}

function injectedStatus(plan: FaultPlan, rng: Rng, call: Call): InjectedStatus | undefined {
  if (rng.chance(plan.slowDown ?? 0)) return { status: 503, code: 'SlowDown' };
  if (rng.chance(plan.internalError ?? 0)) return { status: 500, code: 'InternalError' };
  if (call.conditional && rng.chance(plan.conflict ?? 0)) return { status: 409, code: 'ConditionalRequestConflict' };
  return undefined;
}

function die(life: HandlerLife, where: string): never {
  life.dead = true;
  throw new Crash(`${life.id} crashed ${where}`);
}

/** The response the handler never sees: its socket is dropped, as a dying process would. */
function discard(response: unknown): void {
  (response as { body?: { destroy?: () => void } } | undefined)?.body?.destroy?.();
}

function describeCall(command: string, request: unknown): Call {
  const { method = '', headers = {} } = (request ?? {}) as { method?: string; headers?: Record<string, string> };
  const conditional = Object.keys(headers).some((name) => ['if-none-match', 'if-match'].includes(name.toLowerCase()));
  return { command, method, mutating: MUTATING.has(command), conditional };
}
