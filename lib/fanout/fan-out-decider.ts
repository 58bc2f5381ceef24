import { admittedContract, decide, refusedDecision } from '../gate/decide.js';
import type { GateLayout } from '../gate/gate-layout.js';
import type { Decider } from '../gate/process-marker.js';
import { requestFanout } from './request-fanout.js';
import { shouldFanOut, type FanoutLimits } from './should-fan-out.js';

export interface FanoutOptions {
  readonly layout: GateLayout;
  readonly limits: FanoutLimits;
  readonly shardBits?: number;
}

/**
 * The validate function's decider when the fan-out is deployed: a partition within the limits is
 * decided here as always; a bigger one that would be read is handed to the state machine.
 */
export function fanOutDecider(options: FanoutOptions): Decider {
  return async (context, drop) => {
    if (!shouldFanOut(drop, options.limits)) return decide(context, drop);
    const refused = refusedDecision(context, drop);
    if (refused) return refused;
    const contract = admittedContract(context, drop);
    await requestFanout(context.store, options.layout, drop, { now: context.now, contractVersion: contract.version.text, shardBits: options.shardBits });
    return undefined;
  };
}
