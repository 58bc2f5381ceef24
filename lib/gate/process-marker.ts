import type { ObjectStore } from '../storage/object-store.js';
import { carryOut } from './carry-out.js';
import type { GateDeps } from './gate-deps.js';
import { deadlineStore } from './deadline-store.js';
import { decideDrop } from './decide-drop.js';
import type { Decision } from './decision.js';
import { markerLink } from './drop-link.js';
import { finishEarlier, type SettleDeps } from './finish-earlier.js';
import { DEFAULT_LAYOUT, parseMarkerKey, unsafeMarkerKey, type DropAddress, type GateLayout } from './gate-layout.js';
import { leaseKey, withPartitionLease, type LeaseSettings } from './partition-lease.js';
import { dropTag } from './read-drop.js';
import { pageMisplaced } from './checked-record.js';
import { createDecision, decisionKeyOf, readRecorded, type RecordedDecision } from './recorded-decision.js';
import { linkedWindow, settlePair } from './settle-pair.js';

export type { SettleDeps } from './finish-earlier.js';
export type { Decider, GateDeps } from './gate-deps.js';

export type MarkerResult =
  | { readonly status: 'ignored'; readonly key: string; readonly reason: string }
  | { readonly status: 'nothing_to_do'; readonly key: string; readonly reason: string }
  | { readonly status: 'handed_off'; readonly key: string; readonly reason: string }
  | { readonly status: 'awaiting_sibling'; readonly key: string; readonly reason: string }
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
  // A dual-write drop naming its sibling is settled with it while the window is open; after it, alone, saying so.
  const read = await markerLink(deps.store, layout, address, marker);
  const link = read && 'unread' in read ? undefined : read;
  const window = link && (await linkedWindow(deps, address, link));
  if (link && window?.open) {
    const settled = await settlePair(settle, { address, marker, key }, link);
    return 'waiting' in settled ? { status: 'awaiting_sibling', key, reason: settled.waiting } : { status: MARKER_STATUS[settled.decision.outcome], key, decision: settled.decision };
  }
  const alone = { ...(window?.note ? { note: window.note } : {}), ...(read && 'unread' in read ? { unread: read.unread } : {}) };
  const decision = await settleDrop(settle, address, dropTag(marker), (earlier) => decideDrop({ ...deps, layout }, address, marker, earlier, alone));
  if (!decision) return { status: 'handed_off', key, reason: 'a partition past the fan-out threshold: a distributed run validates it and records the decision' };
  return { status: MARKER_STATUS[decision.outcome], key, decision };
}

// The decision protocol, shared by every way of deciding a drop (here and lib/fanout/).

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

export { decisionKeyOf } from './recorded-decision.js';

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
