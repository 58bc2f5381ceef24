import { GateError } from '../errors.js';
import type { DecideContext } from '../gate/decide.js';
import { deadlineStore } from '../gate/deadline-store.js';
import type { Drop } from '../gate/read-drop.js';

/** What a decider says when a drop's check did not fit in the invocation: logged by the function. */
export interface CheckOverrun {
  readonly partition: string;
  readonly dataset: string;
  readonly major: number;
  readonly tag: string;
  readonly files: number;
  readonly bytes: number;
  readonly reason: string;
}

export type OverrunListener = (overrun: CheckOverrun) => void;

/** The deadline store's refusal (lib/gate/deadline-store.ts): the run stopped for time, not for the data. */
export function isDeadlineError(error: unknown): error is GateError {
  return error instanceof GateError && error.code === 'deadline';
}

/**
 * The context with a check that stops `checkMs` after now: every read of the check goes through
 * a deadline store of its own, so it stops while the handler's store still has time for the
 * handoff's calls and the lease's release.
 */
export function boundedCheck(context: DecideContext, checkMs: number | undefined, clock: () => number): DecideContext {
  if (checkMs === undefined) return context;
  return { ...context, store: deadlineStore(context.store, clock() + checkMs, clock) };
}

export function overrunOf(drop: Drop, reason: string): CheckOverrun {
  const { dataset, major, partition } = drop.address;
  const bytes = drop.files.reduce((sum, file) => sum + file.size, 0);
  return { dataset, major, partition, tag: drop.tag, files: drop.files.length, bytes, reason };
}
