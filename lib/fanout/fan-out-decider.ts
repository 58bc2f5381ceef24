import { GateError } from '../errors.js';
import { decide, type DecideContext } from '../gate/decide.js';
import type { Decision } from '../gate/decision.js';
import type { GateLayout } from '../gate/gate-layout.js';
import type { Decider } from '../gate/process-marker.js';
import type { Drop } from '../gate/read-drop.js';
import type { ObjectStore } from '../storage/object-store.js';
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
    const refused = await decideWithoutData(context, drop);
    if (refused) return refused;
    const contract = context.contracts.find(drop.address.dataset, drop.address.major);
    if (!contract) throw new GateError('internal', `decide() read the data of ${drop.address.dataset} v${drop.address.major} without a contract`);
    await requestFanout(context.store, options.layout, drop, { now: context.now, contractVersion: contract.version.text, shardBits: options.shardBits });
    return undefined;
  };
}

/**
 * decide() reads a drop's data only after every refusal rule (no contract, retired, path,
 * manifest) has passed. Run over a store that will not serve the staged files, it either refuses
 * the drop without reading, or asks for data, and that verdict is discarded. This asks decide()
 * itself, instead of a second copy of its rules, whether a big drop needs the fan-out at all.
 */
async function decideWithoutData(context: DecideContext, drop: Drop): Promise<Decision | undefined> {
  let wanted = false;
  const store = withoutStagedData(context.store, drop, () => (wanted = true));
  try {
    const decision = await decide({ ...context, store }, drop);
    return wanted ? undefined : decision;
  } catch (error) {
    if (wanted) return undefined;
    throw error;
  }
}

function withoutStagedData(store: ObjectStore, drop: Drop, onWanted: () => void): ObjectStore {
  const staged = new Set(drop.files.map((f) => f.key));
  const refuse = () => {
    onWanted();
    // Readers may report this as an unreadable file; the verdict is thrown away either way.
    return Promise.reject(new GateError('internal', 'staged data is not read before the fan-out'));
  };
  return {
    location: store.location,
    head: (key) => store.head(key),
    read: (key, start, end) => (staged.has(key) ? refuse() : store.read(key, start, end)),
    list: (prefix) => store.list(prefix),
    put: (key, body, writeOptions) => store.put(key, body, writeOptions),
    copy: (source, target, writeOptions) => store.copy(source, target, writeOptions),
    delete: (key) => store.delete(key),
  };
}
