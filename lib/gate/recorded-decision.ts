import { GateError } from '../errors.js';
import { readVersion, type ObjectStore } from '../storage/object-store.js';
import { misplacedDecision, misplacedError, type MisplacedWatch } from './checked-record.js';
import { parseDecision, type Decision } from './decision.js';
import { statePrefix, type DropAddress, type GateLayout } from './gate-layout.js';

/** A decision as stored under `_gate/decisions/`, with the ETag that a change of it must match. */
export interface RecordedDecision {
  readonly key: string;
  readonly etag: string;
  readonly decision: Decision;
}

/**
 * A decision as stored at `key`. One that names another dataset, major, partition or tag than its
 * key is refused (misplacedError) and `watch` told: carried out, it would move that other place's files.
 */
export async function readRecorded(store: ObjectStore, key: string, watch?: MisplacedWatch): Promise<RecordedDecision | undefined> {
  const read = await readVersion(store, key);
  if (!read) return undefined;
  const decision = parseDecision(new TextDecoder().decode(read.bytes));
  if (!decision) throw new GateError('storage_failed', `${key} exists but cannot be read as a decision`);
  const misplaced = misplacedDecision(key, decision);
  if (misplaced !== undefined) {
    await watch?.(key, misplaced);
    throw misplacedError(store, key, misplaced);
  }
  return { key, etag: read.etag, decision };
}

/** Where the decision on the drop `tag` of a partition is recorded. */
export function decisionKeyOf(layout: GateLayout, address: DropAddress, tag: string): string {
  return `${statePrefix(layout, 'decisions', address)}${tag}.json`;
}

/** The first record of a drop's decision: concurrent deciders converge on whichever landed first. */
export async function createDecision(store: ObjectStore, key: string, decision: Decision): Promise<RecordedDecision> {
  try {
    const { etag } = await store.put(key, body(decision), { ifNoneMatch: '*', contentType: 'application/json' });
    return { key, etag, decision };
  } catch (error) {
    if (!(error instanceof GateError && error.code === 'precondition_failed')) throw error;
    const theirs = await readRecorded(store, key);
    if (!theirs) throw new GateError('storage_failed', `${key}: the decision was created and is gone`, { cause: error });
    return theirs;
  }
}

/** Replaces a record only if it is still the one read; otherwise the newer record wins. */
export async function recordDecision(store: ObjectStore, next: RecordedDecision): Promise<RecordedDecision> {
  try {
    const { etag } = await store.put(next.key, body(next.decision), { ifMatch: next.etag, contentType: 'application/json' });
    return { ...next, etag };
  } catch (error) {
    if (!(error instanceof GateError && error.code === 'precondition_failed')) throw error;
    const theirs = await readRecorded(store, next.key);
    if (!theirs) throw new GateError('storage_failed', `${next.key}: the decision record is gone`, { cause: error });
    return theirs;
  }
}

function body(decision: Decision): string {
  return `${JSON.stringify(decision, null, 2)}\n`;
}
