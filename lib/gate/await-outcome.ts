import { setTimeout as sleep } from 'node:timers/promises';
import { describeError, GateError } from '../errors.js';
import type { ObjectStore } from '../storage/object-store.js';
import type { Decision } from './decision.js';
import { statePrefix, type DropAddress, type GateLayout } from './gate-layout.js';
import { decisionKeyOf } from './process-marker.js';
import { dropTag } from './read-drop.js';
import { readRecorded } from './recorded-decision.js';

/**
 * Which drop to wait for. The tag (from a HEAD of the marker right after its PUT) names the
 * decision's key exactly. When the gate was faster than that HEAD and already removed the
 * marker, only the ETag the PUT returned is known: then the decision is the new one (not in
 * `known`, the keys recorded before the upload) whose report names that marker ETag.
 */
export interface DropIdentity {
  readonly tag?: string;
  readonly etag: string;
  readonly known: ReadonlySet<string>;
}

export type AwaitedOutcome =
  | { readonly status: 'carried_out'; readonly key: string; readonly decision: Decision; readonly original?: Decision }
  | { readonly status: 'timeout'; readonly key?: string; readonly decided?: Decision };

export interface AwaitSettings {
  readonly timeoutMs: number;
  readonly progress?: (line: string) => void;
  /** Injected so a test can count polls without waiting; real timers otherwise. */
  readonly sleep?: (ms: number) => Promise<unknown>;
  readonly clock?: () => number;
}

// Quick at first (a small drop is decided in well under a second), then every 2 s: a job
// waiting for a big partition costs one or two requests every few seconds, never a busy loop.
const FIRST_DELAY_MS = 200;
const MAX_DELAY_MS = 2_000;
const FAILURES_TOLERATED = 3;

/** The decision keys recorded for a partition so far. */
export async function decisionKeys(store: ObjectStore, layout: GateLayout, address: DropAddress): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const object of store.list(statePrefix(layout, 'decisions', address))) if (object.key.endsWith('.json')) keys.add(object.key);
  return keys;
}

/** Read before the upload: a job that may not read the decisions learns it while nothing is written. */
export async function decisionsBefore(store: ObjectStore, layout: GateLayout, address: DropAddress): Promise<Set<string>> {
  try {
    return await decisionKeys(store, layout, address);
  } catch (error) {
    throw new GateError('storage_failed', `cannot list the gate's decisions under ${store.location}/${statePrefix(layout, 'decisions', address)}: ${describeError(error)}; ${waitingNeeds(layout)}. Nothing was uploaded`, { cause: error });
  }
}

function waitingNeeds(layout: GateLayout): string {
  return `waiting for the verdict needs s3:GetObject on ${layout.state}decisions/* and s3:ListBucket on the bucket (or drop with --no-wait)`;
}

/** Call right after the PUT of the marker: its ETag, LastModified and VersionId make the drop's tag. */
export async function identifyDrop(store: ObjectStore, markerKey: string, putEtag: string, known: ReadonlySet<string>): Promise<DropIdentity> {
  const marker = await store.head(markerKey);
  // Gone (already carried out) or replaced by another put: the ETag has to find the decision.
  if (!marker || marker.etag !== putEtag) return { etag: putEtag, known };
  return { tag: dropTag(marker), etag: putEtag, known };
}

/**
 * Polls until the drop's decision is recorded and carried out (`completed_at`), or the timeout
 * passes. A duplicate comes back with the decision it repeats, whose outcome is the drop's.
 */
export async function awaitOutcome(store: ObjectStore, layout: GateLayout, address: DropAddress, identity: DropIdentity, settings: AwaitSettings): Promise<AwaitedOutcome> {
  const clock = settings.clock ?? Date.now;
  const pause = settings.sleep ?? sleep;
  const deadline = clock() + settings.timeoutMs;
  const finder = decisionFinder(store, layout, address, identity);
  let delay = FIRST_DELAY_MS;
  let decided: Decision | undefined;
  for (;;) {
    const found = await finder.poll();
    if (found?.decision.completed_at !== undefined) {
      const original = found.decision.outcome === 'duplicate' ? await repeatedDecision(store, layout, address, found.decision) : undefined;
      return { status: 'carried_out', key: found.key, decision: found.decision, ...(original ? { original } : {}) };
    }
    if (found && !decided) settings.progress?.(`the gate decided: ${found.decision.outcome} (attempt ${found.decision.attempt}); waiting for it to be carried out`);
    decided = found?.decision ?? decided;
    const left = deadline - clock();
    if (left <= 0) return { status: 'timeout', ...(finder.key() ? { key: finder.key()! } : {}), ...(decided ? { decided } : {}) };
    await pause(Math.min(delay, left));
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  }
}

interface Found {
  readonly key: string;
  readonly decision: Decision;
}

/** Reads the drop's decision, by its key once known; tolerates a few failed polls in a row. */
function decisionFinder(store: ObjectStore, layout: GateLayout, address: DropAddress, identity: DropIdentity) {
  let key = identity.tag === undefined ? undefined : decisionKeyOf(layout, address, identity.tag);
  const others = new Set(identity.known);
  let failures = 0;
  const once = async (): Promise<Found | undefined> => {
    if (key) {
      const recorded = await readRecorded(store, key);
      return recorded && { key, decision: recorded.decision };
    }
    const found = await findByEtag(store, layout, address, identity.etag, others);
    if (found) key = found.key;
    return found;
  };
  return {
    key: () => key,
    async poll(): Promise<Found | undefined> {
      try {
        const found = await once();
        failures = 0;
        return found;
      } catch (error) {
        failures += 1;
        if (failures < FAILURES_TOLERATED) return undefined;
        const where = `${store.location}/${key ?? statePrefix(layout, 'decisions', address)}`;
        throw new GateError('storage_failed', `cannot read the gate's decision at ${where}: ${describeError(error)}; ${waitingNeeds(layout)}`, { cause: error });
      }
    },
  };
}

/** A decision new since the upload whose report names the marker's ETag; `others` remembers the rest. */
async function findByEtag(store: ObjectStore, layout: GateLayout, address: DropAddress, etag: string, others: Set<string>): Promise<Found | undefined> {
  for (const key of await decisionKeys(store, layout, address)) {
    if (others.has(key)) continue;
    const recorded = await readRecorded(store, key);
    if (recorded?.decision.report.source.marker.etag === etag) return { key, decision: recorded.decision };
    others.add(key);
  }
  return undefined;
}

/** The earlier decision a duplicate repeats (by attempt); its outcome is what the producer's data got. */
async function repeatedDecision(store: ObjectStore, layout: GateLayout, address: DropAddress, duplicate: Decision): Promise<Decision | undefined> {
  if (duplicate.repeats === undefined) return undefined;
  for (const key of await decisionKeys(store, layout, address)) {
    const recorded = await readRecorded(store, key);
    if (recorded?.decision.attempt === duplicate.repeats) return recorded.decision;
  }
  return undefined;
}
