import { admittedContract, decide, refusedDecision, type DecideContext } from '../gate/decide.js';
import type { Decision } from '../gate/decision.js';
import type { GateLayout } from '../gate/gate-layout.js';
import type { Decider } from '../gate/process-marker.js';
import type { Drop } from '../gate/read-drop.js';
import { boundedCheck, isDeadlineError, overrunOf, type OverrunListener } from './check-overrun.js';
import { fanoutKeys } from './fanout-layout.js';
import { requestFanout } from './request-fanout.js';
import { shouldFanOut, type FanoutLimits } from './should-fan-out.js';

export interface FanoutOptions {
  readonly layout: GateLayout;
  readonly limits: FanoutLimits;
  readonly shardBits?: number;
  /**
   * How long the check may run in this thread before the drop goes to the fan-out instead
   * (see derivedFanoutLimits). @default no budget of its own: only the handler's deadline
   */
  readonly checkMs?: number;
  /** @default Date.now */
  readonly clock?: () => number;
  /** Told when a drop under the limits ran out of time and was handed on. */
  readonly onOverrun?: OverrunListener;
}

/**
 * The validate function's decider when the fan-out is deployed: a partition within the limits is
 * decided here as always; a bigger one, or one whose check runs out of its time here, is handed
 * to the state machine. Handing off records no decision: the run's decide step records the only
 * one, through the same settleDrop, so the drop is decided exactly once.
 */
export function fanOutDecider(options: FanoutOptions): Decider {
  const clock = options.clock ?? Date.now;
  return async (context, drop) => {
    if (shouldFanOut(drop, options.limits)) return handOff(context, drop, options);
    // A redelivery of a drop handed on already: the run decides it, so it is not read again here.
    if (await context.store.head(fanoutKeys(options.layout, drop).request)) return undefined;
    try {
      return await decide(boundedCheck(context, options.checkMs, clock), drop);
    } catch (error) {
      if (!isDeadlineError(error)) throw error;
      // Nothing was recorded: a check only reads. If the handler's own time is gone too, this throws
      // and the delivery is retried, as before.
      const handed = await handOff(context, drop, options);
      options.onOverrun?.(overrunOf(drop, `the check did not finish within this invocation (${error.message}); handed to the fan-out`));
      return handed;
    }
  };
}

/**
 * The decider without a fan-out: `decide`, and a drop that runs out of time said so before the
 * delivery fails, because every delivery starts the check over and none will finish.
 */
export function inThreadDecider(onOverrun: OverrunListener): Decider {
  return async (context, drop) => {
    try {
      return await decide(context, drop);
    } catch (error) {
      if (isDeadlineError(error)) onOverrun(overrunOf(drop, 'the check did not finish within this invocation and the fan-out is off: every delivery starts over, so the marker lands in the dead-letter queue after the last receive; enable the fan-out or give the validate function more time'));
      throw error;
    }
  };
}

/** A refused drop is decided here (nothing to read); any other is requested from the fan-out. */
async function handOff(context: DecideContext, drop: Drop, options: FanoutOptions): Promise<Decision | undefined> {
  const refused = refusedDecision(context, drop);
  if (refused) return refused;
  const contract = admittedContract(context, drop);
  await requestFanout(context.store, options.layout, drop, { now: context.now, contractVersion: contract.version.text, shardBits: options.shardBits });
  return undefined;
}
