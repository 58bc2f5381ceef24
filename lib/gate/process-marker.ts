import type { Notifier } from '../notify/notifier.js';
import type { ObjectInfo, ObjectStore } from '../storage/object-store.js';
import { carryOut } from './carry-out.js';
import { deadlineStore } from './deadline-store.js';
import type { ContractSource } from './contract-registry.js';
import { readPlanFacts } from '../lake/plan-facts.js';
import { decide, type CheckRunner, type DecideContext, type FactsReader } from './decide.js';
import type { Decision } from './decision.js';
import { DEFAULT_LAYOUT, parseMarkerKey, statePrefix, unsafeMarkerKey, type DropAddress, type GateLayout } from './gate-layout.js';
import { leaseKey, withPartitionLease, type LeaseSettings } from './partition-lease.js';
import { changedFiles, isChangeError } from './pinned-copy.js';
import { dropTag, readDrop, type Drop } from './read-drop.js';
import { isMisplaced, pageMisplaced } from './checked-record.js';
import { createDecision, readRecorded, type RecordedDecision } from './recorded-decision.js';
import { repeatOf } from './repeat-marker.js';
import { supersededDrop } from './superseded.js';

export interface GateDeps {
  readonly store: ObjectStore;
  readonly notifier: Notifier;
  /** Asked once per drop decided, so a contract registered since is enforced on its first drop. */
  readonly contracts: ContractSource;
  /** Epoch milliseconds; injected so tests and replays pin the time. */
  readonly clock: () => number;
  readonly layout?: GateLayout;
  /** Epoch ms by which the handler must have stopped (Lambda's remaining time); none: no limit. */
  readonly deadline?: number;
  /** Decides in place of `decide`, or hands the drop on (see Decider). @default decide */
  readonly decider?: Decider;
  /** How `decide` runs the checks. @default in this thread */
  readonly checks?: CheckRunner;
  /** @default a lease that lasts until the deadline (plus a minute), or 15 minutes without one */
  readonly lease?: LeaseSettings;
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
  | { readonly status: MarkerStatus; readonly key: string; readonly decision: Decision };

export type MarkerStatus = 'published' | 'quarantined' | 'superseded' | 'duplicate';

export const MARKER_STATUS: Readonly<Record<Decision['outcome'], MarkerStatus>> = {
  publish: 'published',
  quarantine: 'quarantined',
  superseded: 'superseded',
  duplicate: 'duplicate',
};

/**
 * Runs the gate for one completion marker: decide once (a conditional create under `_gate/`),
 * then carry the decision out. Safe to call any number of times, concurrently, for one marker.
 */
export async function processMarker(given: GateDeps, key: string): Promise<MarkerResult> {
  const deps = given.deadline === undefined ? given : { ...given, store: deadlineStore(given.store, given.deadline, given.clock) };
  const layout = deps.layout ?? DEFAULT_LAYOUT;
  const address = parseMarkerKey(layout, key);
  if (!address) return ignored(layout, key);
  // Past the deadline even the release is not started: the lease then expires a minute after it.
  const settle = { ...deps, layout, lease: deps.lease ?? defaultLease(deps) };
  const marker = await deps.store.head(key);
  if (!marker) return { status: 'nothing_to_do', key, reason: await finishPartition(settle, address) };
  const decision = await settleDrop(settle, address, dropTag(marker), (earlier) => decideDrop({ ...deps, layout }, address, marker, earlier));
  if (!decision) return { status: 'handed_off', key, reason: 'a partition past the fan-out threshold: a distributed run validates it and records the decision' };
  return { status: MARKER_STATUS[decision.outcome], key, decision };
}

/** The verdict on a drop as it is now; a file that changes under the reading makes it superseded. */
async function decideDrop(deps: GateDeps & { layout: GateLayout }, address: DropAddress, marker: ObjectInfo, earlier: readonly Decision[]): Promise<Decision | undefined> {
  const contracts = await deps.contracts.current({ dataset: address.dataset, major: address.major });
  const facts: FactsReader = (contract, drop) => readPlanFacts({ store: deps.store, layout: deps.layout }, contracts, contract, drop.address.partition);
  const context: DecideContext = { store: deps.store, contracts, now: deps.clock(), facts, ...(deps.checks ? { checks: deps.checks } : {}) };
  let drop: Drop | undefined;
  try {
    drop = await readDrop(deps.store, deps.layout, address, marker);
    return repeatOf(drop, earlier, context) ?? (await (deps.decider ?? decide)(context, drop));
  } catch (error) {
    if (!isChangeError(error)) throw error;
    const listed = drop ?? { address, marker, tag: dropTag(marker), files: [], markerBody: new Uint8Array() };
    const changed = await changedFiles(deps.store, [marker, ...listed.files]);
    if (changed.length === 0) throw error;
    return supersededDrop({ location: deps.store.location, contracts, now: context.now }, listed, changed);
  }
}

// The decision protocol, shared by every way of deciding a drop (here and lib/fanout/).

export interface SettleDeps {
  readonly store: ObjectStore;
  readonly notifier: Notifier;
  readonly layout: GateLayout;
  readonly clock: () => number;
  readonly lease?: LeaseSettings;
}

/**
 * One drop, one decision: holding the partition's lease, first finish what an earlier drop of
 * the partition left undone, then a recorded decision wins; otherwise `decideMine` decides and
 * its verdict is recorded with a conditional create. The decision is then carried out.
 * Undefined when `decideMine` handed the drop on.
 */
export async function settleDrop(deps: SettleDeps, address: DropAddress, tag: string, decideMine: (earlier: readonly Decision[]) => Promise<Decision | undefined>): Promise<Decision | undefined> {
  const key = decisionKeyOf(deps.layout, address, tag);
  const lease = deps.lease ?? defaultLease({ clock: deps.clock });
  return withPartitionLease(deps.store, leaseKey(deps.layout, address), lease, deps.clock, async () => {
    const { earlier } = await finishEarlier(deps, address, key);
    const recorded = (await readRecorded(deps.store, key, pageMisplaced(deps))) ?? (await decideOnce(deps.store, key, () => decideMine(earlier)));
    return recorded && carryOut(deps, recorded);
  });
}

export function decisionKeyOf(layout: GateLayout, address: DropAddress, tag: string): string {
  return `${statePrefix(layout, 'decisions', address)}${tag}.json`;
}

/**
 * A handler that died mid carry-out, whose marker a newer drop then replaced, left its decision
 * unfinished: it is finished before the newer drop reads the partition. Returns every earlier
 * decision, and how many of them it finished.
 */
async function finishEarlier(deps: SettleDeps, address: DropAddress, ownKey: string): Promise<{ earlier: Decision[]; finished: number }> {
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

/**
 * A redelivery whose marker is gone: the drop it announced was carried out, or a handler died
 * after deciding it, once a newer drop of the partition had removed the marker they shared.
 * Whatever such a handler left undone is finished here, so a lost handler never strands a decision.
 */
async function finishPartition(deps: SettleDeps, address: DropAddress): Promise<string> {
  const lease = deps.lease ?? defaultLease({ clock: deps.clock });
  const count = await withPartitionLease(deps.store, leaseKey(deps.layout, address), lease, deps.clock, async () => (await finishEarlier(deps, address, '')).finished);
  return count === 0 ? 'the marker is gone: this drop was already carried out' : `the marker is gone; finished ${count} decided drop(s) of the partition a handler had left undone`;
}

async function decisionKeys(deps: SettleDeps, address: DropAddress, except: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of deps.store.list(statePrefix(deps.layout, 'decisions', address))) {
    if (object.key !== except && object.key.endsWith('.json')) keys.push(object.key);
  }
  return keys;
}

/** Unsafe keys say why (see unsafeMarkerKey) and are cut short: the result is logged, and a key may be forged to any length. */
function ignored(layout: GateLayout, key: string): MarkerResult {
  const unsafe = unsafeMarkerKey(layout, key);
  const shown = key.length > 300 ? `${key.slice(0, 300)}…` : key;
  if (unsafe) return { status: 'ignored', key: shown, reason: `unsafe marker key, left in staging: ${unsafe}` };
  return { status: 'ignored', key: shown, reason: `not a ${layout.marker} marker under ${layout.staging}<dataset>/v<major>/<partition>/` };
}

async function decideOnce(store: ObjectStore, key: string, decideMine: () => Promise<Decision | undefined>): Promise<RecordedDecision | undefined> {
  let mine: Decision | undefined;
  try {
    mine = await decideMine();
  } catch (error) {
    // Another handler may have decided and moved the files while this one was reading them.
    const theirs = await readRecorded(store, key);
    if (theirs) return theirs;
    throw error;
  }
  return mine && createDecision(store, key, mine);
}

/** Long enough to outlive the handler: a holder that dies blocks its partition until then. */
function defaultLease(deps: { readonly deadline?: number; readonly clock: () => number }): LeaseSettings {
  const holder = `handler-${Math.random().toString(36).slice(2, 10)}`;
  const ttlMs = deps.deadline === undefined ? 15 * 60_000 : Math.max(60_000, deps.deadline - deps.clock() + 60_000);
  return { holder, ttlMs };
}
