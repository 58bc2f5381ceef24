import type { Notifier } from '../notify/notifier.js';
import type { ObjectStore } from '../storage/object-store.js';
import { carryOut } from './carry-out.js';
import { isMisplaced, pageMisplaced } from './checked-record.js';
import type { Decision } from './decision.js';
import { statePrefix, type DropAddress, type GateLayout } from './gate-layout.js';
import type { LeaseSettings } from './partition-lease.js';
import { readRecorded } from './recorded-decision.js';

// The decision protocol's first step, shared by a single drop (process-marker.ts) and a linked pair (settle-pair.ts).

export interface SettleDeps {
  readonly store: ObjectStore;
  readonly notifier: Notifier;
  readonly layout: GateLayout;
  readonly clock: () => number;
  readonly lease?: LeaseSettings;
}

/**
 * A handler that died mid carry-out, whose marker a newer drop then replaced, left its decision
 * unfinished: it is finished before the newer drop reads the partition. Returns every earlier
 * decision, and how many of them it finished.
 */
export async function finishEarlier(deps: SettleDeps, address: DropAddress, ownKey: string): Promise<{ earlier: Decision[]; finished: number }> {
  const earlier: Decision[] = [];
  let finished = 0;
  for (const key of await decisionKeys(deps, address, ownKey)) {
    // A decision that is not where it says it belongs is skipped: it is not this partition's to finish.
    const recorded = await readRecorded(deps.store, key, pageMisplaced(deps)).catch((error: unknown) => {
      if (isMisplaced(error)) return undefined;
      throw error;
    });
    if (!recorded) continue;
    if (recorded.decision.completed_at !== undefined) earlier.push(recorded.decision);
    else {
      earlier.push(await carryOut(deps, recorded));
      finished += 1;
    }
  }
  return { earlier, finished };
}

async function decisionKeys(deps: SettleDeps, address: DropAddress, except: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of deps.store.list(statePrefix(deps.layout, 'decisions', address))) {
    if (object.key !== except && object.key.endsWith('.json')) keys.push(object.key);
  }
  return keys;
}
