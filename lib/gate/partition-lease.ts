import { setTimeout as sleep } from 'node:timers/promises';
import { GateError } from '../errors.js';
import { readVersion, type ObjectStore } from '../storage/object-store.js';
import { statePrefix, type DropAddress, type GateLayout } from './gate-layout.js';

/**
 * Who may handle a partition now. Drops of one partition are handled one at a time: a re-put
 * marker or a backfill racing its predecessor waits until the earlier drop is carried out, so
 * no handler reads files another is moving, and two publishes never interleave.
 */
export interface LeaseSettings {
  /** Names the holder in the lease record and in "busy" messages. */
  readonly holder: string;
  /** How long a lease outlives a holder that died: longer than any one handler can run. */
  readonly ttlMs: number;
  /** Whether a lease another holder left may be taken before it expires (a restarted `serve`: its predecessor is dead). */
  readonly takeOver?: (holder: string) => boolean;
  /** How long to wait for a busy partition before giving up; the delivery is then retried. @default 60_000 */
  readonly waitMs?: number;
}

interface LeaseRecord {
  readonly holder: string;
  readonly token: string;
  readonly expires_at: string;
}

const POLL_MS = [50, 100, 250, 500, 1_000];

export function leaseKey(layout: GateLayout, address: DropAddress): string {
  return `${statePrefix(layout, 'leases', address)}lease.json`;
}

/** Runs `work` holding the partition's lease; the lease is released however `work` ends. */
export async function withPartitionLease<T>(store: ObjectStore, key: string, settings: LeaseSettings, now: () => number, work: () => Promise<T>): Promise<T> {
  const etag = await acquire(store, key, settings, now);
  try {
    return await work();
  } finally {
    await store.delete(key, { ifMatch: etag }).catch((error: unknown) => {
      if (!isConflict(error)) throw error; // lost to a taker: the lease is theirs now
    });
  }
}

async function acquire(store: ObjectStore, key: string, settings: LeaseSettings, now: () => number): Promise<string> {
  const token = Math.random().toString(36).slice(2, 12);
  const waitMs = settings.waitMs ?? 60_000;
  let waited = 0;
  for (let attempt = 0; ; attempt++) {
    const at = now();
    const record: LeaseRecord = { holder: settings.holder, token, expires_at: new Date(at + settings.ttlMs).toISOString() };
    const taken = await tryTake(store, key, record, settings, at);
    if (typeof taken === 'string') return taken;
    if (waited >= waitMs) throw busy(key, taken);
    const pause = POLL_MS[Math.min(attempt, POLL_MS.length - 1)]!;
    await sleep(pause);
    waited += pause;
  }
}

/** Our lease's ETag, or the record of the live lease in the way. */
async function tryTake(store: ObjectStore, key: string, record: LeaseRecord, settings: LeaseSettings, at: number): Promise<string | LeaseRecord> {
  const body = `${JSON.stringify(record)}\n`;
  const options = { contentType: 'application/json' };
  try {
    return (await store.put(key, body, { ...options, ifNoneMatch: '*' })).etag;
  } catch (error) {
    if (!isConflict(error)) throw error;
  }
  const held = await readLease(store, key);
  if (!held) return record; // released meanwhile: the next attempt creates it
  if (held.record.token === record.token) return held.etag; // our create landed, though its answer was lost
  const expired = Date.parse(held.record.expires_at) <= at;
  if (!expired && !settings.takeOver?.(held.record.holder)) return held.record;
  try {
    return (await store.put(key, body, { ...options, ifMatch: held.etag })).etag;
  } catch (error) {
    if (isConflict(error)) return held.record;
    throw error;
  }
}

async function readLease(store: ObjectStore, key: string): Promise<{ record: LeaseRecord; etag: string } | undefined> {
  const read = await readVersion(store, key);
  if (!read) return undefined;
  try {
    const record = JSON.parse(new TextDecoder().decode(read.bytes)) as Partial<LeaseRecord>;
    if (typeof record.holder === 'string' && typeof record.expires_at === 'string') return { record: record as LeaseRecord, etag: read.etag };
  } catch {
    // not a lease we wrote: treat as expired, so it cannot block the partition forever
  }
  return { record: { holder: 'unknown', token: '', expires_at: new Date(0).toISOString() }, etag: read.etag };
}

function isConflict(error: unknown): boolean {
  return error instanceof GateError && error.code === 'precondition_failed';
}

function busy(key: string, held: LeaseRecord): GateError {
  return new GateError('partition_busy', `${key}: another handler (${held.holder}) is handling a drop of this partition until ${held.expires_at} at the latest; this delivery is retried`, {
    context: { key, holder: held.holder },
  });
}
