import { GateError } from '../errors.js';
import type { Notifier } from '../notify/notifier.js';
import { readWhole, type ObjectStore } from '../storage/object-store.js';
import { carryOut } from './carry-out.js';
import { deadlineStore } from './deadline-store.js';
import type { ContractRegistry } from './contract-registry.js';
import { decide, type DecideContext } from './decide.js';
import { parseDecision, type Decision } from './decision.js';
import { DEFAULT_LAYOUT, parseMarkerKey, statePrefix, unsafeMarkerKey, type DropAddress, type GateLayout } from './gate-layout.js';
import { dropTag, readDrop, type Drop } from './read-drop.js';

export interface GateDeps {
  readonly store: ObjectStore;
  readonly notifier: Notifier;
  readonly contracts: ContractRegistry;
  /** Epoch milliseconds; injected so tests and replays pin the time. */
  readonly clock: () => number;
  readonly layout?: GateLayout;
  /** Epoch ms by which the handler must have stopped (Lambda's remaining time); none: no limit. */
  readonly deadline?: number;
  /** Decides in place of `decide`, or hands the drop on (see Decider). @default decide */
  readonly decider?: Decider;
}

/**
 * Decides a drop, or hands it on and returns undefined: a partition too big for one handler goes
 * to the fan-out, which records the decision later through `settleDrop`.
 */
export type Decider = (context: DecideContext, drop: Drop) => Promise<Decision | undefined>;

export type MarkerResult =
  | { readonly status: 'ignored'; readonly key: string; readonly reason: string }
  | { readonly status: 'nothing_to_do'; readonly key: string; readonly reason: string }
  | { readonly status: 'handed_off'; readonly key: string; readonly reason: string }
  | { readonly status: 'published' | 'quarantined'; readonly key: string; readonly decision: Decision };

/**
 * Runs the gate for one completion marker: decide once (a conditional create under `_gate/`),
 * then carry the decision out. Safe to call any number of times, concurrently, for one marker.
 */
export async function processMarker(given: GateDeps, key: string): Promise<MarkerResult> {
  const deps = given.deadline === undefined ? given : { ...given, store: deadlineStore(given.store, given.deadline, given.clock) };
  const layout = deps.layout ?? DEFAULT_LAYOUT;
  const address = parseMarkerKey(layout, key);
  if (!address) return ignored(layout, key);
  const marker = await deps.store.head(key);
  if (!marker) return { status: 'nothing_to_do', key, reason: 'the marker is gone: this drop was already carried out' };
  const decision = await settleDrop({ ...deps, layout }, address, dropTag(marker), async () => {
    const drop = await readDrop(deps.store, layout, address, marker);
    return (deps.decider ?? decide)({ store: deps.store, contracts: deps.contracts, now: deps.clock() }, drop);
  });
  if (!decision) return { status: 'handed_off', key, reason: 'a partition past the fan-out threshold: a distributed run validates it and records the decision' };
  return { status: decision.outcome === 'publish' ? 'published' : 'quarantined', key, decision };
}

// The decision protocol, shared by every way of deciding a drop (here and lib/fanout/).

export interface SettleDeps {
  readonly store: ObjectStore;
  readonly notifier: Notifier;
  readonly layout: GateLayout;
  readonly clock: () => number;
}

/**
 * One drop, one decision: a recorded decision wins; otherwise `decideMine` decides and its verdict
 * is recorded with a conditional create, so concurrent deciders converge on the first. The
 * recorded decision is then carried out. Undefined when `decideMine` handed the drop on.
 */
export async function settleDrop(deps: SettleDeps, address: DropAddress, tag: string, decideMine: () => Promise<Decision | undefined>): Promise<Decision | undefined> {
  const decisionKey = decisionKeyOf(deps.layout, address, tag);
  const decision = (await readDecision(deps.store, decisionKey)) ?? (await decideOnce(deps.store, decisionKey, decideMine));
  if (decision) await carryOut(deps, decision);
  return decision;
}

export function decisionKeyOf(layout: GateLayout, address: DropAddress, tag: string): string {
  return `${statePrefix(layout, 'decisions', address)}${tag}.json`;
}

/** Unsafe keys say why (see unsafeMarkerKey) and are cut short: the result is logged, and a key may be forged to any length. */
function ignored(layout: GateLayout, key: string): MarkerResult {
  const unsafe = unsafeMarkerKey(layout, key);
  const shown = key.length > 300 ? `${key.slice(0, 300)}…` : key;
  if (unsafe) return { status: 'ignored', key: shown, reason: `unsafe marker key, left in staging: ${unsafe}` };
  return { status: 'ignored', key: shown, reason: `not a ${layout.marker} marker under ${layout.staging}<dataset>/v<major>/<partition>/` };
}

async function decideOnce(store: ObjectStore, decisionKey: string, decideMine: () => Promise<Decision | undefined>): Promise<Decision | undefined> {
  let mine: Decision | undefined;
  try {
    mine = await decideMine();
  } catch (error) {
    // Another handler may have decided and moved the files while this one was reading them.
    const theirs = await readDecision(store, decisionKey);
    if (theirs) return theirs;
    throw error;
  }
  if (!mine) return undefined;
  try {
    await store.put(decisionKey, `${JSON.stringify(mine, null, 2)}\n`, { ifNoneMatch: '*', contentType: 'application/json' });
    return mine;
  } catch (error) {
    if (!(error instanceof GateError && error.code === 'precondition_failed')) throw error;
    const theirs = await readDecision(store, decisionKey);
    if (!theirs) throw new GateError('storage_failed', `${decisionKey} exists but cannot be read as a decision`, { cause: error });
    return theirs;
  }
}

export async function readDecision(store: ObjectStore, key: string): Promise<Decision | undefined> {
  const bytes = await readWhole(store, key);
  return bytes && parseDecision(new TextDecoder().decode(bytes));
}
