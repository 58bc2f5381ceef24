import { GateError } from '../errors.js';
import type { Notifier } from '../notify/notifier.js';
import { readWhole, type ObjectStore } from '../storage/object-store.js';
import { carryOut } from './carry-out.js';
import { deadlineStore } from './deadline-store.js';
import type { ContractRegistry } from './contract-registry.js';
import { decide } from './decide.js';
import { parseDecision, type Decision } from './decision.js';
import { DEFAULT_LAYOUT, parseMarkerKey, statePrefix, type DropAddress, type GateLayout } from './gate-layout.js';
import { dropTag, readDrop } from './read-drop.js';

export interface GateDeps {
  readonly store: ObjectStore;
  readonly notifier: Notifier;
  readonly contracts: ContractRegistry;
  /** Epoch milliseconds; injected so tests and replays pin the time. */
  readonly clock: () => number;
  readonly layout?: GateLayout;
  /** Epoch ms by which the handler must have stopped (Lambda's remaining time); none: no limit. */
  readonly deadline?: number;
}

export type MarkerResult =
  | { readonly status: 'ignored'; readonly key: string; readonly reason: string }
  | { readonly status: 'nothing_to_do'; readonly key: string; readonly reason: string }
  | { readonly status: 'published' | 'quarantined'; readonly key: string; readonly decision: Decision };

/**
 * Runs the gate for one completion marker: decide once (a conditional create under `_gate/`),
 * then carry the decision out. Safe to call any number of times, concurrently, for one marker.
 */
export async function processMarker(given: GateDeps, key: string): Promise<MarkerResult> {
  const deps = given.deadline === undefined ? given : { ...given, store: deadlineStore(given.store, given.deadline, given.clock) };
  const layout = deps.layout ?? DEFAULT_LAYOUT;
  const address = parseMarkerKey(layout, key);
  if (!address) return { status: 'ignored', key, reason: `not a ${layout.marker} marker under ${layout.staging}<dataset>/v<major>/<partition>/` };
  const marker = await deps.store.head(key);
  if (!marker) return { status: 'nothing_to_do', key, reason: 'the marker is gone: this drop was already carried out' };
  const decisionKey = `${statePrefix(layout, 'decisions', address)}${dropTag(marker)}.json`;
  const decision = (await readDecision(deps.store, decisionKey)) ?? (await decideOnce(deps, layout, address, marker, decisionKey));
  await carryOut({ store: deps.store, notifier: deps.notifier, layout }, decision);
  return { status: decision.outcome === 'publish' ? 'published' : 'quarantined', key, decision };
}

async function decideOnce(deps: GateDeps, layout: GateLayout, address: DropAddress, marker: NonNullable<Awaited<ReturnType<ObjectStore['head']>>>, decisionKey: string): Promise<Decision> {
  let mine: Decision;
  try {
    const drop = await readDrop(deps.store, layout, address, marker);
    mine = await decide({ store: deps.store, contracts: deps.contracts, now: deps.clock() }, drop);
  } catch (error) {
    // Another handler may have decided and moved the files while this one was reading them.
    const theirs = await readDecision(deps.store, decisionKey);
    if (theirs) return theirs;
    throw error;
  }
  try {
    await deps.store.put(decisionKey, `${JSON.stringify(mine, null, 2)}\n`, { ifNoneMatch: '*', contentType: 'application/json' });
    return mine;
  } catch (error) {
    if (!(error instanceof GateError && error.code === 'precondition_failed')) throw error;
    const theirs = await readDecision(deps.store, decisionKey);
    if (!theirs) throw new GateError('storage_failed', `${decisionKey} exists but cannot be read as a decision`, { cause: error });
    return theirs;
  }
}

async function readDecision(store: ObjectStore, key: string): Promise<Decision | undefined> {
  const bytes = await readWhole(store, key);
  return bytes && parseDecision(new TextDecoder().decode(bytes));
}
